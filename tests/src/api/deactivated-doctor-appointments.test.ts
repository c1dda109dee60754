import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findUserIdByEmail } from '@telemed/command';
import { API_TEXTS, type EventMetadata } from '@telemed/contracts';
import { createAdapters, createLogger, createMetrics, loadConfig } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';
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
  let base: string;
  let clinicAdmin: TestUser;
  let doctor: TestUser;
  let requester: TestUser;
  let confirmedPatient: TestUser;
  let canceller: TestUser;
  let slots: number[];
  let memberId: string;
  let ids: { requested: string; confirmed: string; cancelledByPatient: string };

  const setActive = async (is_active: boolean) => {
    const res = await t.http.put(`/api/v1/admin/doctors/${memberId}`).set(clinicAdmin.auth).send({ is_active }).expect(200);
    assert.equal(res.body.is_active, is_active);
  };
  const book = async (patient: TestUser, slotId: number) =>
    (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Follow-up' }).expect(201)).body.appointment_id as string;
  const listOf = async (patient: TestUser) =>
    (await t.http.get('/api/v1/appointments/me?status=requested,confirmed,rejected,cancelled&include_past=true').set(patient.auth).expect(200)).body as Listed[];
  const appointmentOf = async (patient: TestUser, id: string) => (await listOf(patient)).find((a) => a.appointment_id === id);
  const streamTypes = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);
  /** Reads until `done` holds: the closer, the slot releaser and the projections run in the background. */
  const settled = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) =>
    eventually(async () => {
      await t.settle();
      const value = await read();
      assert.ok(done(value), `${what}: ${JSON.stringify(value)}`);
      return value;
    }, 8000);
  /** What the doctor list and the patient's own doctors say of this doctor's bookings. */
  const acceptingInLists = async (patient: TestUser) => {
    const all = (await t.http.get('/api/v1/doctors/?skip=0&limit=100').set(patient.auth).expect(200)).body as Array<{ doctor_id: string; accepting_bookings: boolean }>;
    const mine = (await t.http.get('/api/v1/doctors/me').set(patient.auth).expect(200)).body as Array<{ doctor_id: string; accepting_bookings: boolean }>;
    return [all, mine].map((list) => list.find((d) => d.doctor_id === doctor.user_id)?.accepting_bookings);
  };
  const tokenFor = async (email: string, account_type: 'doctor' | 'patient') => {
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const token = await t.app.tokens.issue({ user_id, account_type });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  };

  before(async () => {
    t = await startTestApp();
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    const operator = await t.createUser('admin', { name: 'Operator' });
    requester = await t.createUser('patient', { name: 'Meera Iyer' });
    confirmedPatient = await t.createUser('patient', { name: 'Ravi Kumar' });
    canceller = await t.createUser('patient', { name: 'Asha Nair' });
    const created = await t.http
      .post('/api/v1/admin/institutions')
      .set(operator.auth)
      .send({
        name: 'Lotus Clinic',
        address: '4 Park Street',
        phone: '+91 33 4000 1234',
        email: 'contact@lotus.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@lotus.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: 'ananya@lotus.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    clinicAdmin = await tokenFor('lata@lotus.in', 'patient');
    doctor = await tokenFor('ananya@lotus.in', 'doctor');
    memberId = `${created.body.id}~${doctor.user_id}`;
    slots = await t.openSlots(doctor, [
      { date: indiaDate(2), time: '10:00' },
      { date: indiaDate(2), time: '10:30' },
      { date: indiaDate(3), time: '11:00' },
      { date: indiaDate(3), time: '11:30' },
    ]);
    assert.equal(slots.length, 4);
    await t.http.post('/api/v1/users/subscribe').set(requester.auth).send({ doctor_id: doctor.user_id }).expect(200);
    ids = {
      requested: await book(requester, slots[0]!),
      confirmed: await book(confirmedPatient, slots[1]!),
      cancelledByPatient: await book(canceller, slots[2]!),
    };
    await t.http.post(`/api/v1/appointments/${ids.confirmed}/approve`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/appointments/${ids.cancelledByPatient}/cancel`).set(canceller.auth).expect(200);
    await t.settle();
  });
  after(async () => {
    await t.close();
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('closes the pending request and the confirmed appointment by the system with a reason, frees the slots and tells the patients', async () => {
    const requesterSocket = connect(base, requester.user_id, requester.token);
    const confirmedSocket = connect(base, confirmedPatient.user_id, confirmedPatient.token);
    await requesterSocket.next('connection_established');
    await confirmedSocket.next('connection_established');

    await setActive(false);

    const rejected = await settled(() => appointmentOf(requester, ids.requested), (a) => a?.status === 'rejected', 'the request is rejected');
    assert.equal(rejected?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    const cancelled = await settled(() => appointmentOf(confirmedPatient, ids.confirmed), (a) => a?.status === 'cancelled', 'the appointment is cancelled');
    assert.equal(cancelled?.status_reason, 'cancelled_by_doctor');
    assert.equal(cancelled?.cancellation_reason, API_TEXTS.doctorNoLongerAvailable);

    // Each is a new event on the appointment's own stream, by the system, caused by the deactivation.
    const deactivation = (await t.app.eventStore.readStream(`institution-${memberId.split('~')[0]}`)).findLast((e) => e.type === 'InstitutionDoctorDeactivated')!;
    for (const [id, type] of [
      [ids.requested, 'AppointmentRejected'],
      [ids.confirmed, 'AppointmentCancelled'],
    ] as const) {
      const last = (await t.app.eventStore.readStream(`appointment-${id}`)).at(-1)!;
      const metadata = last.metadata as EventMetadata;
      assert.equal(last.type, type);
      assert.deepEqual(metadata.actor, { user_id: 'system', role: 'system' });
      assert.equal(metadata.causation_id, deactivation.event_id);
    }
    // The clinic's audit history says who closed them and why.
    for (const [id, line] of [
      [ids.requested, `Rejected by the system — reason: ${API_TEXTS.doctorNoLongerAvailable}`],
      [ids.confirmed, `Cancelled by the system — reason: ${API_TEXTS.doctorNoLongerAvailable}`],
    ] as const) {
      const history = await settled(
        async () => (await t.http.get(`/api/v1/admin/appointments/${id}/history`).set(clinicAdmin.auth).expect(200)).body as { events: Array<{ description: string }> },
        (h) => h.events.some((e) => e.description === line),
        `history of ${id}`,
      );
      assert.equal(history.events.filter((e) => e.description.startsWith('Rejected') || e.description.startsWith('Cancelled')).length, 1);
    }
    // The patient's own cancellation is left as it was.
    assert.deepEqual(await streamTypes(`appointment-${ids.cancelledByPatient}`), ['AppointmentRequested', 'AppointmentCancelled']);
    assert.equal((await appointmentOf(canceller, ids.cancelledByPatient))?.status_reason, 'cancelled_by_patient');

    // The usual notifications.
    const toRequester = await requesterSocket.next('appointment_status_change', 5000);
    assert.equal(toRequester.status, 'rejected');
    assert.equal(toRequester.data?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    const toConfirmed = await confirmedSocket.next('appointment_status_change', 5000);
    assert.equal(toConfirmed.status, 'cancelled');
    assert.equal(toConfirmed.data?.cancelled_by, 'doctor');
    requesterSocket.socket.close(1000);
    confirmedSocket.socket.close(1000);

    // The slots are released as after any rejection or cancellation (not offered while the doctor takes no bookings).
    for (const slotId of [slots[0]!, slots[1]!]) {
      await settled(() => streamTypes(`slot-${slotId}`), (types) => types.at(-1) === 'SlotReleased', `slot ${slotId} released`);
    }
    assert.deepEqual((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(requester.auth).expect(200)).body, { slots: [] });
    // The patient's doctor cards say so (the list of doctors and the patient's own doctors).
    assert.deepEqual(await acceptingInLists(requester), [false, false]);
  });

  it('reactivation reopens no appointment; the freed slots can be booked again', async () => {
    await setActive(true);
    await t.settle();
    assert.equal((await appointmentOf(requester, ids.requested))?.status, 'rejected');
    assert.equal((await appointmentOf(confirmedPatient, ids.confirmed))?.status, 'cancelled');
    const open = await settled(
      async () => ((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(requester.auth).expect(200)).body as { slots: Array<{ slot_id: number }> }).slots.map((s) => s.slot_id),
      (ids) => ids.includes(slots[0]!) && ids.includes(slots[1]!),
      'the released slots are offered again',
    );
    assert.ok(open.includes(slots[3]!));
    assert.deepEqual(await acceptingInLists(requester), [true, true]);
  });

  it('acts once: the whole log delivered again after a restart closes nothing more, nor a booking made since the reactivation', async () => {
    const since = await book(requester, slots[3]!);
    await t.settle();
    const closedBefore = await Promise.all(Object.values(ids).map((id) => streamTypes(`appointment-${id}`)));

    // A crash before the process manager saved any checkpoint: after the restart it is handed every event again,
    // the old deactivation included, while the doctor is active.
    await t.close({ keepData: true });
    const config = loadConfig({ DATA_DIR: t.dataDir, DEMO_DATA: 'off', LOG_LEVEL: 'silent', SQLITE_SYNCHRONOUS: 'NORMAL', READ_STORE: 'memory' });
    const adapters = await createAdapters(config, createLogger({ level: 'silent' }), createMetrics());
    await adapters.checkpoints.save('unavailable-doctor-closer', 0);
    await adapters.close();
    t = await startTestApp({ dataDir: t.dataDir });
    // The old deactivation no longer holds: handled again, it closes nothing (settle() waits until the process manager
    // has acted on the whole log again, the old deactivation included).
    await t.settle();
    assert.equal((await appointmentOf(requester, since))?.status, 'requested', 'the booking made after the reactivation stands');

    // A new deactivation is handled after everything before it, so once it has closed the new booking the old
    // deactivation has been handled again too.
    await setActive(false);
    const closedSince = await settled(() => appointmentOf(requester, since), (a) => a?.status === 'rejected', 'the new booking is rejected');
    assert.equal(closedSince?.rejection_reason, API_TEXTS.doctorNoLongerAvailable);
    assert.deepEqual(await streamTypes(`appointment-${since}`), ['AppointmentRequested', 'AppointmentRejected'], 'closed once');
    assert.deepEqual(await Promise.all(Object.values(ids).map((id) => streamTypes(`appointment-${id}`))), closedBefore, 'nothing closed twice');
  });
});
