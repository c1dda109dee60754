import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { TokenVerifier } from 'livekit-server-sdk';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { eventually } from '../support/eventually';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

const API_KEY = 'APItelemedtest';
const API_SECRET = 'a-livekit-secret-of-at-least-32-characters';

interface Call {
  path: string;
  authorization: string | undefined;
  body: unknown;
}

describe("LiveKit's room is deleted through the room service when the consultation ends (issue 13)", () => {
  let t: TestApp;
  let roomService: Server;
  const calls: Call[] = [];
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    // Stands in for LiveKit's room service: the SDK's Twirp requests, answered as LiveKit answers them.
    roomService = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += String(chunk)));
      req.on('end', () => {
        calls.push({ path: req.url ?? '', authorization: req.headers.authorization, body: text ? JSON.parse(text) : null });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => roomService.listen(0, '127.0.0.1', resolve));
    const port = (roomService.address() as { port: number }).port;
    t = await startTestApp({
      clock: () => now,
      env: { LIVEKIT_URL: `ws://127.0.0.1:${port}`, LIVEKIT_API_KEY: API_KEY, LIVEKIT_API_SECRET: API_SECRET, CONSULTATION_SWEEP_INTERVAL_MS: '3600000' },
    });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => roomService.close(resolve));
  });

  it('End Call deletes the room of that appointment, with a token allowed to manage rooms', async () => {
    const date = indiaDate(2);
    const [slot] = await t.openSlots(doctor, [{ date, time: '11:00' }]);
    const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Checkup' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    now = DateTime.fromISO(`${date}T11:00`, { zone: DEFAULT_TIMEZONE }).toJSDate();
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    assert.equal(calls.length, 0, 'joining needs no call to the room service (tokens are minted here)');

    await t.http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth).expect(200);
    await eventually(async () => assert.ok(calls.some((c) => c.path.endsWith('.RoomService/DeleteRoom')), `the room service was asked to delete the room: ${JSON.stringify(calls)}`));
    const [deletion] = calls.filter((c) => c.path.endsWith('.RoomService/DeleteRoom'));
    assert.equal(deletion!.path, '/twirp/livekit.RoomService/DeleteRoom');
    assert.deepEqual(deletion!.body, { room: `consultation-${id}` });
    const token = deletion!.authorization?.replace(/^Bearer /, '');
    assert.ok(token, 'with a bearer token');
    const claims = await new TokenVerifier(API_KEY, API_SECRET).verify(token);
    assert.equal(claims.video?.roomCreate, true, 'LiveKit requires roomCreate to delete a room');
  });
});
