import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import supertest from 'supertest';
import { streams } from '@telemed/contracts';
import { indiaDate, startTestApp } from '../support/test-app';

describe('a slot is never booked twice', () => {
  it('100 simultaneous requests by 100 patients: exactly one 201, 99 × 409, one reservation; it survives a restart', async () => {
    const t = await startTestApp();
    const doctor = await t.createUser('doctor');
    const patients = await Promise.all(Array.from({ length: 100 }, () => t.createUser('patient')));
    const [slotId] = await t.openSlots(doctor, [{ date: indiaDate(1), time: '18:00' }]);
    const port = await t.app.listen(0, '127.0.0.1');
    const http = supertest(`http://127.0.0.1:${port}`);

    const responses = await Promise.all(
      patients.map((p, i) => http.post('/api/v1/appointments').set(p.auth).send({ slot_id: slotId, notes: `Request ${i}` })),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses: ${JSON.stringify(statuses)}`);
    assert.equal(statuses.filter((s) => s === 409).length, 99);
    assert.ok(responses.filter((r) => r.status === 409).every((r) => r.body.detail === 'This slot is already booked'));

    const slotStream = await t.app.eventStore.readStream(streams.slot(slotId!));
    assert.equal(slotStream.filter((e) => e.type === 'SlotReserved').length, 1);
    const winner = responses.find((r) => r.status === 201)!.body.appointment_id as string;
    await t.close({ keepData: true });

    const restarted = await startTestApp({ dataDir: t.dataDir });
    try {
      const winnerPatient = patients[statuses.indexOf(201)]!;
      const mine = await restarted.http.get('/api/v1/appointments/me').set(winnerPatient.auth).expect(200);
      assert.deepEqual(mine.body.map((a: { appointment_id: string }) => a.appointment_id), [winner]);
      await restarted.http.post('/api/v1/appointments').set(patients[0]!.auth).send({ slot_id: slotId, notes: 'After restart' }).expect(409);
      const free = await restarted.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patients[1]!.auth).expect(200);
      assert.deepEqual(free.body.slots, []);
    } finally {
      await restarted.close();
    }
  });

  it('a doctor can never approve two requests for one slot: the second request never exists', async () => {
    const t = await startTestApp();
    try {
      const doctor = await t.createUser('doctor');
      const [a, b] = [await t.createUser('patient'), await t.createUser('patient')];
      const [slotId] = await t.openSlots(doctor, [{ date: indiaDate(1), time: '19:00' }]);
      const first = await t.http.post('/api/v1/appointments').set(a.auth).send({ slot_id: slotId, notes: 'first' }).expect(201);
      await t.http.post('/api/v1/appointments').set(b.auth).send({ slot_id: slotId, notes: 'second' }).expect(409);
      await t.http.post(`/api/v1/appointments/${first.body.appointment_id}/approve`).set(doctor.auth).expect(200);
      const pending = await t.http.get('/api/v1/appointments/pending').set(doctor.auth).expect(200);
      assert.deepEqual(pending.body, []);
    } finally {
      await t.close();
    }
  });
});
