import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { SqliteEventStore } from '../event-store/sqlite';
import { EncryptingEventStore } from './encrypting-event-store';
import { isCiphertext } from './envelope';
import { KeyRing } from './key-ring';
import { MemoryKeyStore } from './memory';
import { generateMasterKeyText, parseMasterKey } from './master-key';

const request = (patientId: string, notes: string) => ({
  event_id: randomUUID(),
  type: 'AppointmentRequested',
  data: {
    appointment_id: randomUUID(),
    slot_id: 1,
    doctor_id: randomUUID(),
    patient_id: patientId,
    start_time: '2026-12-01T05:00:00Z',
    end_time: '2026-12-01T05:30:00Z',
    notes,
  },
  metadata: { actor: { user_id: patientId, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
});

function setUp() {
  const log = new SqliteEventStore({ filename: ':memory:' });
  const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
  return { log, keyStore, store: new EncryptingEventStore(log, new KeyRing(keyStore)) };
}

const notesOf = async (store: { readStream(s: string): Promise<Array<{ data: unknown }>> }, stream: string) =>
  ((await store.readStream(stream))[0]!.data as { notes: string }).notes;

describe('the encrypting store’s own recent appends', () => {
  it('are read back in clear without decrypting, as a copy nobody can change, while the log holds ciphertext', async () => {
    const { log, keyStore, store } = setUp();
    const patient = randomUUID();
    await store.appendToStream('appointment-a', [request(patient, 'Dizzy since Monday')]);
    assert.ok(isCiphertext(((await log.readStream('appointment-a'))[0]!.data as { notes: string }).notes));
    // The key destroyed underneath the ring (as another process would): a decryption would now read as erased.
    await keyStore.destroy(patient);
    const [event] = await store.readStream('appointment-a');
    assert.equal((event!.data as { notes: string }).notes, 'Dizzy since Monday', 'served from what this process appended');
    assert.throws(() => ((event!.data as { notes: string }).notes = 'changed'), TypeError);
    const fresh = new EncryptingEventStore(log, new KeyRing(keyStore));
    assert.equal(await notesOf(fresh, 'appointment-a'), ERASED_VALUE, 'another process decrypts, and the key is gone');
    await store.close();
  });

  it('read back exactly as the log would give them (through JSON: no undefined members)', async () => {
    const { log, store } = setUp();
    const event = request(randomUUID(), 'Cough');
    await store.appendToStream('appointment-g', [{ ...event, data: { ...event.data, follow_up: undefined } }]);
    const fresh = new EncryptingEventStore(log, store.keys);
    const [kept] = await store.readStream('appointment-g');
    assert.ok(!Object.hasOwn(kept!.data as object, 'follow_up'));
    assert.deepEqual(kept!.data, { ...(await fresh.readStream('appointment-g'))[0]!.data as object });
    await store.close();
  });

  it('are forgotten as soon as a key is: an erasure here never serves the plain data again', async () => {
    const { store } = setUp();
    const patient = randomUUID();
    await store.appendToStream('appointment-b', [request(patient, 'Chest pain')]);
    await store.keys.destroy(patient);
    assert.equal(await notesOf(store, 'appointment-b'), ERASED_VALUE);
    await store.close();
  });

  it('read as erased when the person was erased before the append (their fields are sealed as erased)', async () => {
    const { store } = setUp();
    const patient = randomUUID();
    await store.appendToStream('appointment-c', [request(patient, 'first')]);
    await store.keys.destroy(patient);
    await store.appendToStream('appointment-d', [request(patient, 'after erasure')]);
    assert.equal(await notesOf(store, 'appointment-d'), ERASED_VALUE);
    await store.close();
  });

  it('are not kept when the append fails', async () => {
    const { log, store } = setUp();
    const patient = randomUUID();
    const event = request(patient, 'Fever');
    await store.appendToStream('appointment-e', [request(patient, 'first')]);
    await assert.rejects(store.appendToStream('appointment-e', [event], { expectedRevision: 'no_stream' }));
    await log.appendToStream('appointment-f', [{ ...event, data: { ...event.data, notes: 'written by someone else' } }]);
    assert.equal(await notesOf(store, 'appointment-f'), 'written by someone else');
    await store.close();
  });
});

describe('reading the log ahead', () => {
  const page = 250;
  async function logOf(events: number) {
    const setup = setUp();
    const patients = Array.from({ length: 20 }, () => randomUUID());
    for (let i = 0; i < events; i += 1) await setup.log.appendToStream(`a-${i}`, [request(patients[i % 20]!, `visit ${i}`)]);
    const sealed = setUp();
    // The same log, encrypted through a store that is not the one reading (nothing in clear to reuse).
    const writer = new EncryptingEventStore(sealed.log, new KeyRing(sealed.keyStore));
    for (const e of await setup.log.readAll({ fromPosition: 0, limit: events })) await writer.appendToStream(e.stream_id, [{ event_id: e.event_id, type: e.type, data: e.data, metadata: e.metadata as never }]);
    await setup.log.close();
    return { ...sealed, store: new EncryptingEventStore(sealed.log, new KeyRing(sealed.keyStore)), patients };
  }
  const readAllPages = async (store: EncryptingEventStore) => {
    const read: Array<{ data: unknown }> = [];
    for (let from = 0; ; ) {
      const events = await store.readAll({ fromPosition: from, limit: page });
      if (events.length === 0) return read;
      read.push(...events);
      from = events[events.length - 1]!.position;
    }
  };

  it('gives page after page exactly what reading each in line gives, decrypted on the worker', async () => {
    const { store, log } = await logOf(1000);
    const read = await readAllPages(store);
    assert.equal(read.length, 1000);
    read.forEach((e, i) => assert.equal((e.data as { notes: string }).notes, `visit ${i}`));
    assert.ok(read.every((e) => !isCiphertext((e.data as { notes: string }).notes)));
    await log.close();
    await store.close();
  });

  it('reads a page again when a key was forgotten after it was read ahead', async () => {
    const { store, log, patients } = await logOf(600);
    const first = await store.readAll({ fromPosition: 0, limit: page });
    await store.keys.destroy(patients[3]!);
    const second = await store.readAll({ fromPosition: first[first.length - 1]!.position, limit: page });
    const ofPatient = second.filter((e) => (e.data as { patient_id: string }).patient_id === patients[3]);
    assert.ok(ofPatient.length > 0);
    assert.ok(ofPatient.every((e) => (e.data as { notes: string }).notes === ERASED_VALUE));
    await log.close();
    await store.close();
  });

  it('an altered ciphertext in a page read ahead fails the read that takes it', async () => {
    // The first byte of the encrypted value flipped: the tag no longer authenticates it.
    const alter = (text: string) => {
      const parts = text.split('.');
      parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
      return parts.join('.');
    };
    const { store, log } = await logOf(300);
    const tampered = new EncryptingEventStore(
      {
        ...log,
        readAll: async (o: { fromPosition: number; limit: number }) =>
          (await log.readAll(o)).map((e) => (e.position > page ? { ...e, data: { ...(e.data as object), notes: alter((e.data as { notes: string }).notes) } } : e)),
        readStream: log.readStream.bind(log),
        close: log.close.bind(log),
      } as unknown as SqliteEventStore,
      store.keys,
    );
    const first = await tampered.readAll({ fromPosition: 0, limit: page });
    await assert.rejects(tampered.readAll({ fromPosition: first[first.length - 1]!.position, limit: page }), /does not authenticate/);
    await tampered.close();
  });
});
