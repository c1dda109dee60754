import { randomUUID } from 'node:crypto';
import { SqliteEventStore, type EventStore, type NewEvent } from '@telemed/platform';

/**
 * A clinic network's log as it looks after a long time: twenty doctors, five hundred patients, appointment after
 * appointment in the past (four in five approved, one rejected and its slot released), and each doctor's next two
 * weeks published and open. The history is what grows; what is live stays the same size.
 */
export interface HistoryLog {
  store: SqliteEventStore;
  doctors: Array<{ id: string; number: number }>;
  patients: string[];
  events: number;
}

const EPOCH_MS = Date.UTC(2020, 0, 1);
const slotIdFor = (doctorNumber: number, start: number) => doctorNumber * 1_000_000_000 + Math.round((start - EPOCH_MS) / 60_000);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

const metadata = (user_id: string, role: string) => ({
  actor: { user_id, role },
  correlation_id: randomUUID(),
  causation_id: null,
  occurred_at: new Date().toISOString(),
});
const ev = (type: string, data: unknown, actor = 'bench', role = 'system'): NewEvent => ({ event_id: randomUUID(), type, data, metadata: metadata(actor, role) });

export async function buildHistoryLog(
  file: string,
  target: number,
  /** appendThrough: what the events are appended through (the product's encryption, for the encryption figure). */
  options: { openDaysAhead?: number; appendThrough?: (log: SqliteEventStore) => EventStore } = {},
): Promise<HistoryLog> {
  const store = new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const writer = options.appendThrough?.(store) ?? store;
  const doctors = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), number: i + 1 }));
  const patients = Array.from({ length: 500 }, () => randomUUID());
  for (const d of doctors) {
    await writer.appendToStream(`user-${d.id}`, [
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
    await writer.appendToStream(`user-${p}`, [ev('UserRegistered', { user_id: p, email: `${p}@bench`, name: `Patient ${p.slice(0, 4)}`, account_type: 'patient', phone_number: '+91 90000 00000' })]);
  }
  let written = doctors.length * 2 + patients.length;

  // Each doctor's next two weeks (06:00-22:00 India, every 30 minutes), published and open.
  const openDays = options.openDaysAhead ?? 14;
  const today = new Date();
  const firstDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 0, 30); // 06:00 India
  const open: Array<Promise<unknown>> = [];
  for (const d of doctors) {
    for (let day = 0; day < openDays; day += 1) {
      for (let row = 0; row < 33; row += 1) {
        const start = firstDay + day * 86_400_000 + row * 1_800_000;
        const slot_id = slotIdFor(d.number, start);
        open.push(writer.appendToStream(`slot-${slot_id}`, [ev('SlotOpened', { slot_id, doctor_id: d.id, start: iso(start), end: iso(start + 1_800_000) })]));
        written += 1;
        if (open.length >= 200) await Promise.all(open.splice(0));
      }
    }
  }
  await Promise.all(open);

  // The past: about five events per appointment, spread over the months before today, newest last.
  const appointments = Math.ceil((target - written) / 5);
  const perDoctor = Math.ceil(appointments / doctors.length);
  const historyStart = firstDay - 2 * 86_400_000 - Math.ceil(perDoctor / 33) * 86_400_000;
  for (let k = 0; written < target; ) {
    const batch: Array<Promise<unknown>> = [];
    for (let j = 0; j < 50 && written < target; j += 1, k += 1) {
      const doctor = doctors[k % doctors.length]!;
      const patient = patients[k % patients.length]!;
      const n = Math.floor(k / doctors.length);
      const start = historyStart + Math.floor(n / 33) * 86_400_000 + (n % 33) * 1_800_000;
      const slot_id = slotIdFor(doctor.number, start);
      const times = { start: iso(start), end: iso(start + 1_800_000) };
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
      batch.push(writer.appendToStream(`slot-${slot_id}`, slotEvents), writer.appendToStream(`appointment-${appointment_id}`, appointmentEvents, { parties: { patient } }));
      written += slotEvents.length + appointmentEvents.length;
    }
    await Promise.all(batch);
  }
  return { store, doctors, patients, events: await store.headPosition() };
}
