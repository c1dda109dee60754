import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, publicDoctorProfileSchema, slotFactsSchema, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { givenClinicOfTwo, type GivenInstitution } from '../support/given-institution';

/**
 * A doctor an institution has deactivated takes no bookings until activated again: the server refuses the request
 * (409 with a detail) and no page or list offers their slots (public page, available slots, the patient's doctors, the
 * confirm page's slot facts). Reactivation restores all of it.
 */
describe('a deactivated doctor is not bookable', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Ananya Sharma, a doctor of Sunrise Clinic, with three open slots, and Meera Iyer, a patient who follows her. */
  const givenClinicDoctor = async () => {
    const { clinic, doctor } = await givenClinicOfTwo(spec, { name: 'Sunrise Clinic', address: '12 MG Road', phone: '+91 80 4000 1234', domain: 'sunrise.in' });
    const slots = await spec.given.slots(doctor, [
      { days: 2, time: '10:00' },
      { days: 2, time: '10:30' },
      { days: 3, time: '11:00' },
    ]);
    const patient = await spec.given.patient({ name: 'Meera Iyer' });
    await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
    return { clinic, doctor, slots, patient };
  };
  /** The operator's answer shows the member, a read recorded on their access log; nothing is booked, so nothing to close. */
  const setActive = async (clinic: GivenInstitution, doctor: TestUser, is_active: boolean) => {
    const res = (await spec.when((http) => http.put(`/api/v1/admin/doctors/${clinic.memberId(doctor)}`).set(clinic.operator.auth).send({ is_active })))
      .expectStatus(200)
      .expectEvents([
        { stream: streams.accessAudit(clinic.operator.user_id), type: 'PersonalDataAccessed' },
        { stream: streams.institution(clinic.id), type: is_active ? 'InstitutionDoctorActivated' : 'InstitutionDoctorDeactivated' },
      ])
      .expectReactions([]);
    assert.equal(res.body.is_active, is_active);
  };
  /** A patient's first booking: the slot reserved, their wallet opened and the clinic's fee (₹100) held, the request. */
  const expectBooked = (res: Then, slot_id: number, patient: TestUser) =>
    res.expectStatus(201).expectEvents([
      { stream: streams.slot(slot_id), type: 'SlotReserved' },
      { stream: streams.wallet(patient.user_id), type: 'WalletOpened' },
      { stream: streams.wallet(patient.user_id), type: 'FeeHeld', data: { credits: 100 } },
      { stream: streams.appointment(res.body.appointment_id), type: 'AppointmentRequested' },
    ]);
  const book = (patient: TestUser, slot_id: number) => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Follow-up' }));
  const read = async (url: string, user?: TestUser) => (await spec.read((http) => (user ? http.get(url).set(user.auth) : http.get(url)).expect(200))).body;

  it('while deactivated: booking is refused with a detail, and nothing offers a slot to book', async () => {
    const { clinic, doctor, slots, patient } = await givenClinicDoctor();
    await setActive(clinic, doctor, false);

    const refused = (await book(patient, slots[0]!)).expectStatus(409).expectNoEvents();
    assert.deepEqual(refused.body, { detail: API_TEXTS.doctorNotAccepting, code: 'doctor_not_accepting' });

    const page = publicDoctorProfileSchema.parse(await read(`/api/v1/public/doctors/${doctor.user_id}?days=14`));
    assert.equal(page.name, 'Ananya Sharma', 'the page still shows who the doctor is');
    assert.equal(page.accepting_bookings, false);
    assert.deepEqual(page.slots, []);

    assert.deepEqual(await read(`/api/v1/doctors/${doctor.user_id}/available-slots`, patient), { slots: [] });
    assert.deepEqual(await read(`/api/v1/doctors/${doctor.user_id}/available-slots?from=${indiaDate(0)}&days=7`, patient), { slots: [] });

    const mine = (await read('/api/v1/doctors/me', patient)) as Array<{ doctor_id: string; availableSlots: unknown[] }>;
    assert.deepEqual(mine.map((d) => [d.doctor_id, d.availableSlots.length]), [[doctor.user_id, 0]], "the patient's doctors: still listed, no slot");

    const facts = slotFactsSchema.parse(await read(`/api/v1/slots/${slots[1]}`, patient));
    assert.equal(facts.availability, 'not_accepting');

    // The doctor's own schedule still shows their slots (they are theirs to keep or withdraw).
    const own = (await read('/api/v1/doctors/me', doctor)) as { availableSlots: unknown[] };
    assert.equal(own.availableSlots.length, 3);
  });

  it('reactivated: the slots are offered again and booking works', async () => {
    const { clinic, doctor, slots, patient } = await givenClinicDoctor();
    await setActive(clinic, doctor, false);
    await setActive(clinic, doctor, true);
    const page = publicDoctorProfileSchema.parse(await read(`/api/v1/public/doctors/${doctor.user_id}?days=14`));
    assert.equal(page.accepting_bookings, true);
    assert.deepEqual(page.slots.map((s) => s.slot_id), slots);
    const facts = slotFactsSchema.parse(await read(`/api/v1/slots/${slots[1]}`, patient));
    assert.equal(facts.availability, 'open');
    assert.equal(((await read(`/api/v1/doctors/${doctor.user_id}/available-slots`, patient)) as { slots: unknown[] }).slots.length, 3);
    assert.equal(expectBooked(await book(patient, slots[0]!), slots[0]!, patient).body.status, 'requested');
  });

  it('an institution that has disbanded no longer holds its deactivation against the doctor', async () => {
    const { clinic, doctor, slots, patient } = await givenClinicDoctor();
    await setActive(clinic, doctor, false);
    (await book(patient, slots[1]!)).expectStatus(409).expectNoEvents();
    (await spec.when((http) => http.delete(`/api/v1/admin/institutions/${clinic.id}`).set(clinic.operator.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionDisbanded' }]);
    assert.equal(((await read(`/api/v1/public/doctors/${doctor.user_id}`)) as { accepting_bookings: boolean }).accepting_bookings, true);
    expectBooked(await book(patient, slots[1]!), slots[1]!, patient);
  });
});
