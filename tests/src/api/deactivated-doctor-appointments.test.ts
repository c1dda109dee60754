import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams, type EventMetadata } from '@telemed/contracts';
import { createAdapters, createLogger, createMetrics, loadConfig } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { LOTUS_CLINIC, givenClinicOfTwo } from '../support/given-institution';
import { typesByStream } from '../support/spec-streams';
import { connect } from '../support/ws-client';

type Listed = { appointment_id: string; status: string; status_reason: string | null; rejection_reason: string | null; cancellation_reason?: string | null };

/**
 * An institution admin deactivates a doctor on the console: the doctor takes no bookings anywhere (bookable.ts), so the
 * doctor's appointments not yet started are closed by the system — a pending request rejected, a confirmed appointment
 * cancelled, both with 'Doctor is no longer available' — their slots released, the patients told as usual. Reactivation
 * reopens nothing, and the process manager never acts twice, even when the whole log is delivered to it again.
 */
describe("a deactivated doctor's existing appointments", () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(async () => {
    await t.close();
    // A case that restarts the app names its data directory, which close() then keeps.
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  /**
   * Ananya Sharma, a doctor of Lotus Clinic (whose admin is Lata Rao), with four open slots: a request on the first (by
   * Meera Iyer, who follows her), a confirmed appointment on the second (Ravi Kumar), one its patient cancelled on the
   * third (Asha Nair); the fourth open.
   */
  const givenClinicDoctor = async () => {
    const { clinic, clinicAdmin, doctor } = await givenClinicOfTwo(spec, LOTUS_CLINIC);
    const [requester, confirmedPatient, canceller] = [
      await spec.given.patient({ name: 'Meera Iyer' }),
      await spec.given.patient({ name: 'Ravi Kumar' }),
      await spec.given.patient({ name: 'Asha Nair' }),
    ];
    await t.http.post('/api/v1/users/subscribe').set(requester.auth).send({ doctor_id: doctor.user_id }).expect(200);
    const at = [
      { days: 2, time: '10:00' },
      { days: 2, time: '10:30' },
      { days: 3, time: '11:00' },
    ];
    const requested = await spec.given.appointment({ doctor, patient: requester, at: at[0], notes: 'Follow-up' });
    const confirmed = await spec.given.appointment({ doctor, patient: confirmedPatient, at: at[1], notes: 'Follow-up', confirmed: true });
    const cancelled = await spec.given.appointment({ doctor, patient: canceller, at: at[2], notes: 'Follow-up' });
    await t.http.post(`/api/v1/appointments/${cancelled.appointment_id}/cancel`).set(canceller.auth).expect(200);
    const open = await spec.given.slot(doctor, { days: 3, time: '11:30' });
    return {
      clinic,
      clinicAdmin,
      doctor,
      memberId: clinic.memberId(doctor),
      people: { requester, confirmedPatient, canceller },
      ids: { requested: requested.appointment_id, confirmed: confirmed.appointment_id, cancelledByPatient: cancelled.appointment_id },
      slots: [requested.slot.slot_id, confirmed.slot.slot_id, cancelled.slot.slot_id, open.slot_id],
    };
  };
  type Given = Awaited<ReturnType<typeof givenClinicDoctor>>;

  /** The clinic's admin (de)activates the doctor on the console: the answer shows the member, a read on their access log. */
  const setActive = async ({ clinicAdmin, clinic, memberId }: Given, is_active: boolean) => {
    const res = (await spec.when((http) => http.put(`/api/v1/admin/doctors/${memberId}`).set(clinicAdmin.auth).send({ is_active })))
      .expectStatus(200)
      .expectEvents([
        { stream: streams.accessAudit(clinicAdmin.user_id), type: 'PersonalDataAccessed' },
        { stream: streams.institution(clinic.id), type: is_active ? 'InstitutionDoctorActivated' : 'InstitutionDoctorDeactivated' },
      ]);
    assert.equal(res.body.is_active, is_active);
    return res;
  };
  const read = async (user: TestUser, url: string) => (await spec.read((http) => http.get(url).set(user.auth).expect(200))).body;
  const appointmentOf = async (patient: TestUser, id: string) =>
    ((await read(patient, '/api/v1/appointments/me?status=requested,confirmed,rejected,cancelled&include_past=true')) as Listed[]).find((a) => a.appointment_id === id);
  const streamTypes = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);
  /** What the doctor list and the patient's own doctors say of this doctor's bookings. */
  const acceptingInLists = async (doctor: TestUser, patient: TestUser) => {
    const all = (await read(patient, '/api/v1/doctors/?skip=0&limit=100')) as Array<{ doctor_id: string; accepting_bookings: boolean }>;
    const mine = (await read(patient, '/api/v1/doctors/me')) as Array<{ doctor_id: string; accepting_bookings: boolean }>;
    return [all, mine].map((list) => list.find((d) => d.doctor_id === doctor.user_id)?.accepting_bookings);
  };
  const openSlotIds = async (doctor: TestUser, patient: TestUser) =>
    ((await read(patient, `/api/v1/doctors/${doctor.user_id}/available-slots`)) as { slots: Array<{ slot_id: number }> }).slots.map((s) => s.slot_id);

  it('closes the pending request and the confirmed appointment by the system with a reason, frees the slots and tells the patients', async () => {
    const given = await givenClinicDoctor();
    const { doctor, clinicAdmin, ids, slots, people } = given;
    const base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    const requesterSocket = connect(base, people.requester.user_id, people.requester.token);
    const confirmedSocket = connect(base, people.confirmedPatient.user_id, people.confirmedPatient.token);
    await requesterSocket.next('connection_established');
    await confirmedSocket.next('connection_established');

    const deactivated = await setActive(given, false);
    // Each is a new event on the appointment's own stream, by the system, caused by the deactivation; the slots are
    // released as after any rejection or cancellation. The patient's own cancellation is left as it was.
    assert.deepEqual(typesByStream(deactivated.reactions), {
      [streams.appointment(ids.requested)]: ['AppointmentRejected'],
      [streams.appointment(ids.confirmed)]: ['AppointmentCancelled'],
      [streams.slot(slots[0]!)]: ['SlotReleased'],
      [streams.slot(slots[1]!)]: ['SlotReleased'],
      // Their fees come back in full: the doctor's unavailability is not theirs (issue 36).
      [streams.wallet(people.requester.user_id)]: ['FeeReturned'],
      [streams.wallet(people.confirmedPatient.user_id)]: ['FeeReturned'],
    });
    const deactivation = deactivated.writtenOf('InstitutionDoctorDeactivated')[0]!;
    for (const closing of deactivated.reactions.filter((e) => e.stream_id.startsWith('appointment-'))) {
      const metadata = closing.metadata as EventMetadata;
      assert.deepEqual(metadata.actor, { user_id: 'system', role: 'system' });
      assert.equal(metadata.causation_id, deactivation.event_id);
    }

    const rejected = await appointmentOf(people.requester, ids.requested);
    assert.equal(rejected?.status, 'rejected');
    assert.equal(rejected?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    const cancelled = await appointmentOf(people.confirmedPatient, ids.confirmed);
    assert.equal(cancelled?.status, 'cancelled');
    assert.equal(cancelled?.status_reason, 'cancelled_by_doctor');
    assert.equal(cancelled?.cancellation_reason, API_TEXTS.doctorNoLongerAvailable);

    // The clinic's audit history says who closed them and why.
    for (const [id, line] of [
      [ids.requested, `Rejected by the system — reason: ${API_TEXTS.doctorNoLongerAvailable}`],
      [ids.confirmed, `Cancelled by the system — reason: ${API_TEXTS.doctorNoLongerAvailable}`],
    ] as const) {
      const history = (await read(clinicAdmin, `/api/v1/admin/appointments/${id}/history`)) as { events: Array<{ description: string }> };
      assert.ok(history.events.some((e) => e.description === line), `history of ${id}: ${JSON.stringify(history.events)}`);
      assert.equal(history.events.filter((e) => e.description.startsWith('Rejected') || e.description.startsWith('Cancelled')).length, 1);
    }
    assert.deepEqual(await streamTypes(streams.appointment(ids.cancelledByPatient)), ['AppointmentRequested', 'AppointmentCancelled']);
    assert.equal((await appointmentOf(people.canceller, ids.cancelledByPatient))?.status_reason, 'cancelled_by_patient');

    // The usual notifications.
    const toRequester = await requesterSocket.next('appointment_status_change', 5000);
    assert.equal(toRequester.status, 'rejected');
    assert.equal(toRequester.data?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    const toConfirmed = await confirmedSocket.next('appointment_status_change', 5000);
    assert.equal(toConfirmed.status, 'cancelled');
    assert.equal(toConfirmed.data?.cancelled_by, 'doctor');
    requesterSocket.socket.close(1000);
    confirmedSocket.socket.close(1000);

    // The released slots are not offered while the doctor takes no bookings, and the patient's doctor cards say so (the
    // list of doctors and the patient's own doctors).
    assert.deepEqual(await openSlotIds(doctor, people.requester), []);
    assert.deepEqual(await acceptingInLists(doctor, people.requester), [false, false]);
  });

  it('reactivation reopens no appointment; the freed slots can be booked again', async () => {
    const given = await givenClinicDoctor();
    const { doctor, ids, slots, people } = given;
    await setActive(given, false);
    (await setActive(given, true)).expectReactions([]);
    assert.equal((await appointmentOf(people.requester, ids.requested))?.status, 'rejected');
    assert.equal((await appointmentOf(people.confirmedPatient, ids.confirmed))?.status, 'cancelled');
    const open = await openSlotIds(doctor, people.requester);
    assert.ok(open.includes(slots[0]!) && open.includes(slots[1]!), `the released slots are offered again: ${JSON.stringify(open)}`);
    assert.ok(open.includes(slots[3]!));
    assert.deepEqual(await acceptingInLists(doctor, people.requester), [true, true]);
  });

  it('acts once: the whole log delivered again after a restart closes nothing more, nor a booking made since the reactivation', async () => {
    const given = await givenClinicDoctor();
    const { ids, slots, people } = given;
    await setActive(given, false);
    await setActive(given, true);
    const since = (await spec.when((http) => http.post('/api/v1/appointments').set(people.requester.auth).send({ slot_id: slots[3], notes: 'Follow-up' })))
      .expectStatus(201)
      .expectReactions([]).body.appointment_id as string;
    const closedBefore = await Promise.all(Object.values(ids).map((id) => streamTypes(streams.appointment(id))));

    // A crash before the process manager saved any checkpoint: after the restart it is handed every event again,
    // the old deactivation included, while the doctor is active.
    await t.close({ keepData: true });
    const config = loadConfig({ DATA_DIR: t.dataDir, DEMO_DATA: 'off', LOG_LEVEL: 'silent', SQLITE_SYNCHRONOUS: 'NORMAL', READ_STORE: 'memory' });
    const adapters = await createAdapters(config, createLogger({ level: 'silent' }), createMetrics());
    await adapters.checkpoints.save('unavailable-doctor-closer', 0);
    await adapters.close();
    t = await startTestApp({ dataDir: t.dataDir });
    spec = apiSpec(t);
    // The old deactivation no longer holds: handled again, it closes nothing (spec.read waits until the process manager
    // has acted on the whole log again, the old deactivation included).
    assert.equal((await appointmentOf(people.requester, since))?.status, 'requested', 'the booking made after the reactivation stands');

    // A new deactivation closes the new booking, and only it, in answer.
    assert.deepEqual(typesByStream((await setActive(given, false)).reactions), {
      [streams.appointment(since)]: ['AppointmentRejected'],
      [streams.slot(slots[3]!)]: ['SlotReleased'],
      [streams.wallet(people.requester.user_id)]: ['FeeReturned'],
    });
    const closedSince = await appointmentOf(people.requester, since);
    assert.equal(closedSince?.status, 'rejected');
    assert.equal(closedSince?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    assert.deepEqual(await streamTypes(streams.appointment(since)), ['AppointmentRequested', 'AppointmentRejected'], 'closed once');
    assert.deepEqual(await Promise.all(Object.values(ids).map((id) => streamTypes(streams.appointment(id)))), closedBefore, 'nothing closed twice');
  });
});
