import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, publicDoctorProfileSchema } from '@telemed/contracts';
import { indiaDate, slotInput, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/** GET /public/doctors/{doctor_id}: what a visitor who is not signed in may see of a doctor, and nothing more. */
describe('public doctor page API', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor', {
      name: 'Dr. Farah Khan',
      doctor: { specialty: 'ENT', qualification: 'MBBS, MS (ENT)', registration_number: 'MMC-77', medical_council: 'Maharashtra Medical Council', city: 'Nagpur' },
    });
    patient = await t.createUser('patient');
    await t.http
      .post('/api/v1/schedule-v2/set_availability_v2/')
      .set(doctor.auth)
      .send({ slots: [slotInput(indiaDate(2), '10:30'), slotInput(indiaDate(2), '10:00'), slotInput(indiaDate(10), '09:00')], timezone: 'Asia/Kolkata' })
      .expect(200);
    await t.settle();
  });
  after(() => t.close());

  it('answers without a token: profile, fee and the open slots of the next 7 days, soonest first; no phone or e-mail', async () => {
    const res = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?timezone_str=Asia/Kolkata`).expect(200);
    const body = publicDoctorProfileSchema.parse(res.body);
    assert.equal(body.name, 'Dr. Farah Khan');
    assert.equal(body.qualification, 'MBBS, MS (ENT)');
    assert.equal(body.registration_number, 'MMC-77');
    assert.equal(body.city, 'Nagpur', 'the city given at registration');
    assert.equal(body.days, 7);
    assert.deepEqual(body.slots.map((s) => `${s.slot_date} ${s.start_time}`), [`${indiaDate(2)} 10:00:00`, `${indiaDate(2)} 10:30:00`]);
    const text = JSON.stringify(res.body);
    assert.ok(!('phone_number' in res.body) && !('email' in res.body), 'no contact details');
    assert.doesNotMatch(text, /@|\+91/);
  });

  it('days widens the window (up to 14); a booked slot is no longer listed', async () => {
    const wide = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?days=14`).expect(200);
    assert.equal(wide.body.slots.length, 3);
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: wide.body.slots[0].slot_id, notes: 'Ear ache' }).expect(201);
    await t.settle();
    const after = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?days=14`).expect(200);
    assert.deepEqual(
      after.body.slots.map((s: { slot_id: number }) => s.slot_id),
      wide.body.slots.slice(1).map((s: { slot_id: number }) => s.slot_id),
    );
    await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?days=15`).expect(422);
  });

  it('a doctor who gave no city has city null', async () => {
    const other = await t.createUser('doctor', { name: 'Dr. No City' });
    const res = await t.http.get(`/api/v1/public/doctors/${other.user_id}`).expect(200);
    assert.equal(publicDoctorProfileSchema.parse(res.body).city, null);
  });

  it('an unknown id, or a patient, is 404 with a detail', async () => {
    for (const id of ['no-such-doctor', patient.user_id]) {
      const res = await t.http.get(`/api/v1/public/doctors/${id}`).expect(404);
      assert.deepEqual(res.body, { detail: API_TEXTS.doctorNotFound, code: 'doctor_not_found' });
    }
  });
});
