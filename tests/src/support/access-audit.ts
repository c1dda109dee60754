import assert from 'node:assert/strict';
import { streams, type EventData } from '@telemed/contracts';
import type { TestApp, TestUser } from './test-app';

export type Access = EventData<'PersonalDataAccessed'>;

/** The access-audit events a reader's requests appended (their access_audit stream), in order. */
export async function accessesBy(t: TestApp, reader: TestUser): Promise<Access[]> {
  const events = await t.app.eventStore.readStream(streams.accessAudit(reader.user_id));
  return events.map((e) => {
    assert.equal(e.type, 'PersonalDataAccessed');
    return e.data as Access;
  });
}

/** Runs reads and returns the audit events they appended. */
export async function auditedReads(t: TestApp, reader: TestUser, read: () => Promise<unknown>): Promise<Access[]> {
  const before = (await accessesBy(t, reader)).length;
  await read();
  return (await accessesBy(t, reader)).slice(before);
}

/** The people an audit event names, sorted. */
export const subjectIds = (event: Access) => event.subjects.map((s) => s.user_id).sort();

/** Runs `work` while every append to an access-audit stream fails (a full disk), then restores the store. */
export async function withAuditUnwritable(t: TestApp, work: () => Promise<void>): Promise<void> {
  const store = t.app.eventStore;
  const original = store.appendToStream.bind(store);
  store.appendToStream = async (stream, events, options) => {
    if (stream.startsWith('access_audit-')) throw new Error('disk full');
    return original(stream, events, options);
  };
  try {
    await work();
  } finally {
    store.appendToStream = original;
  }
}
