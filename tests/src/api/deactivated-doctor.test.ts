import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findUserIdByEmail } from '@telemed/command';
import { API_TEXTS, publicDoctorProfileSchema, slotFactsSchema } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A doctor an institution has deactivated takes no bookings until activated again: the server refuses the request
 * (409 with a detail) and no page or list offers their slots (public page, available slots, the patient's doctors, the
 * confirm page's slot facts). Reactivation restores all of it.
 */
describe('a deactivated doctor is not bookable', () => {
  let t: TestApp;
  let operator: TestUser;
  let patient: TestUser;
  let doctor: TestUser;
  let slots: number[];
  let memberId: string;

  const setActive = async (is_active: boolean) => {
    const res = await t.http.put(`/api/v1/admin/doctors/${memberId}`).set(operator.auth).send({ is_active }).expect(200);
    assert.equal(res.body.is_active, is_active);
    await t.settle();
  };
  const book = (slotId: number) => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Follow-up' });

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin', { name: 'Operator' });
    patient = await t.createUser('patient', { name: 'Meera Iyer' });
    const created = await t.http
      .post('/api/v1/admin/institutions')
      .set(operator.auth)
      .send({
        name: 'Sunrise Clinic',
        address: '12 MG Road',
        phone: '+91 80 4000 1234',
        email: 'contact@sunrise.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: 'ananya@sunrise.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    const user_id = (await findUserIdByEmail(t.app.eventStore, 'ananya@sunrise.in'))!;
    const token = await t.app.tokens.issue({ user_id, account_type: 'doctor' });
    doctor = { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    memberId = `${created.body.id}~${user_id}`;
    slots = await t.openSlots(doctor, [
      { date: indiaDate(2), time: '10:00' },
      { date: indiaDate(2), time: '10:30' },
      { date: indiaDate(3), time: '11:00' },
    ]);
    assert.equal(slots.length, 3);
    await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: user_id }).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it('while deactivated: booking is refused with a detail, and nothing offers a slot to book', async () => {
    await setActive(false);

    const refused = await book(slots[0]!).expect(409);
    assert.deepEqual(refused.body, { detail: API_TEXTS.doctorNotAccepting, code: 'doctor_not_accepting' });
    assert.equal((await t.app.eventStore.readStream(`slot-${slots[0]}`)).at(-1)!.type, 'SlotOpened', 'nothing was written');

    const page = publicDoctorProfileSchema.parse((await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?days=14`).expect(200)).body);
    assert.equal(page.name, 'Ananya Sharma', 'the page still shows who the doctor is');
    assert.equal(page.accepting_bookings, false);
    assert.deepEqual(page.slots, []);

    assert.deepEqual((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200)).body, { slots: [] });
    const windowed = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots?from=${indiaDate(0)}&days=7`).set(patient.auth).expect(200);
    assert.deepEqual(windowed.body, { slots: [] });

    const mine = (await t.http.get('/api/v1/doctors/me').set(patient.auth).expect(200)).body as Array<{ doctor_id: string; availableSlots: unknown[] }>;
    assert.deepEqual(mine.map((d) => [d.doctor_id, d.availableSlots.length]), [[doctor.user_id, 0]], "the patient's doctors: still listed, no slot");

    const facts = slotFactsSchema.parse((await t.http.get(`/api/v1/slots/${slots[1]}`).set(patient.auth).expect(200)).body);
    assert.equal(facts.availability, 'not_accepting');

    // The doctor's own schedule still shows their slots (they are theirs to keep or withdraw).
    const own = (await t.http.get('/api/v1/doctors/me').set(doctor.auth).expect(200)).body as { availableSlots: unknown[] };
    assert.equal(own.availableSlots.length, 3);
  });

  it('reactivated: the slots are offered again and booking works', async () => {
    await setActive(true);
    const page = publicDoctorProfileSchema.parse((await t.http.get(`/api/v1/public/doctors/${doctor.user_id}?days=14`).expect(200)).body);
    assert.equal(page.accepting_bookings, true);
    assert.deepEqual(page.slots.map((s) => s.slot_id), slots);
    const facts = slotFactsSchema.parse((await t.http.get(`/api/v1/slots/${slots[1]}`).set(patient.auth).expect(200)).body);
    assert.equal(facts.availability, 'open');
    assert.equal((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200)).body.slots.length, 3);
    const booked = await book(slots[0]!).expect(201);
    assert.equal(booked.body.status, 'requested');
  });

  it('an institution that has disbanded no longer holds its deactivation against the doctor', async () => {
    await setActive(false);
    await book(slots[1]!).expect(409);
    await t.http.delete(`/api/v1/admin/institutions/${memberId.split('~')[0]}`).set(operator.auth).expect(200);
    await t.settle();
    assert.equal((await t.http.get(`/api/v1/public/doctors/${doctor.user_id}`).expect(200)).body.accepting_bookings, true);
    await book(slots[1]!).expect(201);
  });
});
