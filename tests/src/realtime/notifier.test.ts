import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';

describe('notifier WebSocket', () => {
  let t: TestApp;
  let base: string;
  let doctor: TestUser;
  let patient: TestUser;
  let slotId: number;

  before(async () => {
    t = await startTestApp({ env: { NOTIFIER_IDLE_TIMEOUT_MS: '400' } });
    const port = await t.app.listen(0, '127.0.0.1');
    base = `ws://127.0.0.1:${port}`;
    doctor = await t.createUser('doctor', { name: 'Dr. Live' });
    patient = await t.createUser('patient', { name: 'Neha Gupta' });
    [slotId] = (await t.openSlots(doctor, [{ date: indiaDate(2), time: '16:00' }])) as [number];
  });
  after(() => t.close());

  it('closes with the seeds’ codes when authentication fails', async () => {
    assert.deepEqual(await connect(base, patient.user_id).closed, { code: 4001, reason: 'Authentication token is required' });
    assert.deepEqual(await connect(base, patient.user_id, 'garbage').closed, { code: 4002, reason: 'Invalid authentication token' });
    assert.deepEqual(await connect(base, doctor.user_id, patient.token).closed, { code: 4003, reason: 'User ID mismatch or invalid token payload' });
    const ghostToken = await t.app.tokens.issue({ user_id: 'ghost', account_type: 'patient' });
    assert.deepEqual(await connect(base, 'ghost', ghostToken).closed, { code: 4004, reason: 'User not found' });
  });

  it('greets, answers heartbeats, and delivers request and status change to the right users only', async () => {
    const doctorTab1 = connect(base, doctor.user_id, doctor.token);
    const doctorTab2 = connect(base, doctor.user_id, doctor.token);
    const patientSocket = connect(base, patient.user_id, patient.token);
    for (const s of [doctorTab1, doctorTab2, patientSocket]) await s.next('connection_established');
    patientSocket.socket.send(JSON.stringify({ type: 'heartbeat', timestamp: Date.now() }));
    await patientSocket.next('heartbeat_response');

    const created = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Migraine' }).expect(201);
    for (const tab of [doctorTab1, doctorTab2]) {
      const request = await tab.next('appointment_request');
      assert.equal(request.data?.patient_name, 'Neha Gupta');
      assert.equal(request.data?.slot_date, indiaDate(2));
      assert.equal(request.data?.slot_time, '16:00:00');
      assert.equal(request.data?.notes, 'Migraine');
      assert.equal(request.data?.appointment_id, created.body.appointment_id);
    }
    await t.http.post(`/api/v1/appointments/${created.body.appointment_id}/reject?rejection_reason=On%20leave`).set(doctor.auth).expect(200);
    const change = await patientSocket.next('appointment_status_change');
    assert.equal(change.status, 'rejected');
    assert.equal(change.data?.doctor_name, 'Dr. Live');
    assert.equal(change.data?.rejection_reason, 'On leave');
    assert.ok(!patientSocket.messages.some((m) => m.type === 'appointment_request'), 'the patient does not get the doctor’s messages');
    assert.ok(!doctorTab1.messages.some((m) => m.type === 'appointment_status_change'), 'the doctor does not get the patient’s');
    for (const s of [doctorTab1, doctorTab2, patientSocket]) s.socket.close(1000);
  });

  it('an HTTP approve reaches the patient; a patient cancellation reaches the doctor', async () => {
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '15:00' }]);
    const doctorSocket = connect(base, doctor.user_id, doctor.token);
    const patientSocket = connect(base, patient.user_id, patient.token);
    await doctorSocket.next('connection_established');
    await patientSocket.next('connection_established');
    const created = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Follow-up' }).expect(201);
    await doctorSocket.next('appointment_request');
    await t.http.post(`/api/v1/appointments/${created.body.appointment_id}/approve`).set(doctor.auth).expect(200);
    const approved = await patientSocket.next('appointment_status_change');
    assert.equal(approved.status, 'approved');
    assert.equal(approved.data?.slot_time, '15:00:00');
    await t.http.post(`/api/v1/appointments/${created.body.appointment_id}/cancel`).set(patient.auth).expect(200);
    const cancelled = await doctorSocket.next('appointment_status_change');
    assert.equal(cancelled.status, 'cancelled');
    doctorSocket.socket.close(1000);
    patientSocket.socket.close(1000);
  });

  it("a rejection frees the slot and the doctor's schedule is told so live", async () => {
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(4), time: '11:00' }]);
    const doctorSocket = connect(base, doctor.user_id, doctor.token);
    await doctorSocket.next('connection_established');
    const created = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Rash' }).expect(201);
    await doctorSocket.next('appointment_request');
    await t.http.post(`/api/v1/appointments/${created.body.appointment_id}/reject`).set(doctor.auth).send({ reason: null }).expect(200);
    const update = await doctorSocket.next('schedule_update');
    assert.deepEqual(update.data, { slot_id: slot, status: 'open' });
    doctorSocket.socket.close(1000);
  });

  it("a request pushed to the doctor's socket is on the patient's access log, as the same read over HTTP is; none without a socket", async () => {
    const someone = await t.createUser('patient', { name: 'Ira Menon' });
    const [offline, online] = (await t.openSlots(doctor, [
      { date: indiaDate(5), time: '10:00' },
      { date: indiaDate(5), time: '10:30' },
    ])) as [number, number];
    const accessLog = async () => {
      await t.settle();
      const res = await t.http.get('/api/v1/users/me/access-log').set(someone.auth).expect(200);
      return res.body.entries as Array<{ who: { user_id: string }; what: { route: string; items: string[] }; why: string }>;
    };
    const unseen = await t.http.post('/api/v1/appointments').set(someone.auth).send({ slot_id: offline, notes: 'Cough' }).expect(201);
    await t.settle();
    assert.deepEqual(await accessLog(), [], 'nobody was shown the request: the doctor had no socket');

    const doctorSocket = connect(base, doctor.user_id, doctor.token);
    await doctorSocket.next('connection_established');
    const seen = await t.http.post('/api/v1/appointments').set(someone.auth).send({ slot_id: online, notes: 'Cough again' }).expect(201);
    await doctorSocket.next('appointment_request');
    const entries = await accessLog();
    assert.equal(entries.length, 1, JSON.stringify(entries));
    assert.equal(entries[0]!.who.user_id, doctor.user_id);
    assert.equal(entries[0]!.why, 'care');
    assert.equal(entries[0]!.what.route, 'WS /ws/:user_id appointment_request');
    assert.deepEqual(entries[0]!.what.items, [seen.body.appointment_id]);
    assert.ok(!entries[0]!.what.items.includes(unseen.body.appointment_id));
    doctorSocket.socket.close(1000);
  });

  it('closes a socket that sends no heartbeat; heartbeats keep it open', async () => {
    const quiet = connect(base, patient.user_id, patient.token);
    const lively = connect(base, doctor.user_id, doctor.token);
    await quiet.next('connection_established');
    await lively.next('connection_established');
    const beating = setInterval(() => lively.socket.send(JSON.stringify({ type: 'heartbeat', timestamp: Date.now() })), 100);
    const closed = await quiet.closed;
    assert.equal(closed.code, 4008);
    assert.equal(lively.socket.readyState, WebSocket.OPEN, 'the beating socket stays open');
    clearInterval(beating);
    lively.socket.close(1000);
  });

  it('a deactivated user is refused with 4004', async () => {
    const admin = await t.createUser('admin');
    const leaving = await t.createUser('patient');
    const res = await t.http.delete(`/api/v1/admin/users/${leaving.user_id}`).set(admin.auth).expect(200);
    await t.app.runner.waitForPosition(Number(res.headers['x-event-position']), 2000);
    assert.deepEqual(await connect(base, leaving.user_id, leaving.token).closed, { code: 4004, reason: 'User not found' });
  });
});
