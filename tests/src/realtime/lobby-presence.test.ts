import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { CONSULTATION_TEXTS, DEFAULT_TIMEZONE, isServerMessage } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { connect, type Message } from '../support/ws-client';
import { eventually } from '../support/eventually';

type Client = ReturnType<typeof connect>;

describe('lobby presence over the notifier (issue 13)', () => {
  let t: TestApp;
  let base: string;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;
  let otherDoctor: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    base = `ws://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
    doctor = await t.createUser('doctor', { name: 'Dr. Lobby' });
    otherDoctor = await t.createUser('doctor');
    patient = await t.createUser('patient', { name: 'Kavya Rao' });
    otherPatient = await t.createUser('patient');
  });
  after(() => t.close());

  /** An appointment of `patient` with `doctor`, approved unless asked not to; the clock is 5 minutes before its start. */
  async function appointment(approve = true): Promise<string> {
    now = new Date();
    hour += 1;
    const date = indiaDate(2);
    const time = `${String(hour).padStart(2, '0')}:00`;
    const [slot] = await t.openSlots(doctor, [{ date, time }]);
    const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Cough' }).expect(201);
    const id = res.body.appointment_id as string;
    if (approve) await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    await t.settle();
    now = new Date(DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).toMillis() - 5 * 60_000);
    return id;
  }

  async function sockets(...users: TestUser[]): Promise<Client[]> {
    const opened = users.map((u) => connect(base, u.user_id, u.token));
    for (const s of opened) await s.next('connection_established');
    return opened;
  }
  const send = (s: Client, type: string, appointment_id: string) => s.socket.send(JSON.stringify({ type, appointment_id }));
  /** Waits until the server has handled the closing of `s` (its sockets are counted without it, and so is the lobby). */
  async function closedOnServer(s: Client): Promise<void> {
    const open = t.app.notifier.openSockets();
    s.socket.close(1000);
    await s.closed;
    await eventually(async () => assert.ok(t.app.notifier.openSockets() < open));
  }
  const presences = (s: Client) => s.messages.filter((m) => m.type === 'lobby_presence');
  /** The next lobby_presence for this appointment. */
  async function nextPresence(s: Client, id: string): Promise<Message & { user_id?: string; role?: string; present?: boolean }> {
    for (;;) {
      const m = (await s.next('lobby_presence')) as Message & { appointment_id?: string };
      if (m.appointment_id === id) return m;
    }
  }

  it("tells the doctor live that the patient entered the lobby, and that they left it (leave, or the socket closing)", async () => {
    const id = await appointment();
    const [d, p, stranger] = await sockets(doctor, patient, otherPatient);
    send(p!, 'lobby_enter', id);
    const entered = await nextPresence(d!, id);
    assert.deepEqual(entered, { type: 'lobby_presence', appointment_id: id, user_id: patient.user_id, role: 'patient', present: true });
    assert.ok(isServerMessage(entered), 'the message is in the shared union');
    send(p!, 'lobby_leave', id);
    assert.equal((await nextPresence(d!, id)).present, false);

    send(p!, 'lobby_enter', id);
    assert.equal((await nextPresence(d!, id)).present, true);
    p!.socket.close(1000);
    const gone = await nextPresence(d!, id);
    assert.deepEqual([gone.user_id, gone.present], [patient.user_id, false], 'a closed socket takes the presence away');
    // Presence goes to its one addressee at once (in process): what reached anyone else has arrived by now.
    await stranger!.roundTrip();
    assert.deepEqual(presences(stranger!), [], 'nobody else hears of it');
    for (const s of [d, stranger]) s!.socket.close(1000);
  });

  it('a dashboard opened later asks and learns that the patient is waiting; the patient learns the doctor is in the lobby', async () => {
    const id = await appointment();
    // A doctor's socket already open hears the patient enter: the patient is in the lobby before the dashboard opens.
    const [p, earlier] = await sockets(patient, doctor);
    send(p!, 'lobby_enter', id);
    await nextPresence(earlier!, id);
    const [dashboard] = await sockets(doctor);
    send(dashboard!, 'lobby_watch', id);
    const waiting = await nextPresence(dashboard!, id);
    assert.deepEqual([waiting.user_id, waiting.role, waiting.present], [patient.user_id, 'patient', true]);
    assert.deepEqual(presences(p!), [], 'watching does not announce the doctor');

    // The doctor opens the call page: the patient hears the doctor is in the lobby, and the doctor that the patient is.
    const [doctorLobby] = await sockets(doctor);
    send(doctorLobby!, 'lobby_enter', id);
    const doctorHere = await nextPresence(p!, id);
    assert.deepEqual([doctorHere.user_id, doctorHere.role, doctorHere.present], [doctor.user_id, 'doctor', true]);
    assert.equal((await nextPresence(doctorLobby!, id)).user_id, patient.user_id, 'entering also asks who is already waiting');
    for (const s of [p, earlier, dashboard, doctorLobby]) s!.socket.close(1000);
  });

  it('a person waiting from two tabs stays present until both are gone', async () => {
    const id = await appointment();
    const [d, tab1, tab2] = await sockets(doctor, patient, patient);
    send(tab1!, 'lobby_enter', id);
    send(tab2!, 'lobby_enter', id);
    await nextPresence(d!, id);
    await nextPresence(d!, id);
    await closedOnServer(tab1!);
    await d!.roundTrip();
    assert.deepEqual(presences(d!), [], 'one tab closing does not say the patient left');
    tab2!.socket.close(1000);
    assert.equal((await nextPresence(d!, id)).present, false);
    d!.socket.close(1000);
  });

  it('joining the call takes the patient out of the lobby', async () => {
    const id = await appointment();
    const [d, p] = await sockets(doctor, patient);
    send(p!, 'lobby_enter', id);
    assert.equal((await nextPresence(d!, id)).present, true);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    const left = await nextPresence(d!, id);
    assert.deepEqual([left.user_id, left.present], [patient.user_id, false]);
    for (const s of [d, p]) s!.socket.close(1000);
  });

  it('refuses a third user (other patient, other doctor) who announces or watches, and an unconfirmed appointment', async () => {
    const id = await appointment();
    const [d, p, strangerPatient, strangerDoctor] = await sockets(doctor, patient, otherPatient, otherDoctor);
    for (const stranger of [strangerPatient!, strangerDoctor!]) {
      for (const type of ['lobby_enter', 'lobby_watch']) {
        send(stranger, type, id);
        assert.deepEqual(await stranger.next('lobby_refused'), { type: 'lobby_refused', appointment_id: id, detail: CONSULTATION_TEXTS.lobbyRefused });
      }
    }
    send(p!, 'lobby_enter', id);
    await nextPresence(d!, id);
    // A stranger watching does not learn that the patient is waiting, nor does one who is refused later.
    send(strangerDoctor!, 'lobby_watch', id);
    await strangerDoctor!.next('lobby_refused');
    send(strangerPatient!, 'lobby_enter', 'no-such-appointment');
    await strangerPatient!.next('lobby_refused');
    for (const s of [strangerPatient!, strangerDoctor!, p!]) await s.roundTrip();
    for (const stranger of [strangerPatient!, strangerDoctor!]) assert.deepEqual(presences(stranger), []);
    assert.deepEqual(presences(p!), [], 'a refused announcement reaches nobody');

    const requested = await appointment(false);
    send(p!, 'lobby_enter', requested);
    await p!.next('lobby_refused');
    await d!.roundTrip();
    assert.ok(!presences(d!).some((m) => (m as { appointment_id?: string }).appointment_id === requested), 'not for an appointment that is not confirmed');
    // Malformed lobby messages are ignored: no answer, the socket stays open.
    p!.socket.send(JSON.stringify({ type: 'lobby_enter', appointment_id: 42 }));
    p!.socket.send(JSON.stringify({ type: 'lobby_enter', appointment_id: id, extra: true }));
    await p!.roundTrip();
    assert.equal(p!.socket.readyState, p!.socket.OPEN);
    for (const s of [d, p, strangerPatient, strangerDoctor]) s!.socket.close(1000);
  });
});
