import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { indiaDate, type TestApp, type TestUser } from './test-app';

/**
 * An appointment of `patient` with `doctor` two days ahead at `hour`:00 India time, requested with `notes`; unless
 * told otherwise approved, and then its consultation joined by the doctor with the test's clock moved (`setNow`) to
 * two minutes before its start. Returns its id, with the read side caught up.
 */
export async function heldAppointment(
  t: TestApp,
  options: { doctor: TestUser; patient: TestUser; hour: number; setNow: (now: Date) => void; notes?: string; approve?: boolean; join?: boolean },
): Promise<string> {
  const { doctor, patient, hour, setNow, notes = 'Cough', approve = true, join = true } = options;
  setNow(new Date());
  const date = indiaDate(2);
  const time = `${String(hour).padStart(2, '0')}:00`;
  const [slot] = await t.openSlots(doctor, [{ date, time }]);
  const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes }).expect(201)).body.appointment_id as string;
  if (approve) {
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    if (join) {
      setNow(DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).minus({ minutes: 2 }).toJSDate());
      await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    }
  }
  await t.settle();
  return id;
}
