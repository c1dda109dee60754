import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { indiaDate, type TestApp, type TestUser } from './test-app';

/**
 * An appointment of `patient` with `doctor` two days ahead at `hour`:00 India time, requested with `notes`; unless
 * told otherwise approved, and then (when `join`) its consultation joined by the doctor with the test's clock moved
 * (`setNow`) to two minutes before its start. Returns its id and start, with the read side caught up.
 */
export async function bookedAppointment(
  t: TestApp,
  options: { doctor: TestUser; patient: TestUser; hour: number; setNow: (now: Date) => void; notes?: string; approve?: boolean; join?: boolean },
): Promise<{ id: string; start: Date }> {
  const { doctor, patient, hour, setNow, notes = 'Cough', approve = true, join = false } = options;
  setNow(new Date());
  const date = indiaDate(2);
  const time = `${String(hour).padStart(2, '0')}:00`;
  const start = DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE });
  const [slot] = await t.openSlots(doctor, [{ date, time }]);
  const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes }).expect(201)).body.appointment_id as string;
  if (approve) {
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    if (join) {
      setNow(start.minus({ minutes: 2 }).toJSDate());
      await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    }
  }
  await t.settle();
  return { id, start: start.toJSDate() };
}

/** The same, joined unless told otherwise (the consultation under way): its id. */
export async function heldAppointment(t: TestApp, options: Parameters<typeof bookedAppointment>[1]): Promise<string> {
  return (await bookedAppointment(t, { join: true, ...options })).id;
}

/**
 * A confirmed appointment of `patient` with `doctor` two days ahead at `hour`:00 India time whose consultation both
 * have joined (the patient first), the test's clock moved (`setNow`) to 5 minutes into it: a call under way.
 */
export async function callUnderWay(t: TestApp, options: { doctor: TestUser; patient: TestUser; hour: number; setNow: (now: Date) => void; notes?: string }): Promise<{ id: string; start: Date }> {
  const { doctor, patient, setNow } = options;
  const { id, start } = await bookedAppointment(t, options);
  setNow(new Date(start.getTime() + 5 * 60_000));
  await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
  await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
  await t.settle();
  return { id, start };
}
