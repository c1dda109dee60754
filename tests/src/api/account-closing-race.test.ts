import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { bookedAppointment } from '../support/held-appointment';
import { holdAppend } from '../support/held-append';
import { typesByStream } from '../support/spec-streams';

/**
 * A join and a closer's cancel of the same appointment race: whichever is decided second must see the other. The
 * closer is held between its reads and its append while the join goes through the real route (and the other way
 * round), so the interleaving that used to cancel an appointment whose consultation had just begun is not left to
 * chance: the append of the one decided on stale state is refused by its expected revision and it decides again.
 */
describe('a join and a closed account racing for the same appointment', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** A confirmed appointment two days ahead (its own hour) of `patient` with `doctor`; its id, start and slot. */
  const appointment = async (patient: TestUser, doctor: TestUser) => {
    const booked = await bookedAppointment(t, { doctor, patient, notes: 'Fever', hour: (hour += 1), setNow: (d) => (now = d) });
    const requested = (await t.app.eventStore.readStream(streams.appointment(booked.id)))[0]!.data as { slot_id: number };
    return { ...booked, slot_id: requested.slot_id };
  };
  const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
  const streamTypes = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);

  for (const [who, closing] of [
    ['an erased patient', 'patient'],
    ['a deactivated doctor', 'doctor'],
  ] as const) {
    it(`a join that lands between ${who}'s closer deciding and appending keeps the appointment to its consultation`, async () => {
      const admin = await t.createUser('admin');
      const leaving = await spec.given.doctor({ name: 'Dr. Racing' });
      const patient = await spec.given.patient({ name: 'Ravi Kumar' });
      const inCall = await appointment(patient, leaving);
      const later = await appointment(patient, leaving);
      now = minutes(inCall.start, -10);
      // The one whose account stays open joins.
      const joiner = closing === 'patient' ? leaving : patient;
      let joined = 0;
      const hold = holdAppend(
        t.app.eventStore,
        (stream, types) => stream === streams.appointment(inCall.id) && (types.includes('AppointmentCancelled') || types.includes('AppointmentRejected')),
        async () => {
          joined = (await t.http.post(`/api/v1/consultations/${inCall.id}/join`).set(joiner.auth)).status;
        },
      );
      const close = () =>
        closing === 'patient'
          ? spec.when((http) => http.post('/api/v1/users/me/erasure').set(patient.auth))
          : spec.when((http) => http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth));
      const closedAccount = closing === 'patient' ? patient : leaving;
      let closed;
      try {
        closed = (await close())
          .expectStatus(200)
          .expectEvents([{ stream: streams.user(closedAccount.user_id), type: closing === 'patient' ? 'PersonalDataErased' : 'UserDeactivated' }]);
        await hold.done;
      } finally {
        hold.release();
      }
      assert.equal(joined, 200, 'the join went through while the closer was held');
      // The closer decided again on the joined appointment and left it; only the one still to come is closed.
      assert.deepEqual(typesByStream(closed.reactions), {
        [streams.appointment(later.id)]: ['AppointmentCancelled'],
        [streams.slot(later.slot_id)]: closing === 'patient' ? ['SlotReleased'] : ['SlotReleased', 'SlotWithdrawn'],
      });
      const types = await streamTypes(streams.appointment(inCall.id));
      assert.ok(!types.includes('AppointmentCancelled') && !types.includes('AppointmentRejected'), `the appointment in its consultation is not closed: ${types.join(', ')}`);
      const view = (await spec.read((http) => http.get(`/api/v1/consultations/${inCall.id}`).set(joiner.auth).expect(200))).body as { status: string };
      assert.equal(view.status, 'active', 'the consultation goes on');
    });
  }

  it('a cancel that lands between a join deciding and appending makes the join refuse: no consultation of a cancelled appointment', async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Asha Menon' });
    const patient = await spec.given.patient({ name: 'Meera Iyer' });
    const inCall = await appointment(patient, doctor);
    now = minutes(inCall.start, -10);
    // The join's first write after it read the appointment, whichever stream it goes to.
    const hold = holdAppend(
      t.app.eventStore,
      (stream, types) =>
        (stream === streams.consultation(inCall.id) && types.includes('ConsultationStarted')) ||
        (stream === streams.appointment(inCall.id) && types.includes('AppointmentConsultationBegun')),
      async () => {
        await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
        await t.settle();
        assert.ok((await streamTypes(streams.appointment(inCall.id))).includes('AppointmentCancelled'), 'the closer cancelled the appointment');
      },
    );
    let join;
    try {
      join = await spec.when((http) => http.post(`/api/v1/consultations/${inCall.id}/join`).set(doctor.auth));
      await hold.done;
    } finally {
      hold.release();
    }
    // The join decided on the appointment before it was cancelled is refused, and wrote nothing (the erasure and its
    // closer, written while it was held, are none of its doing).
    join.expectStatus(409).expectEvents([]).expectReactions([]);
    assert.deepEqual(await streamTypes(streams.consultation(inCall.id)), [], 'no consultation started for a cancelled appointment');
  });

  it('a reactivation and a new booking between the closer checking the account and looking up its appointments: only what was booked before the deactivation is cancelled', async () => {
    const admin = await t.createUser('admin');
    const doctor = await spec.given.doctor({ name: 'Dr. Asha Menon' });
    const patient = await spec.given.patient({ name: 'Asha Nair' });
    const before = await appointment(patient, doctor);
    const [laterSlot] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '16:00' }]);
    const store = t.app.eventStore as EventStore;
    const original = store.readStream;
    const userStream = streams.user(patient.user_id);
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
    let deactivated;
    try {
      // The request under test answers once the closer has acted on it, the hold above included.
      deactivated = (await spec.when((http) => http.put(`/api/v1/admin/users/${patient.user_id}`).set(admin.auth).send({ is_active: false })))
        .expectStatus(200)
        .expectEvents([
          { stream: streams.accessAudit(admin.user_id), type: 'PersonalDataAccessed' },
          { stream: userStream, type: 'UserDeactivated' },
        ]);
      // A failure, not a hang, if the closer's looks change shape again.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the closer never looked at the account twice after its deactivation')), 10_000)))]);
      clearTimeout(timer);
    } finally {
      store.readStream = original;
    }
    // The closer cancelled what was booked before the deactivation, in answer to it, and nothing else: the booking
    // made after the reactivation stays.
    assert.deepEqual(typesByStream(deactivated.reactions), {
      [streams.appointment(before.id)]: ['AppointmentCancelled'],
      [streams.slot(before.slot_id)]: ['SlotReleased'],
    });
    await t.settle();
    const types = await streamTypes(streams.appointment(booked!));
    assert.deepEqual(types, ['AppointmentRequested'], `the booking made after the reactivation stays: ${types.join(', ')}`);
  });
});
