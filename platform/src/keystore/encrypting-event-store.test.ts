import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ERASED_VALUE } from '@telemed/contracts';
import type { StoredEvent } from '../event-store/port';
import { SqliteEventStore } from '../event-store/sqlite';
import { EncryptingEventStore } from './encrypting-event-store';
import { isCiphertext } from './envelope';
import { KeyRing } from './key-ring';
import { MemoryKeyStore } from './memory';
import { SubjectErasedError } from './port';
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

/** A doctor's post saved (its content and tags are JSON, sealed as their JSON text). */
const postSaved = (authorId: string, i: number) => ({
  event_id: randomUUID(),
  type: 'BlogPostCreated',
  data: {
    post_id: randomUUID(),
    author_id: authorId,
    title: `Post "${i}" नमस्ते`,
    description: i % 2 === 0 ? null : `About ${i}`,
    excerpt: null,
    category: 'health-tips',
    tags: [`tag ${i}`, 'fever'],
    image_url: null,
    date: '2026-12-01',
    content: { time: i, blocks: [{ type: 'paragraph', data: { text: `Rest "and" fluids, \\ ${i}\n"content":"enc1.x"` } }] },
  },
  metadata: { actor: { user_id: authorId, role: 'doctor' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
});
const ERASED_POST = { title: ERASED_VALUE, tags: [], content: { blocks: [] } };
const postText = (e: { data: unknown }) => {
  const { title, tags, content } = e.data as { title: unknown; tags: unknown; content: unknown };
  return { title, tags, content };
};

function setUp() {
  const log = new SqliteEventStore({ filename: ':memory:' });
  const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
  return { log, keyStore, store: new EncryptingEventStore(log, new KeyRing(keyStore)) };
}

const notesOf = async (store: { readStream(s: string): Promise<Array<{ data: unknown }>> }, stream: string) =>
  ((await store.readStream(stream))[0]!.data as { notes: string }).notes;

describe('the log as projections read it', () => {
  it('keeps the fields read models keep sealed as the log holds them, from this process’s appends, another’s, and live', async () => {
    const { log, keyStore, store } = setUp();
    const patient = randomUUID();
    const live: StoredEvent[] = [];
    const subscription = store.forReadModels().subscribeToAll({ fromPosition: 0, onEvents: async (events) => void live.push(...events) });
    await store.appendToStream('appointment-a', [request(patient, 'Dizzy since Monday')]);
    const stored = ((await log.readStream('appointment-a'))[0]!.data as { notes: string }).notes;
    assert.ok(isCiphertext(stored));
    const fromRecent = (await store.forReadModels().readStream('appointment-a'))[0]!;
    assert.equal((fromRecent.data as { notes: string }).notes, stored, 'from what this process appended: the ciphertext, not the plain copy');
    assert.equal(await notesOf(store, 'appointment-a'), 'Dizzy since Monday', 'deciders still read it in clear');
    const other = new EncryptingEventStore(log, new KeyRing(keyStore));
    const [read] = await other.forReadModels().readAll({ fromPosition: 0, limit: 10 });
    assert.equal((read!.data as { notes: string }).notes, stored, 'read from the log by another process');
    const deadline = Date.now() + 2000;
    while (live.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((live[0]!.data as { notes: string }).notes, stored, 'followed live');
    await subscription.stop();
    await other.close();
    await store.close();
  });
});

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

  it('read as erased when the person was erased before a system append (their fields are sealed as erased)', async () => {
    const { store } = setUp();
    const patient = randomUUID();
    await store.appendToStream('appointment-c', [request(patient, 'first')]);
    await store.keys.destroy(patient);
    await store.appendToStream('appointment-d', [request(patient, 'after erasure')], { whenErased: 'blank' });
    assert.equal(await notesOf(store, 'appointment-d'), ERASED_VALUE);
    await store.close();
  });

  it("read a JSON field sealed as erased as its erased value, of its shape (a post's content and tags)", async () => {
    const { store } = setUp();
    const doctor = randomUUID();
    await store.appendToStream('blog_post-w', [postSaved(doctor, 0)]);
    await store.keys.destroy(doctor);
    await store.appendToStream('blog_post-x', [postSaved(doctor, 1)], { whenErased: 'blank' });
    assert.deepEqual(postText((await store.readStream('blog_post-x'))[0]!), ERASED_POST);
    await store.close();
  });

  it('are refused, and nothing written, when the person was erased before an append that does not blank them', async () => {
    const { log, store } = setUp();
    const patient = randomUUID();
    await store.appendToStream('appointment-g', [request(patient, 'first')]);
    await store.keys.destroy(patient);
    await assert.rejects(store.appendToStream('appointment-h', [request(patient, 'after erasure')]), SubjectErasedError);
    assert.deepEqual(await log.readStream('appointment-h'), [], 'nothing was appended');
    await store.close();
  });

  it('are refused when one of their people is erased while they are being sealed (sealed again, nothing written)', async () => {
    const { log, keyStore, store } = setUp();
    const [a, b] = [randomUUID(), randomUUID()];
    await store.appendToStream('appointment-i', [request(a, 'first')]);
    // The second person's key is made while the first person's, already used to seal, is destroyed.
    const create = keyStore.create.bind(keyStore);
    keyStore.create = async (subjectId) => {
      if (subjectId === b && (await keyStore.get(a))) await store.keys.destroy(a);
      return create(subjectId);
    };
    await assert.rejects(store.appendToStream('appointment-j', [request(a, 'sealed before the erasure'), request(b, 'other')]), SubjectErasedError);
    assert.deepEqual(await log.readStream('appointment-j'), [], 'nothing was appended under the destroyed key');
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

  it("opens a post's JSON fields on the worker as in line; a destroyed key reads as erased of their shape, a plain post as it is", async () => {
    const { log, keyStore, store } = setUp();
    const writer = new EncryptingEventStore(log, new KeyRing(keyStore));
    const doctors = Array.from({ length: 5 }, () => randomUUID());
    const written = Array.from({ length: 600 }, (_, i) => postSaved(doctors[i % 5]!, i));
    // Every tenth written before encryption: in clear in the log.
    for (const [i, e] of written.entries()) await (i % 10 === 0 ? log : writer).appendToStream(`blog_post-${i}`, [e]);
    assert.ok(isCiphertext(((await log.readStream('blog_post-1'))[0]!.data as { content: unknown }).content), 'content is ciphertext in the log');
    await store.keys.destroy(doctors[1]!);
    const read = await readAllPages(store);
    assert.equal(read.length, 600);
    read.forEach((e, i) => {
      if (i % 10 !== 0 && i % 5 === 1) assert.deepEqual(postText(e), ERASED_POST);
      else assert.deepEqual(postText(e), postText(written[i]!), `post ${i} in clear`);
    });
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

describe('reading a SQLite file’s log ahead, decrypted on its own thread', () => {
  const page = 250;
  // Closed after each test, passed or failed: an open store keeps the test process alive.
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const store of open.splice(0).reverse()) await store.close();
  });
  const erasedEvent = (userId: string) => ({
    event_id: randomUUID(),
    type: 'PersonalDataErased',
    data: { user_id: userId, requested_by: userId, erased_at: new Date().toISOString() },
    metadata: { actor: { user_id: userId, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
  });
  async function fileLog(events: number) {
    const file = join(mkdtempSync(join(tmpdir(), 'enc-ahead-')), 'events.db');
    const log = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
    const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
    const patients = Array.from({ length: 20 }, () => randomUUID());
    // Written through another store: nothing in clear for the reader to reuse.
    const writer = new EncryptingEventStore(log, new KeyRing(keyStore));
    for (let i = 0; i < events; i += 1) await writer.appendToStream(`a-${i}`, [request(patients[i % 20]!, `visit ${i}`)]);
    const store = new EncryptingEventStore(withoutClose(log), new KeyRing(keyStore));
    open.push(log, store);
    assert.equal(await store.readAheadOnThread(), true, 'the thread starts');
    return { file, log, keyStore, writer, store, patients };
  }
  const readAllPages = async (store: EncryptingEventStore) => {
    const read: StoredEvent[] = [];
    for (let from = 0; ; ) {
      const events = await store.readAll({ fromPosition: from, limit: page });
      if (events.length === 0) return read;
      read.push(...events);
      from = events[events.length - 1]!.position;
    }
  };
  const notes = (e: StoredEvent) => (e.data as { notes?: string }).notes;

  it('gives page after page exactly what the log holds, in clear, the pages after the first from the thread', async () => {
    const { log, store } = await fileLog(2000);
    const read = await readAllPages(store);
    assert.equal(read.length, 2000);
    read.forEach((e, i) => assert.equal(notes(e), `visit ${i}`));
    const raw = await log.readAll({ fromPosition: 0, limit: 2000 });
    assert.deepEqual(
      read.map((e) => ({ ...e, data: { ...(e.data as object), notes: 'x' } })),
      raw.map((e) => ({ ...e, data: { ...(e.data as object), notes: 'x' } })),
      'every other column as stored',
    );
    assert.ok(store.pagesDecryptedAhead >= 6, `pages from the thread: ${store.pagesDecryptedAhead}`);
  });

  it('opens every personal field of an event, whatever its text holds, exactly as reading it in line does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'enc-ahead-')), 'events.db');
    const log = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
    const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
    const writer = new EncryptingEventStore(log, new KeyRing(keyStore));
    const awkward = (i: number) => `Ā "quoted" \\ back\nslash, "notes":"enc1.not-a-key.x" ${i} नमस्ते`;
    for (let i = 0; i < 3 * page; i += 1) {
      const userId = randomUUID();
      const metadata = { actor: { user_id: userId, role: 'admin' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() };
      // Six personal fields in an order of their own, between fields that are not personal (one holding text that
      // looks like a sealed field).
      const data = { institution_id: awkward(i), phone: `+91 ${i}`, user_id: userId, department: awkward(i), role: 'doctor', name: `Dr ${awkward(i)}`, email: `${i}@x.in`, role_title: '', specialization: awkward(i) };
      await writer.appendToStream(`staff-${i}`, [{ event_id: randomUUID(), type: 'InstitutionStaffAdded', data, metadata }]);
    }
    const store = new EncryptingEventStore(withoutClose(log), new KeyRing(keyStore));
    open.push(log, store);
    assert.equal(await store.readAheadOnThread(), true, 'the thread starts');
    const read = await readAllPages(store);
    const inLine = new EncryptingEventStore(withoutClose(log), new KeyRing(keyStore));
    open.push(inLine);
    const expected: StoredEvent[] = [];
    for (let i = 0; i < 3 * page; i += 1) expected.push(...(await inLine.readStream(`staff-${i}`)));
    assert.deepEqual(read, expected);
    assert.equal((read[7]!.data as { department: string }).department, awkward(7), 'a field in clear');
    assert.ok(store.pagesDecryptedAhead >= 2, `pages from the thread: ${store.pagesDecryptedAhead}`);
  });

  it("opens a post's JSON fields on the thread as in line; a destroyed key reads as erased of their shape, a plain post as it is", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'enc-ahead-')), 'events.db');
    const log = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
    const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
    const writer = new EncryptingEventStore(log, new KeyRing(keyStore));
    const doctors = Array.from({ length: 5 }, () => randomUUID());
    const written = Array.from({ length: 3 * page }, (_, i) => postSaved(doctors[i % 5]!, i));
    for (const [i, e] of written.entries()) await (i % 10 === 0 ? log : writer).appendToStream(`blog_post-${i}`, [e]);
    await writer.keys.destroy(doctors[1]!);
    const store = new EncryptingEventStore(withoutClose(log), new KeyRing(keyStore));
    open.push(log, store);
    assert.equal(await store.readAheadOnThread(), true, 'the thread starts');
    const read = await readAllPages(store);
    const inLine = new EncryptingEventStore(withoutClose(log), new KeyRing(keyStore));
    open.push(inLine);
    const expected: StoredEvent[] = [];
    for (let i = 0; i < 3 * page; i += 1) expected.push(...(await inLine.readStream(`blog_post-${i}`)));
    assert.deepEqual(read, expected);
    read.forEach((e, i) => {
      if (i % 10 !== 0 && i % 5 === 1) assert.deepEqual(postText(e), ERASED_POST);
      else assert.deepEqual(postText(e), postText(written[i]!), `post ${i} in clear`);
    });
    assert.ok(store.pagesDecryptedAhead >= 2, `pages from the thread: ${store.pagesDecryptedAhead}`);
  });

  it('a key destroyed here while pages are read ahead: the next pages read it as erased', async () => {
    const { store, patients } = await fileLog(1500);
    const first = await store.readAll({ fromPosition: 0, limit: page });
    let from = first[first.length - 1]!.position;
    const second = await store.readAll({ fromPosition: from, limit: page });
    from = second[second.length - 1]!.position;
    await store.keys.destroy(patients[3]!);
    const rest: StoredEvent[] = [];
    for (;;) {
      const events = await store.readAll({ fromPosition: from, limit: page });
      if (events.length === 0) break;
      rest.push(...events);
      from = events[events.length - 1]!.position;
    }
    const ofPatient = rest.filter((e) => (e.data as { patient_id: string }).patient_id === patients[3]);
    assert.ok(ofPatient.length > 0, 'the patient has events after the destroy');
    assert.ok(ofPatient.every((e) => notes(e) === ERASED_VALUE), 'read as erased after the destroy');
    assert.ok(rest.filter((e) => (e.data as { patient_id: string }).patient_id !== patients[3]).every((e) => notes(e)!.startsWith('visit ')), 'the others in clear');
  });

  it('an erasure by another process, met in the log: from there on, and on a read from the start, the person reads as erased', async () => {
    const { keyStore, writer, store, patients } = await fileLog(1000);
    const before = await readAllPages(store); // the reader holds every key now, and so does its thread
    assert.ok(before.every((e) => notes(e)!.startsWith('visit ')), 'all in clear before the erasure');
    // Another process erases patient 5: its key is destroyed in the shared key store and the erasure is logged.
    await new KeyRing(keyStore).destroy(patients[5]!);
    await writer.appendToStream(`user-${patients[5]}`, [erasedEvent(patients[5]!)]);
    for (let i = 0; i < 600; i += 1) await writer.appendToStream(`b-${i}`, [request(patients[i % 20]!, `later ${i}`)]);
    const again = await readAllPages(store);
    const ofPatient = again.filter((e) => e.type === 'AppointmentRequested' && (e.data as { patient_id: string }).patient_id === patients[5]);
    const erasedAt = again.findIndex((e) => e.type === 'PersonalDataErased');
    assert.ok(erasedAt > 0, 'the erasure is read');
    // Before the reader meets the erasure it still holds the key (as a reader in line does); after it, never again.
    assert.ok(again.slice(erasedAt).filter((e) => ofPatient.includes(e)).every((e) => notes(e) === ERASED_VALUE), 'erased after the erasure');
    const third = await readAllPages(store);
    assert.ok(store.pagesDecryptedAhead > 0, 'the thread read pages');
    const erasedNotes = third.filter((e) => e.type === 'AppointmentRequested' && (e.data as { patient_id: string }).patient_id === patients[5]).map(notes);
    assert.ok(erasedNotes.length > 50, 'the erased patient has events');
    assert.deepEqual(new Set(erasedNotes), new Set([ERASED_VALUE]), 'every page, the thread’s included, reads the person as erased');
    assert.ok(third.filter((e) => e.type === 'AppointmentRequested' && (e.data as { patient_id: string }).patient_id !== patients[5]).every((e) => /^(visit|later) /.test(notes(e)!)), 'the others in clear');
  });

  it('as projections read it, leaves a visit’s reason as the log’s ciphertext, pages from the thread included, and opens the rest', async () => {
    const { log, writer, store, patients } = await fileLog(1500);
    const name = `Asha "Rao" ${randomUUID().slice(0, 4)}`;
    await writer.appendToStream(`user-${patients[3]}`, [
      {
        event_id: randomUUID(),
        type: 'UserRegistered',
        data: { user_id: patients[3], email: `${patients[3]}@example.in`, name, account_type: 'patient', phone_number: null },
        metadata: { actor: { user_id: patients[3]!, role: 'patient' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
      },
    ]);
    for (let i = 0; i < 700; i += 1) await writer.appendToStream(`c-${i}`, [request(patients[i % 20]!, `after ${i}`)]);
    const view = store.forReadModels();
    const read: StoredEvent[] = [];
    for (let from = 0; ; ) {
      const events = await view.readAll({ fromPosition: from, limit: page });
      if (events.length === 0) break;
      read.push(...events);
      from = events[events.length - 1]!.position;
    }
    const raw = await log.readAll({ fromPosition: 0, limit: 5000 });
    assert.equal(read.length, raw.length);
    const requests = read.filter((e) => e.type === 'AppointmentRequested');
    assert.deepEqual(requests.map(notes), raw.filter((e) => e.type === 'AppointmentRequested').map(notes), 'each reason exactly as the log holds it');
    assert.ok(requests.every((e) => isCiphertext(notes(e))));
    assert.ok(store.pagesDecryptedAhead >= 4, `pages from the thread: ${store.pagesDecryptedAhead}`);
    const registered = read.find((e) => e.type === 'UserRegistered')!;
    assert.equal((registered.data as { name: string }).name, name, 'a name is opened: projections search and sort by it');
    // The same store read as deciders read it: everything in clear, the thread's pages included.
    const plain = await readAllPages(store);
    assert.ok(plain.filter((e) => e.type === 'AppointmentRequested').every((e) => /^(visit|after) \d+$/.test(notes(e)!)));
  });

  it('an altered ciphertext in the file fails the read of its page, thread or not', async () => {
    const { file, store } = await fileLog(1000);
    const db = new Database(file);
    db.exec('DROP TRIGGER events_are_immutable_update');
    const row = db.prepare<[], { data: string }>('SELECT data FROM events WHERE position = 700').get()!;
    const data = JSON.parse(row.data) as { notes: string };
    const parts = data.notes.split('.');
    parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
    db.prepare('UPDATE events SET data = ? WHERE position = 700').run(JSON.stringify({ ...data, notes: parts.join('.') }));
    db.close();
    await assert.rejects(readAllPages(store), /does not authenticate/);
  });
});

/** The log with a close that does nothing: the test closes it itself, after the store that reads it. */
function withoutClose(log: SqliteEventStore): SqliteEventStore {
  return new Proxy(log, {
    get(target, key, receiver) {
      if (key === 'close') return async () => undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
