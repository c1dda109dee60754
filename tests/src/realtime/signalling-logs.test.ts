import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { createLogger } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';

describe('malformed signalling is logged without its payload (issue 13)', () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  let t: TestApp;
  let base: string;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, logger: createLogger({ level: 'info', destination }), env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  it('a malformed offer, answer and candidate are ignored, each logged with its type and size, never its content', async () => {
    const date = indiaDate(2);
    const [slot] = await t.openSlots(doctor, [{ date, time: '10:00' }]);
    const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Rash' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    now = new Date(DateTime.fromISO(`${date}T10:00`, { zone: DEFAULT_TIMEZONE }).toMillis() + 60_000);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    await t.settle();

    const p = connect(base, patient.user_id, patient.token);
    const d = connect(base, doctor.user_id, doctor.token);
    await p.next('connection_established');
    await d.next('connection_established');
    const secret = 'SECRET-SDP-a=fingerprint:sha-256 AB:CD';
    p.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: { text: secret } }));
    p.socket.send(JSON.stringify({ type: 'rtc_answer', appointment_id: id, sdp: secret, extra: secret }));
    p.socket.send(JSON.stringify({ type: 'rtc_ice_candidate', appointment_id: id, candidate: secret }));
    p.socket.send(`{"type":"rtc_offer","sdp":"${secret}"`); // not even JSON
    // A malformed frame is logged as it is read: once the frame after it is answered, the log holds it.
    await p.roundTrip();
    await d.roundTrip();

    const logged = lines.map((l) => JSON.parse(l) as { msg?: string; type?: string; bytes?: number }).filter((l) => l.msg === 'ignored a malformed signalling message');
    assert.deepEqual(logged.map((l) => l.type).sort(), ['rtc_answer', 'rtc_ice_candidate', 'rtc_offer'], `each parseable malformed signal is logged once: ${JSON.stringify(logged)}`);
    assert.ok(logged.every((l) => typeof l.bytes === 'number' && l.bytes > 0), 'with its size');
    assert.ok(!lines.join('').includes('SECRET-SDP'), 'never with its content');
    assert.ok(!d.messages.some((m) => m.type.startsWith('rtc_')), 'nothing reached the other participant');
    assert.equal(p.socket.readyState, p.socket.OPEN, 'the sender stays connected');
    p.socket.close(1000);
    d.socket.close(1000);
  });
});
