import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';

/**
 * A booking checks the doctor and the patient, then writes: a deactivation that lands between the check and the
 * request's append comes before the request in the log, so its closer (which closes what the read model shows once it
 * has reached the deactivation) never sees the request. Held here between the check and the writes, the request must
 * still end up closed.
 */
describe('a request recorded after its doctor or patient was deactivated', () => {
  let t: TestApp;
  let admin: TestUser;
  let hour = 8;

  before(async () => {
    t = await startTestApp();
    admin = await t.createUser('admin');
  });
  after(() => t.close());

  const types = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);

  /** Books `slot` for `patient`, running `between` after the booking's checks and before its first write. */
  async function bookHeld(patient: TestUser, slot: number, between: () => Promise<void>) {
    const store = t.app.eventStore as EventStore;
    const original = store.appendToStream;
    let held = false;
    store.appendToStream = async function (this: EventStore, stream, events, options) {
      if (!held && stream === `slot-${slot}` && events.some((e) => e.type === 'SlotReserved')) {
        held = true;
        await between();
      }
      return original.call(this, stream, events, options);
    };
    try {
      const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' });
      assert.ok(held, 'the booking was held');
      return res;
    } finally {
      store.appendToStream = original;
    }
  }

  /** A doctor on an institution's staff, with the institution's admin and the member's console id. */
  async function clinicDoctor() {
    hour += 1;
    const tag = `c${hour}`;
    const operator = await t.createUser('admin');
    const created = await t.http
      .post('/api/v1/admin/institutions')
      .set(operator.auth)
      .send({
        name: `Lotus Clinic ${tag}`,
        address: '4 Park Street',
        phone: '+91 33 4000 1234',
        email: `contact-${tag}@lotus.in`,
        staff: [
          { name: 'Lata Rao', email: `lata-${tag}@lotus.in`, phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: `ananya-${tag}@lotus.in`, phone: '+91 90000 22222', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    const clinicAdmin = await t.signedIn(`lata-${tag}@lotus.in`, 'patient');
    const doctor = await t.signedIn(`ananya-${tag}@lotus.in`, 'doctor');
    return { clinicAdmin, doctor, memberId: `${created.body.id}~${doctor.user_id}` };
  }

  for (const who of ['doctor', 'patient'] as const) {
    const what = who === 'doctor' ? "the doctor deactivated by their institution" : "the patient's account deactivated";
    it(`${what} between the booking's check and its write: the request is closed`, async () => {
      const clinic = who === 'doctor' ? await clinicDoctor() : null;
      const doctor = clinic?.doctor ?? (await t.createUser('doctor'));
      const patient = await t.createUser('patient');
      hour += 1;
      const [slot, witnessSlot] = await t.openSlots(doctor, [
        { date: indiaDate(3), time: `${String(hour).padStart(2, '0')}:00` },
        { date: indiaDate(3), time: `${String(hour).padStart(2, '0')}:30` },
      ]);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
      // An earlier request: its closing shows the closer has handled the deactivation.
      const witness = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: witnessSlot, notes: 'x' }).expect(201)).body.appointment_id as string;
      await t.settle();
      const res = await bookHeld(patient, slot!, async () => {
        if (clinic) await t.http.put(`/api/v1/admin/doctors/${clinic.memberId}`).set(clinic.clinicAdmin.auth).send({ is_active: false }).expect(200);
        else await t.http.delete(`/api/v1/admin/users/${patient.user_id}`).set(admin.auth).expect(200);
        await eventually(async () => {
          await t.settle();
          const done = (await types(`appointment-${witness}`)).some((type) => type === 'AppointmentRejected' || type === 'AppointmentCancelled');
          assert.ok(done, 'the closer has run (and found no request on this slot: it is not written yet)');
        }, 8000);
      });
      assert.equal(res.status, 201, `the booking was written after its checks passed (${res.status})`);
      const id = res.body.appointment_id as string;
      await eventually(async () => {
        const events = await t.app.eventStore.readStream(`appointment-${id}`);
        const closed = events.find((e) => e.type === (who === 'doctor' ? 'AppointmentRejected' : 'AppointmentCancelled'));
        assert.ok(closed, `the late request is closed: ${events.map((e) => e.type).join(', ')}`);
        if (who === 'doctor') assert.equal((closed.data as { reason: string }).reason, API_TEXTS.doctorNoLongerAvailable, "with the closers' reason");
      }, 8000);
    });
  }

  it("the doctor's own account closed between the slot's reservation and the request's append: the request is rejected and its slot withdrawn, as the account closer does", async () => {
    const doctor = await t.createUser('doctor');
    const patient = await t.createUser('patient');
    hour += 1;
    const [slot, witnessSlot] = await t.openSlots(doctor, [
      { date: indiaDate(3), time: `${String(hour).padStart(2, '0')}:00` },
      { date: indiaDate(3), time: `${String(hour).padStart(2, '0')}:30` },
    ]);
    const witness = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: witnessSlot, notes: 'x' }).expect(201)).body.appointment_id as string;
    await t.settle();
    // Held after the reservation: the account closer finds the slot neither open nor under an appointment.
    const store = t.app.eventStore as EventStore;
    const original = store.appendToStream;
    let held = false;
    store.appendToStream = async function (this: EventStore, stream, events, options) {
      if (!held && events.some((e) => e.type === 'AppointmentRequested')) {
        held = true;
        await t.http.delete(`/api/v1/admin/users/${doctor.user_id}`).set(admin.auth).expect(200);
        await eventually(async () => {
          await t.settle();
          assert.ok((await types(`slot-${witnessSlot}`)).includes('SlotWithdrawn'), 'the account closer has closed what it found');
        }, 8000);
      }
      return original.call(this, stream, events, options);
    };
    let res;
    try {
      res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' });
    } finally {
      store.appendToStream = original;
    }
    assert.ok(held, 'the booking was held');
    assert.equal(res.status, 201, `the request was written after its checks passed (${res.status})`);
    const id = res.body.appointment_id as string;
    await eventually(async () => {
      await t.settle();
      assert.ok((await types(`appointment-${id}`)).includes('AppointmentRejected'), 'the late request is rejected');
      const slotTypes = await types(`slot-${slot}`);
      assert.equal(slotTypes.at(-1), 'SlotWithdrawn', `the slot of a closed account is withdrawn, not offered again: ${slotTypes.join(', ')}`);
    }, 8000);
    assert.ok((await types(`appointment-${witness}`)).includes('AppointmentRejected'), 'the earlier request was closed by the account closer');
  });
});
