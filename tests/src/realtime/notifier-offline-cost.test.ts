import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { documentsRead } from '../support/documents-read';

/**
 * The notifier builds an appointment's message only for a party with a socket on this replica: for a booking whose
 * patient and doctor are both offline it reads the appointment (to learn who they are) and nobody's names.
 */
describe('the notifier with nobody connected', () => {
  let t: TestApp;
  let base: string;
  let doctor: TestUser;
  let patient: TestUser;
  let slots: number[];

  before(async () => {
    t = await startTestApp();
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    doctor = await t.createUser('doctor', { name: 'Dr. Offline Rao' });
    patient = await t.createUser('patient', { name: 'Ira Offline' });
    slots = await t.openSlots(doctor, ['09:00', '09:30'].map((time) => ({ date: indiaDate(2), time })));
  });
  after(() => t.close());

  it('reads no one’s name for events nobody here can receive, and still tells a party who is connected', async () => {
    const read = await documentsRead(t, 'appointment_people', async () => {
      const offline = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[0], notes: 'Offline' }).expect(201);
      await t.http.post(`/api/v1/appointments/${offline.body.appointment_id}/approve`).set(doctor.auth).expect(200);
      await t.settle();
      // The bus hands the notifier the events in order: once the doctor has the next request, these were handled.
      const socket = connect(base, doctor.user_id, doctor.token);
      await socket.next('connection_established');
      await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[1], notes: 'Online' }).expect(201);
      const request = await socket.next('appointment_request');
      assert.equal(request.data?.patient_name, 'Ira Offline');
      assert.equal(request.data?.notes, 'Online');
      socket.socket.close(1000);
    });
    assert.equal(read, 2, 'the two people of the one request the doctor could receive');
  });
});
