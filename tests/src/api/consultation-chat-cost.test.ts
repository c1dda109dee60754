import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';
import { heldAppointment } from '../support/held-appointment';

describe("a consultation's chat: sending a message costs the same however long the chat is", () => {
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

  it("reads only the consultation's events since the last command, not every earlier message", async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: 10, setNow: (at) => (now = at) });
    const stream = streams.consultation(id);
    const reads = eventsReadFrom(t.app.eventStore, stream);
    const read = reads.counts;
    try {
      for (let i = 0; i < 40; i += 1) {
        await t.http.post(`/api/v1/consultations/${id}/messages`).set(i % 2 ? doctor.auth : patient.auth).send({ text: `message ${i}` }).expect(201);
      }
    } finally {
      reads.stop();
    }
    const late = read.slice(-10);
    assert.ok(late.length > 0, 'the message posts read the consultation stream');
    assert.ok(
      late.every((n) => n <= 1),
      `the last messages each read at most the one event the message before wrote (read: ${late.join(', ')}); the whole stream grows with the chat`,
    );
    await t.settle();
    const chat = (await t.http.get(`/api/v1/consultations/${id}/messages?limit=200`).set(doctor.auth).expect(200)).body.messages as Array<{ text: string }>;
    assert.equal(chat.length, 40, 'every message was stored');
    assert.equal(chat.at(-1)?.text, 'message 39', 'in order');
  });
});
