import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import WebSocket from 'ws';
import { indiaDate, startTestApp } from '../support/test-app';
import { natsReachable, natsUrl } from '../support/nats';

const reachable = await natsReachable();

describe('store → relay → NATS JetStream → notifier → socket', () => {
  it('an HTTP approve reaches the patient through the real NATS server', { skip: reachable ? false : `not run: no NATS server at ${natsUrl}` }, async () => {
    const t = await startTestApp({ env: { NATS_URL: natsUrl, NOTIFIER_ID: `test-${randomUUID().slice(0, 8)}` } });
    try {
      const ready = await t.http.get('/readyz').expect(200);
      assert.deepEqual(ready.body.adapters, { eventStore: 'sqlite', readStore: 'memory', bus: 'nats' });
      const port = await t.app.listen(0, '127.0.0.1');
      const doctor = await t.createUser('doctor');
      const patient = await t.createUser('patient', { name: 'Asha Verma' });
      const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '11:00' }]);
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/${patient.user_id}?token=${patient.token}`);
      const messages: Array<{ type: string; status?: string }> = [];
      ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await new Promise((r) => ws.on('open', r));
      const created = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'x' }).expect(201);
      await t.http.post(`/api/v1/appointments/${created.body.appointment_id}/approve`).set(doctor.auth).expect(200);
      // What is asserted is that the message arrives; under a full suite's load on two cores the path (relay, JetStream,
      // the notifier waiting for its read model) once took more than the 5 s this allowed.
      const deadline = Date.now() + 20_000;
      while (!messages.some((m) => m.type === 'appointment_status_change') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const change = messages.find((m) => m.type === 'appointment_status_change');
      assert.equal(change?.status, 'approved');
      ws.close(1000);
    } finally {
      await t.close();
    }
  });
});
