import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect } from '../support/ws-client';
import { callUnderWay } from '../support/held-appointment';

type Client = ReturnType<typeof connect>;
const GRACE_MS = 400;

describe('a dropped call socket in a peer-to-peer consultation (issue 13)', () => {
  let t: TestApp;
  let base: string;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', CONSULTATION_DISCONNECT_GRACE_MS: String(GRACE_MS) } });
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    doctor = await t.createUser('doctor', { name: 'Dr. Grace' });
    patient = await t.createUser('patient', { name: 'Ravi Kumar' });
  });
  after(() => t.close());

  /** A consultation both have joined, the clock 5 minutes into the appointment. */
  const runningConsultation = async () => (await callUnderWay(t, { doctor, patient, hour: (hour += 1), notes: 'Back pain', setNow: (at) => (now = at) })).id;

  async function socket(user: TestUser): Promise<Client> {
    const s = connect(base, user.user_id, user.token);
    await s.next('connection_established');
    return s;
  }
  const attach = (s: Client, id: string) => s.socket.send(JSON.stringify({ type: 'call_attach', appointment_id: id }));
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const patientPresent = async (id: string) => {
    const view = await t.http.get(`/api/v1/consultations/${id}`).set(doctor.auth).expect(200);
    return (view.body.participants as Array<{ user_id: string; present: boolean }>).find((p) => p.user_id === patient.user_id)?.present;
  };
  const disconnections = async (id: string) =>
    (await t.app.eventStore.readStream(streams.consultation(id))).filter((e) => e.type === 'ConsultationLeft' && (e.data as { reason: string }).reason === 'disconnected');
  /** The next consultation_update of this consultation. */
  async function nextUpdate(s: Client, id: string, timeoutMs = 5000) {
    for (;;) {
      const update = await s.next('consultation_update', timeoutMs);
      if (update.data?.appointment_id === id) return update;
    }
  }

  it('a socket that drops and does not come back within the grace is recorded as having left (by the system, reason disconnected)', async () => {
    const id = await runningConsultation();
    const [p, d] = [await socket(patient), await socket(doctor)];
    attach(p, id);
    attach(d, id);
    await wait(100);
    p.socket.terminate(); // a lost network: no close handshake
    const update = await nextUpdate(d, id);
    assert.deepEqual([update.data?.event, update.data?.user_id], ['left', patient.user_id], 'the doctor is told the patient is gone');
    await t.settle();
    assert.equal(await patientPresent(id), false, 'the patient is no longer shown as present');
    const [left, ...more] = await disconnections(id);
    assert.equal(more.length, 0, 'recorded once');
    assert.deepEqual((left!.metadata as { actor: unknown }).actor, { user_id: 'system', role: 'system' });
    assert.equal((left!.data as { user_id: string }).user_id, patient.user_id);
    assert.equal(await patientPresent(id), false);
    d.socket.close(1000);
  });

  it('a reconnect within the grace cancels it', async () => {
    const id = await runningConsultation();
    const [p, d] = [await socket(patient), await socket(doctor)];
    attach(p, id);
    await wait(100);
    p.socket.terminate();
    await wait(GRACE_MS / 4);
    const back = await socket(patient);
    attach(back, id);
    await wait(GRACE_MS * 2.5);
    assert.ok(!d.messages.some((m) => m.type === 'consultation_update' && m.data?.event === 'left'), 'the doctor heard of no leave');
    assert.equal(await patientPresent(id), true);
    assert.deepEqual(await disconnections(id), []);
    for (const s of [back, d]) s.socket.close(1000);
  });

  it('a join from another device during the grace is not ended by the old socket\'s drop', async () => {
    const id = await runningConsultation();
    const [p, d] = [await socket(patient), await socket(doctor)];
    attach(p, id);
    await wait(100);
    p.socket.terminate();
    await wait(GRACE_MS / 4);
    // The phone joins (a new connection) before its socket has attached anything.
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await wait(GRACE_MS * 2.5);
    assert.deepEqual(await disconnections(id), []);
    assert.equal(await patientPresent(id), true);
    d.socket.close(1000);
  });

  it('a socket that only signalled carries the call too; a second socket of the same person still carrying it keeps them present', async () => {
    const id = await runningConsultation();
    const [p, spare, d] = [await socket(patient), await socket(patient), await socket(doctor)];
    p.socket.send(JSON.stringify({ type: 'rtc_offer', appointment_id: id, sdp: 'v=0 offer' }));
    await d.next('rtc_offer');
    attach(spare, id);
    await wait(100);
    p.socket.terminate();
    await wait(GRACE_MS * 2.5);
    assert.deepEqual(await disconnections(id), [], 'the spare socket still carries the call');
    spare.socket.terminate();
    const update = await nextUpdate(d, id);
    assert.deepEqual([update.data?.event, update.data?.user_id], ['left', patient.user_id]);
    d.socket.close(1000);
  });

  it('a socket never attached to the call (a dashboard tab) dropping changes nothing, nor does a stranger attaching', async () => {
    const id = await runningConsultation();
    const stranger = await t.createUser('patient');
    const [dashboard, s] = [await socket(patient), await socket(stranger)];
    attach(s, id);
    await wait(50);
    dashboard.socket.terminate();
    s.socket.terminate();
    await wait(GRACE_MS * 2.5);
    assert.deepEqual(await disconnections(id), []);
    assert.equal(await patientPresent(id), true);
  });
});
