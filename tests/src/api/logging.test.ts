import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import supertest from 'supertest';
import { createLogger, loadConfig } from '@telemed/platform';
import { createApp } from '@telemed/all-in-one';
import { giveConsent, registerUser, setAvailability, systemContext } from '@telemed/command';
import { indiaDate, slotInput, tmpDataDir } from '../support/test-app';
import { logLines } from '../support/log-lines';

describe('logs', () => {
  it('record each request with route, status and correlation id, and never notes, reasons, names, addresses or tokens (erasure included)', async () => {
    const { lines, destination } = logLines();
    const app = await createApp({
      config: loadConfig({ DATA_DIR: tmpDataDir(), DEMO_DATA: 'off' }),
      logger: createLogger({ level: 'info', destination }),
    });
    await app.start();
    try {
      const context = systemContext(new Date(), null);
      const doctor = await registerUser(app.eventStore, { email: 'd@x.in', name: 'Dr D', account_type: 'doctor' }, context);
      const patient = await registerUser(app.eventStore, { email: 'p@x.in', name: 'P', account_type: 'patient' }, context);
      await giveConsent(app.eventStore, patient.user_id, {}, context);
      await setAvailability(app.eventStore, doctor.user_id, { slots: [slotInput(indiaDate(1), '18:30')] }, context);
      await app.runner.waitForPosition(await app.eventStore.headPosition(), 2000);
      const token = await app.tokens.issue({ user_id: patient.user_id, account_type: 'patient' });
      const slots = await supertest(app.app).get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set('Authorization', `Bearer ${token}`);
      await supertest(app.app)
        .post('/api/v1/appointments')
        .set('Authorization', `Bearer ${token}`)
        .set('X-Correlation-Id', 'trace-123')
        .send({ slot_id: slots.body.slots[0].slot_id, notes: 'SECRET-SYMPTOM-TEXT' })
        .expect(201)
        .expect('X-Correlation-Id', 'trace-123');
      // The new paths of issue 12: a rejection with its reason (encrypted under the patient's key), and an erasure.
      const doctorToken = await app.tokens.issue({ user_id: doctor.user_id, account_type: 'doctor' });
      const appointmentId = (await app.eventStore.readAll({ fromPosition: 0, limit: 1000 })).find((e) => e.type === 'AppointmentRequested')!.stream_id.slice('appointment-'.length);
      await supertest(app.app).post(`/api/v1/appointments/${appointmentId}/reject`).set('Authorization', `Bearer ${doctorToken}`).send({ reason: 'SECRET-REJECTION-REASON' }).expect(200);
      const erasure = await supertest(app.app).post('/api/v1/users/me/erasure').set('Authorization', `Bearer ${token}`).expect(200);
      await app.runner.waitForPosition(Number(erasure.headers['x-event-position']), 2000);
      await supertest(app.app).get('/api/v1/users/me').set('Authorization', `Bearer ${token}`).expect(401);
      const all = lines.join('');
      assert.ok(!all.includes('SECRET-SYMPTOM-TEXT'), 'no health data in logs');
      assert.ok(!all.includes('SECRET-REJECTION-REASON'), 'no reasons in logs');
      for (const personal of ['p@x.in', '"P"', 'Dr D', 'd@x.in']) assert.ok(!all.includes(personal), `no names or addresses in logs (${personal})`);
      assert.ok(!all.includes('enc1.'), 'no ciphertext in logs either');
      assert.ok(lines.some((l) => l.includes('/api/v1/users/me/erasure')), 'the erasure request itself is logged (route and status)');
      assert.ok(!all.includes(token), 'no tokens in logs');
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.correlation_id === 'trace-123');
      assert.deepEqual(
        { method: entry.method, route: entry.route, status: entry.status },
        { method: 'POST', route: '/api/v1/appointments', status: 201 },
      );
      const events = await app.eventStore.readAll({ fromPosition: 0, limit: 1000 });
      const requested = events.find((e) => e.type === 'AppointmentRequested')!;
      assert.equal((requested.metadata as { correlation_id: string }).correlation_id, 'trace-123', 'the correlation id reaches the events');
    } finally {
      await app.stop();
    }
  });
});
