import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, genericKey } from '@telemed/contracts';
import { recordLookups } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';
import { documentsRead } from '../support/documents-read';

/**
 * A new prescription asks whether the patient had an earlier consultation with the doctor (a follow-up) and which
 * medicines the doctor prescribed them before (what a follow-up may refill). Both looked at the latest 50 earlier
 * appointments or prescriptions only: a consultation or a medicine behind 50 later ones was missed. Each is now an
 * exact indexed question that reads what it answers.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`e-prescriptions: the earlier consultation and the earlier medicines, however many came since (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let held: string;
  let current: string;

  async function line(query: string) {
    const found = (await t.http.get(`/api/v1/medicines/search?q=${query}`).set(doctor.auth).expect(200)).body[0];
    return { medicine: found.name as string, medicine_id: found.id, strength: found.strengths[0], dosage: '1 tablet', frequency: 'twice_daily', duration_value: 3, duration_unit: 'days' };
  }
  /** The generic name the prescription's (first) line holds. */
  const genericOf = async (pid: string) => ((await t.http.get(`/api/v1/prescriptions/${pid}`).set(doctor.auth).expect(200)).body.lines[0].generic_name as string);
  let firstPrescription: string;
  async function prescribe(appointmentId: string, query: string): Promise<string> {
    const issued = await t.http.post(`/api/v1/consultations/${appointmentId}/prescriptions`).set(doctor.auth).send({ lines: [await line(query)], diagnosis: 'Fever' }).expect(201);
    return issued.body.prescription_id as string;
  }

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', READ_STORE: readStoreKind } });
    doctor = await t.createUser('doctor', { doctor: { registration_number: 'KMC-51', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
    patient = await t.createUser('patient');
    // The first consultation (two days ahead at 07:00; the clock is then just before it), with a paracetamol.
    held = await heldAppointment(t, { doctor, patient, hour: 7, setNow: (d) => (now = d) });
    firstPrescription = await prescribe(held, 'paracetamol');
    // 55 later appointments with the same doctor, none of them consulted, before the current one.
    const later = Array.from({ length: 55 }, (_, i) => ({ date: indiaDate(3 + Math.floor(i / 20)), time: `${String(8 + Math.floor((i % 20) / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}` }));
    const currentSlot = { date: indiaDate(7), time: '10:00' };
    const slots = await t.openSlots(doctor, [...later, currentSlot]);
    assert.equal(slots.length, 56);
    for (const slot of slots.slice(0, 55)) await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Review' }).expect(201);
    current = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[55], notes: 'Review' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${current}/approve`).set(doctor.auth).expect(200);
    now = DateTime.fromISO(`${currentSlot.date}T${currentSlot.time}`, { zone: DEFAULT_TIMEZONE }).minus({ minutes: 2 }).toJSDate();
    await t.http.post(`/api/v1/consultations/${current}/join`).set(doctor.auth).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it('a consultation behind 55 later appointments makes the new prescription a follow-up', async () => {
    const pid = await prescribe(current, 'cetirizine');
    await t.settle();
    const issued = (await t.http.get(`/api/v1/prescriptions/${pid}`).set(doctor.auth).expect(200)).body as { consultation_kind: string };
    assert.equal(issued.consultation_kind, 'follow_up');
    // The question reads the one appointment that answers it.
    const lookups = recordLookups(t.app.readStore);
    let earlier: string | null = null;
    const read = await documentsRead(t, 'appointments', async () => {
      earlier = await lookups.earlierConsultation(patient.user_id, doctor.user_id, new Date(now.getTime() + 60_000).toISOString());
    });
    assert.equal(earlier, held);
    assert.ok(read <= 1, `read ${read} appointments`);
    assert.equal(await lookups.earlierConsultation(patient.user_id, doctor.user_id, DateTime.fromJSDate(now).minus({ days: 30 }).toISO()!), null, 'none before the first');
  });

  it('a medicine prescribed before 55 later prescriptions is still known to have been prescribed', async () => {
    let last = '';
    for (let i = 0; i < 55; i += 1) last = await prescribe(current, 'cetirizine');
    await t.settle();
    const lookups = recordLookups(t.app.readStore);
    const paracetamol = await genericOf(firstPrescription);
    const cetirizine = await genericOf(last);
    assert.notEqual(genericKey(paracetamol), genericKey(cetirizine));
    let found: string[] = [];
    const read = await documentsRead(t, 'prescribed_medicines', async () => {
      found = await lookups.prescribedBefore(patient.user_id, doctor.user_id, [paracetamol, cetirizine, 'Amoxicillin']);
    });
    assert.deepEqual(found.sort(), [genericKey(paracetamol), genericKey(cetirizine)].sort());
    assert.ok(read <= 2, `read ${read} entries for 3 lines`);
    assert.deepEqual(await lookups.prescribedBefore(patient.user_id, 'another-doctor', [paracetamol]), [], "another doctor's patient");
  });
});
