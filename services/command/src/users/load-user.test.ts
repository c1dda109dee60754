import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { consentNotice, streams } from '@telemed/contracts';
import { SqliteEventStore, type EventStore, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { handleCommand, readStream, systemContext } from '../decider';
import { consentDecider } from '../consents/consent';
import { userDecider, type UserCommand } from './user';
import { erasureEvent, handleUserCommand, loadUserFold, userOutlinesOf } from './load-user';

/** A small deterministic generator (mulberry32), so a failure names its seed and repeats. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const openStore = () => new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'load-user-')), 'events.db') });

/** How many events each read of `stream` returned. */
function reads(store: EventStore, stream: string): number[] {
  const counts: number[] = [];
  const readStream = store.readStream.bind(store);
  store.readStream = async (name: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
    const events = await readStream(name, options);
    if (name === stream) counts.push(events.length);
    return events;
  };
  return counts;
}

describe('a user loaded from its kept outline and the events that set its personal fields', () => {
  it("is the decider's state folded from the whole stream, after every command of many histories, written here or by another process", async () => {
    const store = openStore();
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = random(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
      const user_id = `user-${seed}`;
      const stream = streams.user(user_id);
      const doctor = next() < 0.5;
      const context = () => systemContext(new Date(), null);
      const check = async (what: string) => {
        const loaded = await loadUserFold(store, user_id);
        const full = await readStream(store, stream, userDecider);
        assert.deepStrictEqual(loaded, full, `seed ${seed}, after ${what}`);
      };
      const run = async (command: UserCommand) => {
        try {
          // Most commands through the kept outline; some as another process would write them (a whole read), so the
          // next look meets events it did not write and an append it makes may conflict.
          if (next() < 0.7) await handleUserCommand(store, user_id, command, context());
          else await handleCommand(store, stream, userDecider, command, context());
        } catch {
          // refused: nothing written
        }
        await check(command.type);
      };
      await run({
        type: 'RegisterUser',
        data: {
          user_id,
          email: next() < 0.8 ? `${user_id}@x.in` : null,
          name: `Name ${seed}`,
          account_type: doctor ? 'doctor' : 'patient',
          phone_number: next() < 0.5 ? '+91 90000 00000' : null,
          doctor: doctor
            ? { doctor_number: seed, specialty: 'ENT', qualification: 'MD', consultation_fee: 500, appointment_duration_minutes: 30, registration_number: next() < 0.5 ? `REG-${seed}` : null, medical_council: null }
            : null,
        },
      });
      for (let i = 1; i <= 25; i += 1) {
        const kind = pick(['profile', 'profile', 'doctor', 'subscribe', 'deactivate', 'reactivate', 'password', 'consent', 'erase', 'destroy'] as const);
        if (kind === 'profile') {
          await run({ type: 'UpdateProfile', data: { name: next() < 0.6 ? `Name ${seed}.${i}` : undefined, phone_number: next() < 0.3 ? undefined : next() < 0.5 ? null : `+91 90000 ${String(i).padStart(5, '0')}` } });
        } else if (kind === 'doctor') {
          await run({ type: 'UpdateProfile', data: { doctor: { consultation_fee: 100 * i, registration_number: next() < 0.4 ? undefined : next() < 0.5 ? null : `REG-${seed}-${i}` } } });
        } else if (kind === 'subscribe') await run({ type: 'SubscribeToDoctor', data: { doctor_id: pick(['d1', 'd2', 'd3']), doctor_exists: true } });
        else if (kind === 'deactivate') await run({ type: 'DeactivateUser', data: { reason: `reason ${i}` } });
        else if (kind === 'reactivate') await run({ type: 'ReactivateUser', data: {} });
        else if (kind === 'password') await run({ type: 'SetPassword', data: { password_hash: `$argon2id$v=19$${seed}-${i}` } });
        else if (kind === 'consent') {
          const notice = consentNotice('en');
          await handleCommand(store, stream, consentDecider, { type: 'GiveConsent', data: { notice_version: notice.version, notice } }, context()).catch(() => undefined);
          await check('GiveConsent');
        } else if (kind === 'erase' && next() < 0.3) {
          await run({ type: 'EraseUserData', data: { requested_by: 'self', clinical_records_retained_until: '2030-01-01T00:00:00Z' } });
        } else if (kind === 'destroy') await run({ type: 'DestroyClinicalRecords' });
      }
      // A fresh process's fold (no kept outline) agrees as well.
      const full = await readStream(store, stream, userDecider);
      const { state: outline } = await userOutlinesOf(store).current(stream);
      if (outline.status === 'registered') {
        assert.deepEqual(Object.keys(outline).filter((k) => ['email', 'name', 'phone_number', 'password_hash'].includes(k)), [], `seed ${seed}: no personal field kept`);
        assert.equal(outline.doctor && 'registration_number' in outline.doctor, outline.doctor ? false : null, `seed ${seed}: no registration number kept`);
      }
      if (full.state.status === 'erased') {
        const all = await store.readStream(stream);
        const erasure = all.find((e) => e.type === 'PersonalDataErased');
        assert.equal((await erasureEvent(store, user_id))?.event_id, erasure?.event_id, `seed ${seed}: the erasure's event`);
      } else assert.equal(await erasureEvent(store, user_id), null);
    }
    await store.close();
  });

  it('reads the events since the last look and the few events that hold the personal fields, however long the stream', async () => {
    const store = openStore();
    const user_id = 'long-lived';
    const stream = streams.user(user_id);
    const context = () => systemContext(new Date(), null);
    await handleUserCommand(store, user_id, { type: 'RegisterUser', data: { user_id, email: 'a@x.in', name: 'Asha', account_type: 'patient', phone_number: null, doctor: null } }, context());
    for (let i = 0; i < 60; i += 1) await handleUserCommand(store, user_id, { type: 'SubscribeToDoctor', data: { doctor_id: `d-${i}`, doctor_exists: true } }, context());
    await handleUserCommand(store, user_id, { type: 'SetPassword', data: { password_hash: '$argon2id$v=19$x' } }, context());
    const counts = reads(store, stream);
    const { state } = await loadUserFold(store, user_id);
    assert.equal(state.status === 'registered' && state.password_hash, '$argon2id$v=19$x');
    assert.ok(counts.every((n) => n <= 1), `each read returned at most one event of over 60 (${counts.join(', ')})`);
    await store.close();
  });
});
