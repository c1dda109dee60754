import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

type PatientItem = { appointment_id: string; doctor: { name: string; specialty: string }; patient: { name: string; phone_number: string | null } };
type DoctorItem = { appointment_id: string; patient_name: string; consultation_fee: number };

/**
 * A profile change is one person's read-model document: it does not rewrite every appointment the person ever had (a
 * doctor's fee change held the event loop about 2 s at 10 000 appointments), and every list still shows the person as
 * they are now.
 */
describe('a profile change costs one document, and the lists show it', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let admin: TestUser;
  const ids: string[] = [];

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor', { name: 'Dr. Old Name', doctor: { specialty: 'ENT', consultation_fee: 500 } });
    patient = await t.createUser('patient', { name: 'Old Patient', phone_number: '+91 90000 11111' });
    admin = await t.createUser('admin');
    const slots = await t.openSlots(doctor, [1, 2, 3].map((d) => ({ date: indiaDate(d), time: '10:00' })));
    for (const slot of slots) ids.push((await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Cough' }).expect(201)).body.appointment_id as string);
    await t.http.post(`/api/v1/appointments/${ids[0]}/approve`).set(doctor.auth).expect(200);
    await t.http.put('/api/v1/users/me').set(doctor.auth).send({ name: 'Dr. New Name', consultation_fee: 900 }).expect(200);
    await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: 'New Patient', phone_number: '+91 90000 22222' }).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it("leaves the person's appointments as they were booked in the read model", async () => {
    for (const id of ids) {
      const stored = await t.app.readStore.collection<{ _id: string; doctor_name: string; patient_name: string; consultation_fee: number }>('appointments').get(id);
      assert.equal(stored?.doctor_name, 'Dr. Old Name', `appointment ${id} not rewritten for the doctor's change`);
      assert.equal(stored?.patient_name, 'Old Patient', `appointment ${id} not rewritten for the patient's change`);
      assert.equal(stored?.consultation_fee, 500, `appointment ${id}: its stored fee is the booked one`);
    }
  });

  it('shows the people as they are now: both lists, pending, the console, the institution-free export', async () => {
    const mine = (await t.http.get('/api/v1/appointments/me').set(patient.auth).expect(200)).body as PatientItem[];
    assert.equal(mine.length, 3);
    for (const a of mine) {
      assert.equal(a.doctor.name, 'Dr. New Name', "the patient's list names the doctor as now");
      assert.equal(a.patient.name, 'New Patient');
      assert.equal(a.patient.phone_number, '+91 90000 22222');
    }
    const theirs = (await t.http.get('/api/v1/appointments/me').set(doctor.auth).expect(200)).body as DoctorItem[];
    assert.deepEqual([...new Set(theirs.map((a) => a.patient_name))], ['New Patient'], "the doctor's list names the patient as now");
    assert.ok(theirs.every((a) => a.consultation_fee === 900), `the doctor's list shows their fee as now, as it did before (${JSON.stringify(theirs)})`);
    const pending = (await t.http.get('/api/v1/appointments/pending').set(doctor.auth).expect(200)).body as Array<{ patient_name: string; patient_phone: string | null }>;
    assert.equal(pending.length, 2);
    assert.ok(pending.every((p) => p.patient_name === 'New Patient' && p.patient_phone === '+91 90000 22222'), JSON.stringify(pending));
    const record = (await t.http.get(`/api/v1/admin/appointments/${ids[0]}`).set(admin.auth).expect(200)).body as { patient_name: string; doctor_name: string; doctor_specialty: string };
    assert.equal(record.patient_name, 'New Patient');
    assert.equal(record.doctor_name, 'Dr. New Name');
    assert.equal(record.doctor_specialty, 'ENT');
    const listed = (await t.http.get('/api/v1/admin/appointments').set(admin.auth).expect(200)).body as Array<{ doctor_name: string }>;
    assert.ok(listed.length === 3 && listed.every((a) => a.doctor_name === 'Dr. New Name'), JSON.stringify(listed));
    const exported = (await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200)).body as { appointments: Array<{ doctor: { name: string }; consultation_fee: number }> };
    assert.ok(exported.appointments.length === 3 && exported.appointments.every((a) => a.doctor.name === 'Dr. New Name' && a.consultation_fee === 900), JSON.stringify(exported.appointments));
  });
});
