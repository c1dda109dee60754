import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventually } from '../support/eventually';
import { LOTUS_CLINIC, givenClinicOfTwo } from '../support/given-institution';

/**
 * Messages outside the browser (issue 34) through the development outbox: sign-in by phone, and what a booking's life
 * sends to its doctor and patient, in their language, naming no health data.
 */
describe('messages and sign-in by phone (development outbox)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  // Midday in India (quiet hours are 21:00-09:00 in the recipient's zone): today, or tomorrow once that has passed.
  const middayInIndia = () => {
    const midday = new Date();
    midday.setUTCHours(6, 30, 0, 0);
    return midday.getTime() < Date.now() - 6 * 3_600_000 ? new Date(midday.getTime() + 86_400_000) : midday;
  };
  let now = middayInIndia();
  const clock = () => now;

  before(async () => {
    t = await startTestApp({ clock, env: { REMINDER_OFFSETS_MINUTES: '1440,60' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  const outbox = (recipient: string) => t.app.outbox!.list({ recipient, limit: 50 });
  /**
   * Waits for the outbox to hold what `found` looks for, counting turns of the event loop's timers rather than
   * `Date.now()`: the cases move the app's clock, which a deadline in wall-clock time would read.
   */
  const untilSent = async (found: () => boolean, label: string) => {
    for (let turn = 0; turn < 200 && !found(); turn++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(found(), label);
  };
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];
  let nextNumber = 9876500000;
  const newNumber = () => `+91${(nextNumber += 7)}`;

  it('a new number signs in with the code the outbox received, and becomes a patient; a second sign-in is the same account', async () => {
    // Signed in at the real time: the app signs its tokens at its clock's time and checks them against the real clock
    // (midday in India may be hours ago, which would have expired them). The other cases keep their midday.
    const midday = now;
    now = new Date();
    const phone = newNumber();
    const started = await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone.slice(3) });
    assert.equal(started.status, 200, started.text);
    assert.deepEqual({ ...started.body, challenge: undefined }, { status: 'code_sent', phone_number: phone, channel: 'sms', resend_after_seconds: 30, expires_in_seconds: 300, challenge: undefined });
    assert.match(started.body.challenge, /^[\w-]{32}$/);
    const [sent] = outbox(phone);
    assert.ok(sent, 'the outbox received the code');
    assert.equal(sent.kind, 'sign_in_code');
    const code = codeIn(sent.text)!;
    assert.match(code, /^\d{6}$/);

    const { challenge } = started.body as { challenge: string };
    const signedIn = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code, challenge });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.body.status, 'success');
    assert.equal(signedIn.body.user.account_type, 'patient');
    const me = await spec.read((http) => http.get('/api/v1/users/me/messaging').set({ Authorization: `Bearer ${signedIn.body.access_token}` }));
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.verified_phone, phone);

    // The same code twice does not sign in twice.
    const again = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code, challenge });
    assert.equal(again.status, 401);
    assert.equal(again.body.code, 'phone_code_expired');

    now = new Date(now.getTime() + 31_000);
    const restarted = await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone }).expect(200);
    const second = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code: codeIn(outbox(phone)[0]!.text)!, challenge: restarted.body.challenge });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.user.user_id, signedIn.body.user.user_id);
    // Their data export names the number and the code sent to it once it was theirs (the first went to a number no
    // account held), never a code.
    const exported = await spec.read((http) => http.get('/api/v1/users/me/export').set({ Authorization: `Bearer ${second.body.access_token}` }));
    assert.equal(exported.status, 200, exported.text.slice(0, 300));
    assert.equal(exported.body.messaging.verified_phone, phone);
    assert.deepEqual(exported.body.messaging.messages.map((m: { kind: string; status: string }) => [m.kind, m.status]), [['sign_in_code', 'sent']]);
    assert.ok(!exported.text.includes(code), 'no code in the export');
    now = midday;
  });

  it('refuses a number that is not a mobile number, a resend within 30 s, and a wrong code; five wrong tries spend the code', async () => {
    const bad = await t.http.post('/api/v1/auth/phone/start').send({ phone_number: '12345' });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.body.code, 'phone_invalid');

    const phone = newNumber();
    const { challenge } = (await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone }).expect(200)).body as { challenge: string };
    const soon = await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone });
    assert.equal(soon.status, 429);
    assert.equal(soon.body.code, 'phone_resend_wait');
    assert.ok(Number(soon.headers['retry-after']) > 0);

    const right = codeIn(outbox(phone)[0]!.text)!;
    const wrong = right === '000000' ? '111111' : '000000';
    // Tries without the challenge its start answered are nobody's to make: they count against nothing.
    for (let i = 0; i < 8; i++) {
      const guess = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code: wrong, challenge: 'not-the-challenge-it-answered' });
      assert.equal(guess.status, 401);
      assert.equal(guess.body.code, 'phone_code_wrong');
    }
    for (let i = 0; i < 5; i++) {
      const tried = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code: wrong, challenge });
      assert.equal(tried.status, 401);
      assert.equal(tried.body.code, 'phone_code_wrong');
    }
    const spent = await t.http.post('/api/v1/auth/phone/verify').send({ phone_number: phone, code: right, challenge });
    assert.equal(spent.status, 429);
    assert.equal(spent.body.code, 'phone_code_tries');
    // A new code once the wait has passed (a spent code does not skip it: spending one is no way to a flood).
    assert.equal((await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone })).status, 429);
    now = new Date(now.getTime() + 31_000);
    await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone }).expect(200);
  });

  it('no event holds a code: only its keyed hash', async () => {
    const phone = newNumber();
    await t.http.post('/api/v1/auth/phone/start').send({ phone_number: phone }).expect(200);
    const code = codeIn(outbox(phone)[0]!.text)!;
    const all = await t.app.eventStore.readAll({ fromPosition: 0, limit: 100_000 });
    for (const event of all) assert.ok(!JSON.stringify(event.data).includes(code) || event.type !== 'PhoneSignInCodeIssued', 'a code in the log');
    assert.ok(!all.some((event) => JSON.stringify(event.data).includes(phone)), 'a number in clear in the log');
  });

  it('a booking tells the doctor, the approval tells the patient in their language, and reminders follow the consultation; no health data in any', async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Kavya Rao' });
    const patient = await spec.given.patient({ name: 'Ravi Kumar' });
    await t.http.put('/api/v1/users/me').set(patient.auth).send({ language: 'hi' }).expect(200);
    const doctorEmail = (await t.http.get('/api/v1/users/me').set(doctor.auth)).body.email as string;
    const patientEmail = (await t.http.get('/api/v1/users/me').set(patient.auth)).body.email as string;
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, notes: 'chest pain since Tuesday' });
    await untilSent(() => outbox(doctorEmail).some((m) => m.kind === 'appointment_requested'), 'the doctor was told of the request');
    const request = outbox(doctorEmail).find((m) => m.kind === 'appointment_requested')!;
    assert.ok(request.text.includes('/doctor-home'));
    assert.ok(!request.text.includes('chest'), 'no reason in a message');
    assert.ok(!request.text.includes('Ravi'), "no patient's name to the doctor's phone");

    await t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth).expect(200);
    await untilSent(() => outbox(patientEmail).some((m) => m.kind === 'appointment_approved'), 'the patient was told of the approval');
    const approved = outbox(patientEmail).find((m) => m.kind === 'appointment_approved')!;
    assert.equal(approved.language, 'hi');
    assert.ok(approved.text.includes('Dr. Kavya Rao'));
    assert.ok(!approved.text.includes('chest'));

    // The day-before reminder falls due: the clock moves to it and the dispatcher runs.
    await t.settle();
    now = new Date(slot.start.getTime() - 1440 * 60_000 + 1000);
    await t.app.runSweepsNow();
    await untilSent(() => outbox(patientEmail).some((m) => m.kind === 'appointment_reminder'), 'the reminder was sent');
    const reminder = outbox(patientEmail).find((m) => m.kind === 'appointment_reminder')!;
    assert.ok(reminder.text.includes(`/video-call?appointment_id=${appointment_id}`), reminder.text);
    now = middayInIndia();
  });

  it('in quiet hours a request waits for 09:00 in the doctor\'s zone; a reminder due within the hour does not', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const doctorEmail = (await t.http.get('/api/v1/users/me').set(doctor.auth)).body.email as string;
    const midday = middayInIndia();
    now = new Date(midday.getTime() - 8.5 * 3_600_000); // 03:30 in India
    const { appointment_id } = await spec.given.appointment({ doctor, patient });
    await t.settle();
    const messageId = (await import('@telemed/command')).messageIdFor(`${appointment_id}:appointment_requested:0`);
    await eventually(async () => assert.ok((await t.app.eventStore.readStream(streams.message(messageId))).some((e) => e.type === 'MessageDeferred')));
    const deferred = (await t.app.eventStore.readStream(streams.message(messageId))).find((e) => e.type === 'MessageDeferred')!;
    assert.equal((deferred.data as { due_at: string }).due_at, new Date(midday.getTime() - 3 * 3_600_000).toISOString(), 'deferred to 09:00 in India');
    assert.ok(!outbox(doctorEmail).some((m) => m.kind === 'appointment_requested'));
    now = new Date(midday.getTime() - 3 * 3_600_000 + 1000);
    await t.app.runSweepsNow();
    await untilSent(() => outbox(doctorEmail).some((m) => m.kind === 'appointment_requested'), 'sent at 09:00');
    now = middayInIndia();
  });

  it('a cancelled consultation sends no reminder', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const patientEmail = (await t.http.get('/api/v1/users/me').set(patient.auth)).body.email as string;
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, confirmed: true });
    const cancelled = await t.http.post(`/api/v1/appointments/${appointment_id}/cancel`).set(doctor.auth).send({ reason: 'called away' });
    assert.equal(cancelled.status, 200, cancelled.text);

    await untilSent(() => outbox(patientEmail).some((m) => m.kind === 'appointment_cancelled'), 'the patient was told of the cancellation');
    await t.settle();
    const reminders = (await t.app.eventStore.readStream(streams.message((await import('@telemed/command')).messageIdFor(`${appointment_id}:appointment_reminder:60`)))).map((e) => e.type);
    assert.deepEqual(reminders.slice(-1), ['MessageCancelled']);
    now = new Date(slot.start.getTime() - 60 * 60_000 + 1000);
    await t.app.runSweepsNow();
    await t.settle();
    assert.ok(!outbox(patientEmail).some((m) => m.kind === 'appointment_reminder'));
    now = middayInIndia();
  });

  it("a clinic's admin reads the message log of its doctor's appointment (recipient masked, no text), on the patient's access log; nobody else without the console's right", async () => {
    const { clinicAdmin, doctor } = await givenClinicOfTwo(spec, LOTUS_CLINIC);
    const patient = await spec.given.patient();
    const { appointment_id } = await spec.given.appointment({ doctor, patient, notes: 'fever' });
    await t.settle();
    const filter = JSON.stringify({ appointment_id });
    // Sent by the dispatcher a moment after it was queued (outside the log's process managers a settle waits for).
    const read = await eventually(async () => {
      const answer = await spec.read((http) => http.get('/api/v1/admin/messages').query({ filter }).set(clinicAdmin.auth));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body[0]?.status, 'sent');
      return answer;
    }, 10_000);
    assert.deepEqual(read.body.map((m: { kind: string }) => m.kind), ['appointment_requested']);
    assert.match(read.body[0].to_masked, /^a•••@/);
    assert.equal(Object.hasOwn(read.body[0], 'text'), false);
    const log = await spec.read((http) => http.get('/api/v1/users/me/access-log').set(patient.auth));
    assert.equal(log.status, 200, log.text);
    assert.ok(JSON.stringify(log.body).includes('appointment_history'), JSON.stringify(log.body).slice(0, 300));

    const stranger = await spec.given.patient();
    assert.equal((await t.http.get('/api/v1/admin/messages').query({ filter }).set(stranger.auth)).status, 403);
    assert.equal((await t.http.get('/api/v1/admin/messages').set(clinicAdmin.auth)).status, 403, 'the whole log is the operators\'');
  });

  it('a patient waiting in the lobby is told to the doctor, not when the doctor is already in the call', async () => {
    const doctor = await spec.given.doctor();
    const doctorEmail = (await t.http.get('/api/v1/users/me').set(doctor.auth)).body.email as string;
    const [first, second] = [await spec.given.patient(), await spec.given.patient()];
    const waiting = await spec.given.appointment({ doctor, patient: first, at: { days: 2, time: '11:00' }, confirmed: true });
    const together = await spec.given.appointment({ doctor, patient: second, at: { days: 2, time: '11:30' }, confirmed: true });
    now = new Date(waiting.slot.start.getTime() - 5 * 60_000);
    await t.http.post(`/api/v1/consultations/${waiting.appointment_id}/join`).set(first.auth).expect(200);
    await untilSent(() => outbox(doctorEmail).some((m) => m.kind === 'patient_waiting' && m.text.includes(waiting.appointment_id)), 'the doctor was told');

    now = new Date(together.slot.start.getTime() - 5 * 60_000);
    await t.http.post(`/api/v1/consultations/${together.appointment_id}/join`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${together.appointment_id}/join`).set(second.auth).expect(200);
    await t.settle();
    assert.ok(!outbox(doctorEmail).some((m) => m.kind === 'patient_waiting' && m.text.includes(together.appointment_id)));
    now = middayInIndia();
  });
});
