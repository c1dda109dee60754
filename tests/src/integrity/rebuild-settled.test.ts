import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@telemed/contracts';
import { MemoryReadStore, SETTLED, SqliteEventStore, SqliteReadStore, type NewEvent } from '@telemed/platform';
import { ProjectionRunner, allProjections, type Projection } from '@telemed/query';

const ev = (type: string, data: unknown, user_id = 'system', role = 'system'): NewEvent => ({
  event_id: randomUUID(),
  type,
  data,
  metadata: { actor: { user_id, role }, correlation_id: randomUUID(), causation_id: null, occurred_at: '2026-11-20T10:00:00.000Z' },
});

/** One booking's life as a rebuild reads it: registrations, a slot opened, reserved, requested, approved. */
async function bookingLog() {
  const store = new SqliteEventStore({ filename: ':memory:' });
  const doctor = randomUUID();
  const patient = randomUUID();
  const appointment_id = randomUUID();
  const slot_id = 1_000_000_123;
  const times = { start: '2026-12-01T05:00:00Z', end: '2026-12-01T05:30:00Z' };
  await store.appendToStream(`user-${doctor}`, [
    ev('UserRegistered', { user_id: doctor, email: 'd@x', name: 'Dr D', account_type: 'doctor', phone_number: null }),
    ev('DoctorRegistered', { doctor_id: doctor, doctor_number: 1, specialty: 'General Medicine', qualification: 'MD', consultation_fee: 100, appointment_duration_minutes: 30, registration_number: null, medical_council: null }),
  ]);
  await store.appendToStream(`user-${patient}`, [ev('UserRegistered', { user_id: patient, email: 'p@x', name: 'P', account_type: 'patient', phone_number: null })]);
  await store.appendToStream(`slot-${slot_id}`, [
    ev('SlotOpened', { slot_id, doctor_id: doctor, ...times }),
    ev('SlotReserved', { slot_id, doctor_id: doctor, appointment_id, patient_id: patient, ...times }),
  ]);
  await store.appendToStream(`appointment-${appointment_id}`, [
    ev('AppointmentRequested', { appointment_id, slot_id, doctor_id: doctor, patient_id: patient, ...times, notes: 'n' }, patient, 'patient'),
    ev('AppointmentApproved', { appointment_id, doctor_id: doctor }, doctor, 'doctor'),
  ]);
  return store;
}

describe('a rebuild does not wait for writes that are done as they are called', () => {
  it('the in-memory store answers SETTLED, and a booking\'s events apply without a promise of their own', async () => {
    const log = await bookingLog();
    try {
      const events = (await log.readAll({ fromPosition: 0, limit: 100 })) as unknown as RecordedEvent[];
      const readStore = new MemoryReadStore();
      const batch = readStore.beginBatch();
      const settledBy: string[] = [];
      for (const event of events) {
        for (const projection of allProjections.filter((p) => p.handles.has(event.type))) {
          const done = projection.apply(event, batch);
          if (done === SETTLED) settledBy.push(`${projection.name}:${event.type}`);
          await done;
        }
      }
      // Those that read first too (a slot's doctor range, a request's people, an institution's look-ups): in memory the
      // reads answer at once (getNow), so nothing waits.
      for (const expected of [
        'slots:SlotOpened',
        'appointments:AppointmentRequested',
        'institution_appointments:AppointmentRequested',
        'institution_appointments:AppointmentApproved',
        'slots:SlotReserved',
        'pending_reservations:SlotReserved',
        'appointment_history:SlotReserved',
        'pending_reservations:AppointmentRequested',
        'appointment_history:AppointmentRequested',
        'appointments:AppointmentApproved',
        'appointment_history:AppointmentApproved',
      ]) {
        assert.ok(settledBy.includes(expected), `${expected} answers SETTLED (got ${settledBy.join(', ')})`);
      }
      assert.equal(await readStore.collection('x').put({ _id: 'a' }), undefined);
      assert.equal(readStore.collection('x').put({ _id: 'b' }), SETTLED);
      assert.equal(readStore.collection('x').patch('b', {}), SETTLED);
      assert.equal(readStore.collection('x').delete('b'), SETTLED);
    } finally {
      await log.close();
    }
  });

  it('so does a SQLite batch (what `npm start` rebuilds into): its writes land in the batch, its look-ups answer at once', async () => {
    const log = await bookingLog();
    const dir = mkdtempSync(join(tmpdir(), 'rebuild-settled-'));
    const readStore = new SqliteReadStore({ filename: join(dir, 'read-models.db') });
    try {
      const events = (await log.readAll({ fromPosition: 0, limit: 100 })) as unknown as RecordedEvent[];
      const batch = readStore.beginBatch();
      const notSettled: string[] = [];
      for (const event of events) {
        for (const projection of allProjections.filter((p) => p.handles.has(event.type))) {
          const done = projection.apply(event, batch);
          // A booking's events (registrations are rare, and their projections still await).
          if (done !== SETTLED && event.type.match(/^(Slot|Appointment)/)) notSettled.push(`${projection.name}:${event.type}`);
          await done;
        }
      }
      assert.deepEqual(notSettled, []);
      await batch.commit([]);
      // What the batch's look-ups read is what the file holds once committed.
      const slots = await readStore.collection<{ _id: string; status: string }>('slots').find({});
      assert.deepEqual(slots.map((s) => s.status), ['reserved']);
      const appointment = (await readStore.collection<{ _id: string; doctor_name: string; status: string }>('appointments').find({}))[0]!;
      assert.deepEqual([appointment.doctor_name, appointment.status], ['Dr D', 'confirmed']);
    } finally {
      await readStore.close();
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the runner goes from event to event without a turn of the microtask queue when a projection answers SETTLED, and waits when it does not', async () => {
    const log = await bookingLog();
    try {
      let turned = false;
      const seen: boolean[] = [];
      const probe = (settled: boolean): Projection => ({
        name: `probe-${settled}`,
        version: 1,
        collections: [],
        handles: new Set(['SlotOpened', 'SlotReserved'] as const),
        apply: (event) => {
          if (event.type === 'SlotOpened') {
            turned = false;
            void Promise.resolve().then(() => (turned = true));
          } else seen.push(turned);
          return settled ? SETTLED : Promise.resolve();
        },
      });
      await new ProjectionRunner({ eventStore: log, readStore: new MemoryReadStore(), projections: [probe(true)] }).catchUp();
      await new ProjectionRunner({ eventStore: log, readStore: new MemoryReadStore(), projections: [probe(false)] }).catchUp();
      // (That the read models are those of a store whose every write is awaited: buffered-projections.test.ts.)
      assert.deepEqual(seen, [false, true]);
    } finally {
      await log.close();
    }
  });
});
