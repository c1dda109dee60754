import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventMetadata } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';

type Listed = { appointment_id: string; status: string; status_reason?: string | null; rejection_reason?: string | null; cancellation_reason?: string | null };

describe('a closed account (erased or deactivated) leaves nobody waiting on it', () => {
  let t: TestApp;
  let doctor: TestUser;
  let admin: TestUser;
  let slots: number[];

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    admin = await t.createUser('admin');
    slots = await t.openSlots(doctor, ['09:00', '09:30', '10:00', '10:30', '11:00'].map((time) => ({ date: indiaDate(3), time })));
  });
  after(() => t.close());

  /** Reads until `done` holds: the account closer and the slot releaser run in the background. */
  const settled = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
    eventually(async () => {
      await t.settle();
      const value = await read();
      assert.ok(done(value), `${what}: ${JSON.stringify(value)}`);
      return value;
    }, 5000);
  const book = async (patient: TestUser, slotId: number) =>
    (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Follow-up' }).expect(201)).body.appointment_id as string;
  const doctorsList = async () =>
    (await t.http.get('/api/v1/appointments/me?status=requested,confirmed,cancelled&include_past=true').set(doctor.auth).expect(200)).body as Listed[];
  const openSlotIds = async (who: TestUser) =>
    ((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(who.auth).expect(200)).body as { slots: Array<{ slot_id: number }> }).slots.map((s) => s.slot_id);

  it("an erased patient's requested and confirmed appointments are cancelled in their name, and the slots open again", async () => {
    const patient = await t.createUser('patient');
    const requested = await book(patient, slots[0]!);
    const confirmed = await book(patient, slots[1]!);
    await t.http.post(`/api/v1/appointments/${confirmed}/approve`).set(doctor.auth).expect(200);
    await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);

    const list = await settled(doctorsList, (l) => l.filter((a) => [requested, confirmed].includes(a.appointment_id) && a.status === 'cancelled').length === 2, 'both cancelled');
    for (const id of [requested, confirmed]) assert.equal(list.find((a) => a.appointment_id === id)?.status_reason, 'cancelled_by_patient');
    const other = await t.createUser('patient');
    await settled(() => openSlotIds(other), (ids) => ids.includes(slots[0]!) && ids.includes(slots[1]!), 'the slots are open again');
  });

  it("a deactivated doctor's open slots are withdrawn and their patients' appointments closed by the system: 'Doctor is no longer available'", async () => {
    const patient = await t.createUser('patient');
    const booked = await book(patient, slots[2]!);
    const confirmed = await book(patient, slots[4]!);
    await t.http.post(`/api/v1/appointments/${confirmed}/approve`).set(doctor.auth).expect(200);
    await t.http.delete(`/api/v1/admin/users/${doctor.user_id}`).set(admin.auth).expect(200);

    await settled(() => openSlotIds(patient), (ids) => ids.length === 0, 'no slot of the doctor is bookable');
    const mine = await settled(
      async () => (await t.http.get('/api/v1/appointments/me?status=rejected,cancelled&include_past=true').set(patient.auth).expect(200)).body as Listed[],
      (l) => l.some((a) => a.appointment_id === booked) && l.some((a) => a.appointment_id === confirmed),
      'the request is rejected and the confirmed appointment cancelled',
    );
    const request = mine.find((a) => a.appointment_id === booked);
    assert.equal(request?.status, 'rejected', 'a pending request is declined');
    assert.equal(request?.rejection_reason, 'Doctor is no longer available');
    const appointment = mine.find((a) => a.appointment_id === confirmed);
    assert.equal(appointment?.status_reason, 'cancelled_by_doctor');
    assert.equal(appointment?.cancellation_reason, 'Doctor is no longer available');
    for (const id of [booked, confirmed]) {
      const { metadata } = (await t.app.eventStore.readStream(`appointment-${id}`)).at(-1)!;
      assert.deepEqual((metadata as EventMetadata).actor, { user_id: 'system', role: 'system' });
    }
    assert.equal((await t.app.eventStore.readStream(`slot-${slots[4]}`)).at(-1)!.type, 'SlotWithdrawn', "a closed doctor's booked slot does not open again");
    const late = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[3], notes: 'Too late' });
    assert.equal(late.status, 409, 'a withdrawn slot cannot be requested');
  });
});
