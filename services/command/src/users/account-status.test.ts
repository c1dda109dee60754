import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { findUserIdByEmail, registerUser } from './service';
import { accountStanding } from './account-standing';
import { userDecider } from './user';

describe('finding an account by its address does not read its whole history', () => {
  it("reads the user stream's events since the last look, and still sees an erasure", async () => {
    const eventStore = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'account-status-')), 'events.db') });
    const context = () => systemContext(new Date(), null);
    const { user_id } = await registerUser(eventStore, { email: 'asha@example.in', name: 'Asha', account_type: 'patient' }, context());
    // Years of profile edits: one event each on the user's stream.
    for (let i = 0; i < 40; i += 1) await handleCommand(eventStore, streams.user(user_id), userDecider, { type: 'UpdateProfile', data: { name: `Asha ${i}`, doctor: {} } }, context());

    const read: number[] = [];
    const readStream = eventStore.readStream.bind(eventStore);
    eventStore.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(stream, options);
      if (stream === streams.user(user_id)) read.push(events.length);
      return events;
    };
    assert.equal(await findUserIdByEmail(eventStore, 'asha@example.in'), user_id, 'found');
    read.length = 0;
    for (let i = 0; i < 3; i += 1) assert.equal(await findUserIdByEmail(eventStore, 'Asha@Example.in'), user_id, 'found again');
    assert.ok(read.every((n) => n === 0), `a look after the first reads only what came since (read: ${read.join(', ')}); the stream has 41 events`);

    await handleCommand(eventStore, streams.user(user_id), userDecider, { type: 'UpdateProfile', data: { name: 'Asha R', doctor: {} } }, context());
    await handleCommand(
      eventStore,
      streams.user(user_id),
      userDecider,
      { type: 'EraseUserData', data: { requested_by: 'self', clinical_records_retained_until: new Date().toISOString() } },
      context(),
    );
    read.length = 0;
    assert.equal(await findUserIdByEmail(eventStore, 'asha@example.in'), null, 'an erased account is no longer found');
    assert.deepEqual(read, [2], 'the look read the two new events');
    await eventStore.close();
  });
});

describe("an account's standing (every token refresh asks it) does not read its whole history", () => {
  it("reads the user stream's events since the last look, and sees a deactivation", async () => {
    const eventStore = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'account-standing-')), 'events.db') });
    const context = () => systemContext(new Date(), null);
    const { user_id } = await registerUser(eventStore, { email: 'ravi@example.in', name: 'Ravi', account_type: 'doctor' }, context());
    for (let i = 0; i < 40; i += 1) await handleCommand(eventStore, streams.user(user_id), userDecider, { type: 'UpdateProfile', data: { phone_number: `+91 90000 ${String(i).padStart(5, '0')}`, doctor: {} } }, context());

    const read: number[] = [];
    const readStream = eventStore.readStream.bind(eventStore);
    eventStore.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(stream, options);
      if (stream === streams.user(user_id)) read.push(events.length);
      return events;
    };
    assert.deepEqual(await accountStanding(eventStore, user_id), { user_id, account_type: 'doctor', active: true }, 'registered and active');
    read.length = 0;
    for (let i = 0; i < 3; i += 1) await accountStanding(eventStore, user_id);
    assert.ok(read.every((n) => n === 0), `a look after the first reads only what came since (read: ${read.join(', ')}); the stream has 42 events`);
    await handleCommand(eventStore, streams.user(user_id), userDecider, { type: 'DeactivateUser', data: { reason: 'test' } }, context());
    assert.equal((await accountStanding(eventStore, user_id))?.active, false, 'the deactivation is seen');
    await eventStore.close();
  });
});
