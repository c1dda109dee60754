import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryReadStore, SqliteEventStore, type NewEvent } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';

const metadata = (user_id: string, role: string) => ({
  actor: { user_id, role },
  correlation_id: randomUUID(),
  causation_id: null,
  occurred_at: new Date().toISOString(),
});

const ev = (type: string, data: unknown, actor = 'bench', role = 'system'): NewEvent => ({ event_id: randomUUID(), type, data, metadata: metadata(actor, role) });

/** Writes a realistic log of about `target` events: doctors, patients, slots and appointment lifecycles. */
export async function buildLog(file: string, target: number): Promise<SqliteEventStore> {
  const store = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const doctors = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), number: i + 1 }));
  const patients = Array.from({ length: 500 }, () => randomUUID());
  for (const d of doctors) {
    await store.appendToStream(`user-${d.id}`, [
      ev('UserRegistered', { user_id: d.id, email: `${d.id}@bench`, name: `Dr ${d.number}`, account_type: 'doctor', phone_number: null }),
      ev('DoctorRegistered', {
        doctor_id: d.id,
        doctor_number: d.number,
        specialty: 'General Medicine',
        qualification: 'MD',
        consultation_fee: 100,
        appointment_duration_minutes: 30,
        registration_number: null,
        medical_council: null,
      }),
    ]);
  }
  for (const p of patients) {
    await store.appendToStream(`user-${p}`, [ev('UserRegistered', { user_id: p, email: `${p}@bench`, name: `Patient ${p.slice(0, 4)}`, account_type: 'patient', phone_number: '+91 90000 00000' })]);
  }
  let written = doctors.length * 2 + patients.length;
  let k = 0;
  const base = Date.UTC(2031, 0, 1, 3, 30);
  while (written < target) {
    const batch: Array<Promise<unknown>> = [];
    for (let j = 0; j < 50 && written < target; j += 1, k += 1) {
      const doctor = doctors[k % doctors.length]!;
      const patient = patients[k % patients.length]!;
      const start = new Date(base + Math.floor(k / doctors.length) * 30 * 60_000);
      const slot_id = doctor.number * 1_000_000_000 + Math.round((start.getTime() - Date.UTC(2020, 0, 1)) / 60_000);
      const times = { start: start.toISOString().replace('.000', ''), end: new Date(start.getTime() + 1_800_000).toISOString().replace('.000', '') };
      const appointment_id = randomUUID();
      const rejected = k % 5 === 0;
      const slotEvents = [
        ev('SlotOpened', { slot_id, doctor_id: doctor.id, ...times }),
        ev('SlotReserved', { slot_id, doctor_id: doctor.id, appointment_id, patient_id: patient, ...times }),
        ...(rejected ? [ev('SlotReleased', { slot_id, doctor_id: doctor.id, appointment_id, reason: 'rejected' })] : []),
      ];
      const appointmentEvents = [
        ev('AppointmentRequested', { appointment_id, slot_id, doctor_id: doctor.id, patient_id: patient, ...times, notes: 'Benchmark visit' }, patient, 'patient'),
        rejected
          ? ev('AppointmentRejected', { appointment_id, doctor_id: doctor.id, reason: 'busy' }, doctor.id, 'doctor')
          : ev('AppointmentApproved', { appointment_id, doctor_id: doctor.id }, doctor.id, 'doctor'),
      ];
      batch.push(store.appendToStream(`slot-${slot_id}`, slotEvents), store.appendToStream(`appointment-${appointment_id}`, appointmentEvents));
      written += slotEvents.length + appointmentEvents.length;
    }
    await Promise.all(batch);
  }
  return store;
}

/**
 * The fair ceiling of a rebuild: reading the same log the way the store pages it (5 000 rows at a time, in position
 * order) and parsing each event's JSON, with nothing applied.
 */
export function rawReadRate(file: string): number {
  const db = new Database(file, { readonly: true });
  const page = db.prepare<[number], { position: number; data: string; metadata: string }>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT 5000');
  const started = performance.now();
  let after = 0;
  let count = 0;
  for (;;) {
    const rows = page.all(after);
    if (rows.length === 0) break;
    for (const row of rows) {
      JSON.parse(row.data);
      JSON.parse(row.metadata);
    }
    count += rows.length;
    after = rows[rows.length - 1]!.position;
  }
  db.close();
  return count / ((performance.now() - started) / 1000);
}

export async function projectionRebuildRate(dir: string, events: number, runs: number) {
  const file = join(dir, `rebuild-${randomUUID()}.db`);
  const store = await buildLog(file, events);
  const head = await store.headPosition();
  const rates: number[] = [];
  const ceilings: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    ceilings.push(rawReadRate(file));
    const runner = new ProjectionRunner({ eventStore: store, readStore: new MemoryReadStore(), projections: allProjections });
    const started = performance.now();
    const count = await runner.catchUp();
    rates.push(count / ((performance.now() - started) / 1000));
  }
  await store.close();
  return { events: head, rates, ceilings };
}
