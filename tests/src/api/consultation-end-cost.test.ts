import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';
import { heldAppointment } from '../support/held-appointment';

/**
 * A request that meets a consultation past its limit ends it first (by the system), then decides on the ended one.
 * That second decision read the whole stream (every join, and then every chat message); it now reads the events since
 * the kept fold's look.
 */
describe('a consultation ended on a late request is not read whole', () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  it('reads the events since the last look, and the consultation is ended', async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: 10, setNow: (at) => (now = at) });
    // Chat has a stream of its own now; what makes a consultation's stream long is its joins (every reload rejoins).
    for (let i = 0; i < 30; i += 1) await t.http.post(`/api/v1/consultations/${id}/join`).set(i % 2 ? doctor.auth : patient.auth).expect(200);
    const stream = streams.consultation(id);
    assert.ok((await t.app.eventStore.readStream(stream)).length > 30, 'a long consultation');
    now = new Date(now.getTime() + 6 * 3600_000);
    const reads = eventsReadFrom(t.app.eventStore, stream);
    let status: number;
    try {
      status = (await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: 'too late' })).status;
    } finally {
      reads.stop();
    }
    assert.ok(status >= 400 && status < 500, `refused (${status})`);
    const events = await t.app.eventStore.readStream(stream);
    assert.ok(events.some((e) => e.type === 'ConsultationAutoEnded' || e.type === 'ConsultationEnded'), `ended (${events.slice(-2).map((e) => e.type).join(', ')})`);
    assert.ok(reads.counts.length > 0);
    assert.ok(reads.counts.every((n) => n <= 2), `each read of the consultation (over 30 events) returns the events since the last look (read: ${reads.counts.join(', ')})`);
  });
});
