import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventStore } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment } from '../support/held-appointment';
import { eventually } from '../support/eventually';
import { holdAppend } from '../support/held-append';

/**
 * A join and a closer's cancel of the same appointment race: whichever is decided second must see the other. The
 * closer is held between its reads and its append while the join goes through the real route (and the other way
 * round), so the interleaving that used to cancel an appointment whose consultation had just begun is not left to
 * chance: the append of the one decided on stale state is refused by its expected revision and it decides again.
 */
describe('a join and a closed account racing for the same appointment', () => {
  let t: TestApp;
  let now = new Date();
  let hour = 7;
  let doctor: TestUser;
  let admin: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Menon' });
    admin = await t.createUser('admin');
  });
  after(() => t.close());

  /** A confirmed appointment two days ahead (its own hour) of `patient` with `withDoctor`; its id and start. */
  const appointment = (patient: TestUser, withDoctor = doctor) =>
    bookedAppointment(t, { doctor: withDoctor, patient, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const streamTypes = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);

  /** Waits until the closer has cancelled `id` (an appointment after the raced one): it has decided the raced one. */
  const closerDone = (id: string) =>
    eventually(async () => {
      await t.settle();
      assert.ok((await streamTypes(`appointment-${id}`)).includes('AppointmentCancelled'), `${id} is cancelled`);
    }, 8000);

  for (const [who, closing] of [
    ['an erased patient', 'patient'],
    ['a deactivated doctor', 'doctor'],
  ] as const) {
    it(`a join that lands between ${who}'s closer deciding and appending keeps the appointment to its consultation`, async () => {
      const leaving = await t.createUser('doctor', { name: 'Dr. Racing' });
      const patient = await t.createUser('patient', { name: 'Ravi Kumar' });
      const inCall = await appointment(patient, leaving);
      const later = await appointment(patient, leaving);
      now = minutes(inCall.start, -10);
      // The one whose account stays open joins.
      const joiner = closing === 'patient' ? leaving : patient;
      let joined = 0;
      const hold = holdAppend(
        t.app.eventStore,
        (stream, types) => stream === `appointment-${inCall.id}` && (types.includes('AppointmentCancelled') || types.includes('AppointmentRejected')),
        async () => {
          joined = (await t.http.post(`/api/v1/consultations/${inCall.id}/join`).set(joiner.auth)).status;
        },
      );
      try {
        if (closing === 'patient') await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
        else await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth).expect(200);
        await hold.done;
        await closerDone(later.id);
      } finally {
        hold.release();
      }
      assert.equal(joined, 200, 'the join went through while the closer was held');
      const types = await streamTypes(`appointment-${inCall.id}`);
      assert.ok(!types.includes('AppointmentCancelled') && !types.includes('AppointmentRejected'), `the appointment in its consultation is not closed: ${types.join(', ')}`);
      const view = (await t.http.get(`/api/v1/consultations/${inCall.id}`).set(joiner.auth).expect(200)).body as { status: string };
      assert.equal(view.status, 'active', 'the consultation goes on');
    });
  }

  it('a cancel that lands between a join deciding and appending makes the join refuse: no consultation of a cancelled appointment', async () => {
    const patient = await t.createUser('patient', { name: 'Meera Iyer' });
    const inCall = await appointment(patient);
    now = minutes(inCall.start, -10);
    // The join's first write after it read the appointment, whichever stream it goes to.
    const hold = holdAppend(
      t.app.eventStore,
      (stream, types) =>
        (stream === `consultation-${inCall.id}` && types.includes('ConsultationStarted')) ||
        (stream === `appointment-${inCall.id}` && types.includes('AppointmentConsultationBegun')),
      async () => {
        await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
        await eventually(async () => assert.ok((await streamTypes(`appointment-${inCall.id}`)).includes('AppointmentCancelled'), 'the closer cancelled the appointment'), 8000);
      },
    );
    let status: number;
    try {
      status = (await t.http.post(`/api/v1/consultations/${inCall.id}/join`).set(doctor.auth)).status;
      await hold.done;
    } finally {
      hold.release();
    }
    assert.equal(status, 409, 'the join decided on the appointment before it was cancelled is refused');
    assert.deepEqual(await streamTypes(`consultation-${inCall.id}`), [], 'no consultation started for a cancelled appointment');
  });
  it('a reactivation and a new booking between the closer checking the account and looking up its appointments: only what was booked before the deactivation is cancelled', async () => {
    const patient = await t.createUser('patient', { name: 'Asha Nair' });
    const before = await appointment(patient);
    const [laterSlot] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '16:00' }]);
    const store = t.app.eventStore as EventStore;
    const original = store.readStream;
    const userStream = `user-${patient.user_id}`;
    let closedReads = 0;
    let sawDeactivation = false;
    let holding = false;
    let booked: string | null = null;
    const done = new Promise<void>((resolve, reject) => {
      store.readStream = async function (this: EventStore, stream, options) {
        const events = await original.call(this, stream, options);
        const types = events.map((e) => e.type);
        // The closer's looks at the account once it is deactivated, through the kept fold of its standing (each reads
        // the events since the last look: the first the deactivation, the next nothing new): its check before it
        // starts, then before its first page. Held after the second: the account is reactivated and booked again
        // before the page is looked up.
        if (holding || stream !== userStream || options?.fromRevision === undefined || types.includes('UserReactivated')) return events;
        if (types.includes('UserDeactivated')) sawDeactivation = true;
        else if (!sawDeactivation || events.length > 0) return events;
        closedReads += 1;
        if (closedReads !== 2) return events;
        holding = true;
        try {
          await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(admin.auth).send({ is_active: true }).expect(200);
          const again = await t.signInAgain(patient, 'patient');
          // The account closer is held here, mid-work: wait for the read models only.
          await t.settle({ processManagers: false });
          const res = await t.http.post('/api/v1/appointments').set(again.auth).send({ slot_id: laterSlot, notes: 'Back again' });
          assert.equal(res.status, 201, `booked again after the reactivation (${res.status} ${JSON.stringify(res.body)})`);
          booked = res.body.appointment_id as string;
          await t.settle({ processManagers: false });
          resolve();
        } catch (error) {
          reject(error);
        }
        return events;
      };
    });
    try {
      await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(admin.auth).send({ is_active: false }).expect(200);
      // A failure, not a hang, if the closer's looks change shape again.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the closer never looked at the account twice after its deactivation')), 10_000)))]);
      clearTimeout(timer);
      await eventually(async () => {
        await t.settle();
        assert.ok((await streamTypes(`appointment-${before.id}`)).includes('AppointmentCancelled'), 'the appointment booked before the deactivation is cancelled');
      }, 8000);
    } finally {
      store.readStream = original;
    }
    // settle() waits for the closer to have acted on the whole log: it has decided on the whole page (the earlier
    // appointment, then the new one) by then.
    await t.settle();
    const types = await streamTypes(`appointment-${booked!}`);
    assert.deepEqual(types, ['AppointmentRequested'], `the booking made after the reactivation stays: ${types.join(', ')}`);
  });
});
