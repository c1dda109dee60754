import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MESSAGE_CHANNELS, ERASED_VALUE, PHONE_SIGN_IN, streams } from '@telemed/contracts';
import { createLogger, privateDigest } from '@telemed/platform';
import { messageIdFor } from '@telemed/command';
import { providerServer, type RecordedRequest } from '../../../platform/src/messaging/messaging.test-support';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventually } from '../support/eventually';
import { logLines } from '../support/log-lines';
import { givenClinicOfTwo, givenInstitution, LOTUS_CLINIC } from '../support/given-institution';

/**
 * Attacks on messages outside the browser and sign-in by phone (issue 34), through the real HTTP API: guessing codes,
 * flooding a number with them, taking over an account by its number, telling who has an account, forging provider
 * callbacks, reading the message log or the outbox without the right, and what the log, the logs and the messages hold.
 * Each case asserts a defence that holds; the weaknesses found are in the report of the review that wrote this file.
 */

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/**
 * A client connecting from its own address: the whole of 127.0.0.0/8 is this machine's, so each 127.x.y.z is a
 * different client address as the server sees its connection, with no forwarded header to trust (TRUST_PROXY off).
 */
function clientAt(port: number, address: string, headers: Record<string, string> = {}) {
  const send = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const data = body === undefined ? '' : JSON.stringify(body);
      const content = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) };
      const sent = request(
        { host: '127.0.0.1', port, localAddress: address, path, method, agent: false, headers: { ...content, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const parsed: unknown = text ? JSON.parse(text) : {};
            resolve({ status: res.statusCode ?? 0, body: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed } : { items: parsed }, headers: res.headers });
          });
        },
      );
      sent.on('error', reject);
      sent.end(data);
    });
  return { post: (path: string, body: unknown) => send('POST', path, body), get: (path: string) => send('GET', path) };
}

let nextAddress = 0;
/** A loopback address no other case has used (127.0.1.1, 127.0.1.2, ...). */
const newAddress = () => {
  nextAddress += 1;
  return `127.0.${1 + Math.floor(nextAddress / 250)}.${1 + (nextAddress % 250)}`;
};

let nextNumber = 0;
/** An Indian mobile number no other case has used, in E.164. */
const newNumber = () => `+9198${String(71_000_000 + (nextNumber += 1))}`;

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** Midday in India (outside quiet hours): today, or tomorrow once that has passed. */
function middayInIndia(): Date {
  const midday = new Date();
  midday.setUTCHours(6, 30, 0, 0);
  return midday.getTime() < Date.now() - 6 * 3_600_000 ? new Date(midday.getTime() + 86_400_000) : midday;
}

const codeStream = async (t: TestApp, e164: string) => streams.phoneCode((await privateDigest(t.app.eventStore, 'phone code', e164))!);
const claimStream = async (t: TestApp, e164: string) => streams.phone((await privateDigest(t.app.eventStore, 'phone claim', e164))!);
const bearer = (answer: { body: Record<string, unknown> }) => ({ Authorization: `Bearer ${String(answer.body.access_token)}` });

describe('sign-in by phone under attack (development outbox, TRUST_PROXY off)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let port: number;
  let now = middayInIndia();
  const clock = () => now;
  const logs = logLines();

  before(async () => {
    t = await startTestApp({ clock, logger: createLogger({ level: 'debug', destination: logs.destination }), env: { REMINDER_OFFSETS_MINUTES: '1440' } });
    spec = apiSpec(t);
    port = await t.app.listen(0, '127.0.0.1');
  });
  after(() => t.close());

  const outbox = (recipient: string) => t.app.outbox!.list({ recipient, limit: 100 });
  const latestCode = (e164: string) => {
    const sent = outbox(e164).find((entry) => entry.kind === 'sign_in_code');
    assert.ok(sent, `a code was sent to ${e164}`);
    return codeIn(sent.text)!;
  };
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  const codeSentTo = async (e164: string, from = newAddress()) => {
    const started = await clientAt(port, from).post('/api/v1/auth/phone/start', { phone_number: e164 });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    return latestCode(e164);
  };
  /** An account (of this kind) whose verified number is `e164`, proved with the code the outbox received. */
  const holderOf = async (e164: string, kind: 'patient' | 'doctor' | 'admin' = 'patient'): Promise<TestUser> => {
    const holder = await t.createUser(kind);
    await t.http.post('/api/v1/users/me/phone/start').set(holder.auth).send({ phone_number: e164 }).expect(200);
    await t.http.post('/api/v1/users/me/phone/verify').set(holder.auth).send({ phone_number: e164, code: latestCode(e164) }).expect(200);
    return holder;
  };

  describe('guessing a code', () => {
    it('one address gets five wrong tries at a code, then not even the right one counts from there; the owner, from their own address, still signs in', async () => {
      const phone = newNumber();
      const owner = clientAt(port, newAddress());
      const attacker = clientAt(port, newAddress());
      await owner.post('/api/v1/auth/phone/start', { phone_number: phone });
      const code = latestCode(phone);
      for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) {
        const tried = await attacker.post('/api/v1/auth/phone/verify', { phone_number: phone, code: wrongFor(code) });
        assert.deepEqual([tried.status, tried.body.code], [401, 'phone_code_wrong']);
      }
      const spent = await attacker.post('/api/v1/auth/phone/verify', { phone_number: phone, code });
      assert.deepEqual([spent.status, spent.body.code], [429, 'phone_code_tries'], 'the right code from an address whose tries are spent');
      const signedIn = await owner.post('/api/v1/auth/phone/verify', { phone_number: phone, code });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    });

    it('thirty wrong tries at once from one address: five are weighed and recorded, no more', async () => {
      const phone = newNumber();
      const code = await codeSentTo(phone);
      const attacker = clientAt(port, newAddress());
      const answers = await Promise.all(Array.from({ length: 30 }, () => attacker.post('/api/v1/auth/phone/verify', { phone_number: phone, code: wrongFor(code) })));
      const weighed = answers.filter((a) => a.body.code === 'phone_code_wrong').length;
      assert.equal(weighed, PHONE_SIGN_IN.triesPerAddress, JSON.stringify(answers.map((a) => a.body.code)));
      for (const answer of answers) assert.ok(answer.status === 401 || answer.status === 429 || answer.status === 409, `no other answer: ${answer.status}`);
      const tried = (await t.app.eventStore.readStream(await codeStream(t, phone))).filter((e) => e.type === 'PhoneSignInCodeTried');
      assert.equal(tried.length, PHONE_SIGN_IN.triesPerAddress, 'tries recorded');
      assert.equal((await attacker.post('/api/v1/auth/phone/verify', { phone_number: phone, code })).status, 429);
    });

    it('however many addresses guess, no more than 25 wrong tries are weighed against one code, and then the right code signs nobody in from a new address', async () => {
      const phone = newNumber();
      const code = await codeSentTo(phone);
      const answers: Answer[] = [];
      for (let a = 0; a < 6; a++) {
        const guesser = clientAt(port, newAddress());
        for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) answers.push(await guesser.post('/api/v1/auth/phone/verify', { phone_number: phone, code: wrongFor(code) }));
      }
      assert.ok(answers.filter((a) => a.body.code === 'phone_code_wrong').length <= PHONE_SIGN_IN.maxTriesAllAddresses, 'guesses weighed');
      const late = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: phone, code });
      assert.notEqual(late.status, 200);
    });

    it('the right code sent ten times at once signs in once, as one account', async () => {
      const phone = newNumber();
      const code = await codeSentTo(phone);
      const client = clientAt(port, newAddress());
      const answers = await Promise.all(Array.from({ length: 10 }, () => client.post('/api/v1/auth/phone/verify', { phone_number: phone, code })));
      assert.equal(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers.map((a) => a.status)));
      for (const answer of answers) if (answer.status !== 200) assert.ok(answer.status === 401 || answer.status === 409, `${answer.status}`);
      await t.settle();
      const claimed = (await t.app.eventStore.readStream(await claimStream(t, phone))).filter((e) => e.type === 'PhoneClaimed');
      assert.equal(claimed.length, 1, 'one account holds the number');
    });

    it("a code is its own number's only, and ends after five minutes", async () => {
      const phone = newNumber();
      const other = newNumber();
      const code = await codeSentTo(phone);
      await codeSentTo(other);
      const client = clientAt(port, newAddress());
      const elsewhere = await client.post('/api/v1/auth/phone/verify', { phone_number: other, code: code === latestCode(other) ? wrongFor(code) : code });
      assert.equal(elsewhere.status, 401);
      now = new Date(now.getTime() + PHONE_SIGN_IN.codeTtlSeconds * 1000 + 1000);
      const late = await client.post('/api/v1/auth/phone/verify', { phone_number: phone, code });
      assert.deepEqual([late.status, late.body.code], [401, 'phone_code_expired']);
    });

    it('a new code waits 30 s whoever asks, and replaces the last: the replaced one signs nobody in', async () => {
      const phone = newNumber();
      const first = await codeSentTo(phone);
      const soon = await clientAt(port, newAddress()).post('/api/v1/auth/phone/start', { phone_number: phone });
      assert.deepEqual([soon.status, soon.body.code], [429, 'phone_resend_wait']);
      const wait = Number(soon.headers['retry-after']);
      assert.ok(wait > 0 && wait <= PHONE_SIGN_IN.resendAfterSeconds, `Retry-After ${wait}`);
      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const second = await codeSentTo(phone);
      const client = clientAt(port, newAddress());
      if (second !== first) assert.equal((await client.post('/api/v1/auth/phone/verify', { phone_number: phone, code: first })).status, 401, 'the replaced code');
      assert.equal((await client.post('/api/v1/auth/phone/verify', { phone_number: phone, code: second })).status, 200);
    });
  });

  describe('making the server send codes', () => {
    it('X-Forwarded-For does not give a client new addresses: twenty codes an hour from one connection address, whatever the header says', async () => {
      const from = newAddress();
      const numbers = Array.from({ length: PHONE_SIGN_IN.codesPerAddressPerHour + 1 }, newNumber);
      const statuses: number[] = [];
      for (const [i, phone] of numbers.entries()) {
        const answer = await clientAt(port, from, { 'X-Forwarded-For': `203.0.113.${i + 1}` }).post('/api/v1/auth/phone/start', { phone_number: phone });
        statuses.push(answer.status);
        if (answer.status === 429) {
          assert.equal(answer.body.code, 'phone_rate_limited');
          assert.ok(Number(answer.headers['retry-after']) > 0);
        }
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerAddressPerHour).fill(200), 429]);
      assert.equal(outbox(numbers.at(-1)!).length, 0, 'the refused one was sent nothing');
      assert.equal((await clientAt(port, newAddress()).post('/api/v1/auth/phone/start', { phone_number: newNumber() })).status, 200, 'another address has its own budget');
    });

    it('one address has a number sent five codes an hour, even spending each at once to skip the wait; an hour on, again', async () => {
      const phone = newNumber();
      const client = clientAt(port, newAddress());
      const statuses: number[] = [];
      for (let i = 0; i <= PHONE_SIGN_IN.codesPerNumberAndAddressPerHour; i++) {
        const started = await client.post('/api/v1/auth/phone/start', { phone_number: phone });
        statuses.push(started.status);
        if (started.status !== 200) {
          assert.equal(started.body.code, 'phone_rate_limited');
          break;
        }
        for (let k = 0; k < PHONE_SIGN_IN.triesPerAddress; k++) await client.post('/api/v1/auth/phone/verify', { phone_number: phone, code: wrongFor(latestCode(phone)) });
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerNumberAndAddressPerHour).fill(200), 429]);
      assert.equal(outbox(phone).length, PHONE_SIGN_IN.codesPerNumberAndAddressPerHour);
      now = new Date(now.getTime() + 3_600_000 + 1000);
      assert.equal((await client.post('/api/v1/auth/phone/start', { phone_number: phone })).status, 200);
    });

    it('a landline, a short number or junk is refused and sent nothing', async () => {
      const client = clientAt(port, newAddress());
      const before = t.app.outbox!.list({ limit: 10_000 }).length;
      for (const input of ['+91 22 2345 6789', '12345', 'call me maybe', '+91 98765 4321 0000 1']) {
        const answer = await client.post('/api/v1/auth/phone/start', { phone_number: input });
        assert.deepEqual([answer.status, answer.body.code], [422, 'phone_invalid'], input);
      }
      assert.equal(t.app.outbox!.list({ limit: 10_000 }).length, before);
    });
  });

  describe('taking over an account by its number', () => {
    it("a number a clinic typed into a staff record signs in to a new patient account, never to the staff member's", async () => {
      const typed = newNumber();
      const clinic = await givenInstitution(spec, {
        name: 'Neem Clinic',
        address: '12 MG Road',
        phone: '+91 80 4000 1234',
        email: 'contact@neem.in',
        staff: [{ name: 'Dr. Neha Joshi', email: 'neha@neem.in', phone: typed, account_type: 'DOCTOR' }],
      });
      const doctor = await clinic.member('neha@neem.in', 'doctor');
      const code = await codeSentTo(typed);
      const signedIn = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: typed, code });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      const user = signedIn.body.user as { user_id: string; account_type: string };
      assert.notEqual(user.user_id, doctor.user_id);
      assert.equal(user.account_type, 'patient');
      const me = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(signedIn)));
      assert.equal(me.body.email, null, "nothing of the doctor's account");
      assert.equal((await spec.read((http) => http.get('/api/v1/users/me').set(doctor.auth))).body.account_type, 'doctor');
    });

    it("another account cannot take a held number, even with a code for it; the holder still signs in", async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const other = await t.createUser('patient');
      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const code = await codeSentTo(phone);
      const taken = await t.http.post('/api/v1/users/me/phone/verify').set(other.auth).send({ phone_number: phone, code });
      assert.deepEqual([taken.status, taken.body.code], [409, 'phone_taken']);
      assert.equal((await spec.read((http) => http.get('/api/v1/users/me/messaging').set(other.auth))).body.verified_phone, null);
      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const signedIn = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: phone, code: await codeSentTo(phone) });
      assert.equal((signedIn.body.user as { user_id: string }).user_id, holder.user_id);
    });

    it("an erasure frees the number: its next holder is a new patient who sees nothing of the erased one's, and the claim no longer names them", async () => {
      const phone = newNumber();
      const erased = await holderOf(phone);
      await t.http.put('/api/v1/users/me/messaging').set(erased.auth).send({ channels: { email: false, sms: true, whatsapp: false }, time_zone: 'Asia/Dubai' }).expect(200);
      await t.http.post('/api/v1/users/me/erasure').set(erased.auth).expect(200);
      const claims = (await t.app.eventStore.readStream(await claimStream(t, phone))).map((e) => e.data as { user_id: string; phone_number: string });
      assert.deepEqual(claims.map((c) => [c.user_id, c.phone_number]), [[ERASED_VALUE, ERASED_VALUE]]);

      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const signedIn = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: phone, code: await codeSentTo(phone) });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      const user = signedIn.body.user as { user_id: string; account_type: string };
      assert.notEqual(user.user_id, erased.user_id);
      assert.equal(user.account_type, 'patient');
      const preferences = await spec.read((http) => http.get('/api/v1/users/me/messaging').set(bearer(signedIn)));
      assert.equal(preferences.status, 200, preferences.text);
      assert.deepEqual(preferences.body.channels, DEFAULT_MESSAGE_CHANNELS);
      assert.equal(preferences.body.time_zone, null);
      assert.equal(preferences.body.verified_phone, phone);
      const me = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(signedIn)));
      assert.deepEqual([me.status, me.body.name, me.body.email], [200, phone, null]);
    });

    it('a deactivated holder is not signed in by their number, and no new account takes it', async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const operator = await t.createUser('admin');
      await t.http.delete(`/api/v1/admin/users/${holder.user_id}`).set(operator.auth).expect(200);
      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const refused = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: phone, code: await codeSentTo(phone) });
      assert.deepEqual([refused.status, refused.body.code], [403, 'account_disabled']);
      const claims = (await t.app.eventStore.readStream(await claimStream(t, phone))).map((e) => (e.data as { user_id: string }).user_id);
      assert.deepEqual(claims, [holder.user_id]);
    });
  });

  describe('telling who has an account', () => {
    it("/auth/phone/start answers a held number and a free one alike (status, fields, headers); so does a wrong code", async () => {
      const held = newNumber();
      await holderOf(held);
      const free = newNumber();
      now = new Date(now.getTime() + PHONE_SIGN_IN.resendAfterSeconds * 1000 + 1000);
      const [a, b] = [await clientAt(port, newAddress()).post('/api/v1/auth/phone/start', { phone_number: held }), await clientAt(port, newAddress()).post('/api/v1/auth/phone/start', { phone_number: free })];
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.deepEqual({ ...a.body, phone_number: null }, { ...b.body, phone_number: null });
      const varying = new Set(['date', 'etag', 'x-correlation-id', 'content-length']);
      const shape = (answer: Answer) => Object.entries(answer.headers).filter(([name]) => !varying.has(name)).sort(([x], [y]) => x.localeCompare(y));
      assert.deepEqual(shape(a), shape(b));
      assert.equal(a.headers['cache-control'], 'no-store');

      const wrongHeld = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: held, code: wrongFor(latestCode(held)) });
      const wrongFree = await clientAt(port, newAddress()).post('/api/v1/auth/phone/verify', { phone_number: free, code: wrongFor(latestCode(free)) });
      assert.deepEqual([wrongHeld.status, wrongHeld.body], [wrongFree.status, wrongFree.body]);
    });
  });

  describe('the message log and resend', () => {
    it("another clinic's members, patients and doctors read nothing of an appointment's messages and resend nothing; what an operator reads names no address and holds no text", async () => {
      const lotus = await givenClinicOfTwo(spec, LOTUS_CLINIC);
      const other = await givenClinicOfTwo(spec, { name: 'Tulsi Clinic', address: '9 Lake Road', phone: '+91 33 4000 9876', domain: 'tulsi.in' });
      const patient = await spec.given.patient();
      const { appointment_id } = await spec.given.appointment({ doctor: lotus.doctor, patient });
      await eventually(async () => assert.ok(t.app.outbox!.list({ limit: 10_000 }).some((m) => m.kind === 'appointment_requested')), 15_000);
      await t.settle();
      const filter = JSON.stringify({ appointment_id });
      for (const [who, user] of Object.entries({ otherClinicAdmin: other.clinicAdmin, otherClinicDoctor: other.doctor, patient })) {
        const read = await t.http.get('/api/v1/admin/messages').query({ filter }).set(user.auth);
        assert.deepEqual([read.status, read.body.code], [403, 'forbidden_role'], who);
        assert.equal((await t.http.get('/api/v1/admin/messages').set(user.auth)).status, 403, `${who}: the whole log`);
      }
      const operator = await t.createUser('admin');
      const all = await spec.read((http) => http.get('/api/v1/admin/messages').query({ range: JSON.stringify([0, 99]) }).set(operator.auth));
      assert.equal(all.status, 200, all.text);
      const messageId = (all.body as Array<{ id: string }>)[0]!.id;
      for (const [who, user] of Object.entries({ clinicAdmin: lotus.clinicAdmin, doctor: lotus.doctor, otherClinicAdmin: other.clinicAdmin, patient })) {
        const resent = await t.http.post(`/api/v1/admin/messages/${messageId}/resend`).set(user.auth);
        assert.deepEqual([resent.status, resent.body.code], [403, 'forbidden_role'], who);
      }
      const text = all.text;
      for (const entry of t.app.outbox!.list({ limit: 10_000 })) {
        assert.ok(!text.includes(entry.to), `the log names ${entry.kind}'s recipient in full`);
        assert.ok(!text.includes(entry.text), 'the log holds a text');
        const code = entry.kind === 'sign_in_code' ? codeIn(entry.text) : undefined;
        if (code) assert.ok(!new RegExp(`(?<![0-9a-f])${code}(?![0-9a-f])`).test(text), 'the log holds a code');
      }
      for (const entry of all.body as Array<Record<string, unknown>>) assert.equal(Object.hasOwn(entry, 'text'), false);
      assert.equal((await t.http.post('/api/v1/admin/messages/not-a-message/resend').set(operator.auth)).status, 404);
    });
  });

  describe('what messages, the log and the logs hold', () => {
    it("no message holds a booking's reason, a cancellation's or a rejection's, or the patient's name", async () => {
      const doctor = await spec.given.doctor({ name: 'Dr. Kavya Rao' });
      const patient = await spec.given.patient({ name: 'Meera Quokkaswamy' });
      const patientPhone = newNumber();
      await t.http.post('/api/v1/users/me/phone/start').set(patient.auth).send({ phone_number: patientPhone }).expect(200);
      await t.http.post('/api/v1/users/me/phone/verify').set(patient.auth).send({ phone_number: patientPhone, code: latestCode(patientPhone) }).expect(200);
      await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: true, sms: true, whatsapp: true } }).expect(200);
      const approved = await spec.given.appointment({ doctor, patient, notes: 'Zebrastripe rash on the elbow since Tuesday', confirmed: true });
      const rejected = await spec.given.appointment({ doctor, patient, notes: 'Zebrastripe rash again' });
      await t.http.post(`/api/v1/appointments/${rejected.appointment_id}/reject`).set(doctor.auth).send({ reason: 'Yakbutter allergy needs a specialist' }).expect(200);
      const cancelled = await spec.given.appointment({ doctor, patient, notes: 'Zebrastripe follow-up' });
      await t.http.post(`/api/v1/appointments/${cancelled.appointment_id}/cancel`).set(patient.auth).send({ reason: 'Narwhal fever got worse' }).expect(200);
      await t.settle();
      const midday = now;
      now = new Date(approved.slot.start.getTime() - 1440 * 60_000 + 1000);
      await t.app.runSweepsNow();
      const kinds = () => new Set<string>(t.app.outbox!.list({ limit: 10_000 }).map((m) => m.kind));
      await eventually(async () => {
        for (const kind of ['appointment_requested', 'appointment_approved', 'appointment_rejected', 'appointment_cancelled', 'appointment_reminder']) assert.ok(kinds().has(kind), kind);
      }, 15_000);
      now = midday;
      for (const message of t.app.outbox!.list({ limit: 10_000 })) {
        for (const secret of ['Zebrastripe', 'rash', 'Yakbutter', 'allergy', 'Narwhal', 'fever', 'Quokkaswamy', 'Meera']) {
          assert.ok(!`${message.subject} ${message.text}`.includes(secret), `${message.kind} (${message.channel}) says ${secret}: ${message.text}`);
        }
      }
    });

    it('the stored log holds no code, number, e-mail address or message text in clear, and the debug logs none of them either', async () => {
      await t.settle();
      const sent = t.app.outbox!.list({ limit: 10_000 });
      assert.ok(sent.length > 20, 'the cases before sent messages');
      const addresses = new Set(sent.map((m) => m.to));
      const numbers = [...addresses].filter((to) => to.startsWith('+91'));
      const needles = [
        ...[...addresses].filter((to) => to.includes('@')),
        ...numbers,
        ...numbers.map((n) => n.slice(3)),
        ...sent.map((m) => m.text),
        'Zebrastripe',
        'Yakbutter',
        'Narwhal',
      ];
      const codes = sent.filter((m) => m.kind === 'sign_in_code').map((m) => codeIn(m.text)!);
      assert.ok(codes.length > 0);
      const codePattern = new RegExp(`(?<![0-9a-fA-F])(?:${codes.join('|')})(?![0-9a-fA-F])`);

      // The same search over the log as the deciders read it (decrypted) finds the numbers: the search is not blind.
      const decrypted = JSON.stringify((await t.app.eventStore.readAll({ fromPosition: 0, limit: 1_000_000 })).map((e) => e.data));
      assert.ok(numbers.some((n) => decrypted.includes(n)), 'a verified number in the decrypted log');
      const stored = await t.app.eventStore.log.readAll({ fromPosition: 0, limit: 1_000_000 });
      for (const event of stored) {
        const text = JSON.stringify({ data: event.data, metadata: event.metadata });
        for (const needle of needles) assert.ok(!text.includes(needle), `${event.type} holds ${needle.slice(0, 40)} in clear`);
        if (event.type === 'PhoneSignInCodeIssued' || event.type.startsWith('Message')) assert.doesNotMatch(text, codePattern, `${event.type} holds a code`);
      }
      const logged = logs.lines.join('');
      assert.ok(logs.lines.length > 50, 'the requests were logged');
      for (const needle of needles) assert.ok(!logged.includes(needle), `a log line holds ${needle.slice(0, 40)}`);
      assert.doesNotMatch(logged, codePattern, 'a log line holds a code');
    });
  });

  it('without WhatsApp or SMS configured, their callbacks are not found and record nothing', async () => {
    const sms = await t.http.post('/api/v1/messaging/sms/status?message=m1&token=t').type('form').send({ SmsSid: 'SM1', Status: 'delivered' });
    assert.equal(sms.status, 404);
    const check = await t.http.get('/api/v1/messaging/whatsapp/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': '', 'hub.challenge': '1' });
    assert.equal(check.status, 404);
    const webhook = await t.http.post('/api/v1/messaging/whatsapp/webhook').send({ entry: [] });
    assert.equal(webhook.status, 404);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback): an IPv6 client is its /64', () => {
  it('twenty codes an hour from one /64, however many of its addresses ask; another /64 has its own', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= PHONE_SIGN_IN.codesPerAddressPerHour + 1; i++) {
        statuses.push((await t.http.post('/api/v1/auth/phone/start').set('X-Forwarded-For', `2001:db8:7:7::${i.toString(16)}`).send({ phone_number: newNumber() })).status);
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerAddressPerHour).fill(200), 429]);
      await t.http.post('/api/v1/auth/phone/start').set('X-Forwarded-For', '2001:db8:7:8::1').send({ phone_number: newNumber() }).expect(200);
    } finally {
      await t.close();
    }
  });
});

const APP_SECRET = 'whatsapp-app-secret-for-attacks';
const CALLBACK_SECRET = 'callback-secret-for-attacks-only';
/** A number both providers refuse (as a deactivated SIM is): every send to it fails for good. */
const UNREACHABLE = '+919811100000';

describe('provider callbacks, resend and failures (fake SMS and WhatsApp providers)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let exotel: Awaited<ReturnType<typeof providerServer>>;
  let whatsapp: Awaited<ReturnType<typeof providerServer>>;
  const logs = logLines();
  let sms = 0;
  let wa = 0;
  const now = middayInIndia();

  before(async () => {
    exotel = await providerServer((r) =>
      r.body.includes(UNREACHABLE.slice(1)) ? { status: 400, body: { RestException: { Code: 21211, Message: `Invalid To number ${UNREACHABLE} for this account` } } } : { status: 200, body: { SMSMessage: { Sid: `SM${(sms += 1)}`, Status: 'queued' } } },
    );
    whatsapp = await providerServer((r) =>
      r.body.includes(UNREACHABLE.slice(1))
        ? { status: 400, body: { error: { code: 131026, message: `Recipient ${UNREACHABLE.slice(1)} cannot be reached` } } }
        : { status: 200, body: { messaging_product: 'whatsapp', contacts: [], messages: [{ id: `wamid.${(wa += 1)}` }] } },
    );
    t = await startTestApp({
      clock: () => now,
      logger: createLogger({ level: 'debug', destination: logs.destination }),
      env: {
        PUBLIC_URL: 'https://telemed.example.in',
        SMS_API_URL: `${exotel.origin}/v1/Accounts/telemed/Sms/send.json`,
        SMS_API_KEY: 'key:token',
        SMS_SENDER_ID: 'TLMEDC',
        SMS_TEMPLATE_IDS: JSON.stringify({ sign_in_code: '1107000000000000001', appointment_approved: '1107000000000000002' }),
        WHATSAPP_API_URL: whatsapp.origin,
        WHATSAPP_TOKEN: 'whatsapp-token',
        WHATSAPP_PHONE_NUMBER_ID: '1234567890',
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: 'verify-me-please',
        MESSAGING_CALLBACK_SECRET: CALLBACK_SECRET,
      },
    });
    spec = apiSpec(t);
  });
  after(async () => {
    await t.close();
    await Promise.all([exotel.close(), whatsapp.close()]);
  });

  const form = (r: RecordedRequest) => new URLSearchParams(r.body);
  const lastSmsTo = (phone: string) => [...exotel.requests].reverse().find((r) => form(r).get('To') === phone);
  const eventsOf = async (messageId: string) => (await t.app.eventStore.readStream(streams.message(messageId))).map((e) => e.type);
  const sentId = async (messageId: string) =>
    ((await t.app.eventStore.readStream(streams.message(messageId))).filter((e) => e.type === 'MessageSent').at(-1)!.data as { provider_message_id: string }).provider_message_id;
  const token = (messageId: string, secret = CALLBACK_SECRET) => createHmac('sha256', secret).update(`telemed sms status\n${messageId}`).digest('base64url');
  const statusAt = (messageId: string, tokenFor = messageId) => `/api/v1/messaging/sms/status?message=${encodeURIComponent(messageId)}&token=${token(tokenFor)}`;
  const signedRaw = (raw: string, secret = APP_SECRET) => ({ raw, signature: `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` });
  const signed = (body: unknown, secret = APP_SECRET) => signedRaw(JSON.stringify(body), secret);
  const webhook = (raw: string, signature: string | null, contentType = 'application/json') => {
    const sent = t.http.post('/api/v1/messaging/whatsapp/webhook').set('Content-Type', contentType);
    return (signature ? sent.set('X-Hub-Signature-256', signature) : sent).send(raw);
  };
  const envelope = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1234567890' }, ...value } }] }] });
  const failureOf = (wamid: string, messageId: string) => envelope({ statuses: [{ id: wamid, status: 'failed', timestamp: '1700000000', recipient_id: '919800000000', biz_opaque_callback_data: messageId, errors: [{ code: 131026, title: 'Message undeliverable' }] }] });
  const stopFrom = (phone: string) => envelope({ messages: [{ from: phone.slice(1), id: `wamid.in.${phone}`, timestamp: '1700000000', type: 'text', text: { body: 'STOP' } }] });

  /** A sign-in code sent by SMS to a new number, and its message id (what the provider is told to report on). */
  const smsCode = async () => {
    const phone = newNumber();
    await t.http.post('/api/v1/auth/phone/start').set('X-Forwarded-For', '198.51.100.1').send({ phone_number: phone }).expect(200);
    const request = lastSmsTo(phone)!;
    return { phone, messageId: form(request).get('CustomField')!, code: codeIn(form(request).get('Body')!)! };
  };

  /** A patient whose number is verified by its SMS code and who takes messages by WhatsApp first. */
  const patientOnWhatsApp = async () => {
    const phone = newNumber();
    const patient = await spec.given.patient();
    await t.http.post('/api/v1/users/me/phone/start').set(patient.auth).send({ phone_number: phone }).expect(200);
    const code = codeIn(form(lastSmsTo(phone)!).get('Body')!)!;
    await t.http.post('/api/v1/users/me/phone/verify').set(patient.auth).send({ phone_number: phone, code }).expect(200);
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: false, sms: true, whatsapp: true } }).expect(200);
    return { patient, phone };
  };

  it('an SMS report counts only at its own signed address and for the send it names; replays and mismatches change nothing', async () => {
    const one = await smsCode();
    const two = await smsCode();
    const sidOne = await sentId(one.messageId);
    const sidTwo = await sentId(two.messageId);
    const before = { one: await eventsOf(one.messageId), two: await eventsOf(two.messageId) };

    const forged = await t.http.post(`/api/v1/messaging/sms/status?message=${one.messageId}&token=${token(one.messageId, 'a guessed secret')}`).type('form').send({ SmsSid: sidOne, Status: 'failed' });
    assert.equal(forged.status, 401);
    const borrowed = await t.http.post(statusAt(two.messageId, one.messageId)).type('form').send({ SmsSid: sidTwo, Status: 'failed' });
    assert.equal(borrowed.status, 401, "one message's signed address used for another");
    const named = await t.http.post(statusAt(one.messageId)).type('form').send({ SmsSid: sidTwo, Status: 'failed', CustomField: two.messageId });
    assert.equal(named.status, 400, 'a report naming another message at this one\'s address');
    const otherSend = await t.http.post(statusAt(one.messageId)).type('form').send({ SmsSid: sidTwo, Status: 'failed' });
    assert.equal(otherSend.status, 200);
    assert.deepEqual({ one: await eventsOf(one.messageId), two: await eventsOf(two.messageId) }, before, 'nothing recorded for a send the message did not make');

    await t.http.post(statusAt(one.messageId)).type('form').send({ SmsSid: sidOne, Status: 'delivered' }).expect(200);
    const delivered = await eventsOf(one.messageId);
    assert.equal(delivered.at(-1), 'MessageDelivered');
    await t.http.post(statusAt(one.messageId)).type('form').send({ SmsSid: sidOne, Status: 'delivered' }).expect(200);
    await t.http.post(statusAt(one.messageId)).type('form').send({ SmsSid: sidOne, Status: 'failed', DetailedStatus: 'late and false' }).expect(200);
    assert.deepEqual(await eventsOf(one.messageId), delivered, 'a replay, and a failure after delivery, change nothing');
  });

  it('bad SMS callbacks get a 4xx, never a 5xx', async () => {
    const { messageId } = await smsCode();
    const at = statusAt(messageId);
    const answers = [
      await t.http.post(at).type('form').send(`SmsSid=${'a'.repeat(20_000)}&Status=delivered`),
      await t.http.post(at).send({ SmsSid: 'SM1', Status: 'delivered' }),
      await t.http.post(at).type('form').send(Buffer.from([0xff, 0xfe, 0x00, 0x25, 0x80])),
      await t.http.post(at).type('form').send('Status=delivered'),
      await t.http.post(`/api/v1/messaging/sms/status?message=${messageId}`).type('form').send('SmsSid=SM1&Status=delivered'),
      await t.http.post(`${at}&token=again`).type('form').send('SmsSid=SM1&Status=delivered'),
      await t.http.post(`/api/v1/messaging/sms/status?message=${'m'.repeat(65)}&token=x`).type('form').send('SmsSid=SM1&Status=delivered'),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [413, 400, 400, 400, 422, 422, 422],
    );
    for (const answer of answers) assert.equal(typeof answer.body.detail === 'string' || Array.isArray(answer.body.detail), true);
  });

  it("a WhatsApp report counts only when Meta's signature is right, and moves only the send it names; its replay changes nothing", async () => {
    const doctor = await spec.given.doctor();
    const first = await patientOnWhatsApp();
    const second = await patientOnWhatsApp();
    const approvedFor = async (patient: TestUser) => {
      const { appointment_id } = await spec.given.appointment({ doctor, patient });
      await t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth).expect(200);
      const messageId = messageIdFor(`${appointment_id}:appointment_approved:0`);
      await eventually(async () => assert.ok((await eventsOf(messageId)).includes('MessageSent')), 15_000);
      return { messageId, wamid: await sentId(messageId) };
    };
    const one = await approvedFor(first.patient);
    const two = await approvedFor(second.patient);
    const before = { one: await eventsOf(one.messageId), two: await eventsOf(two.messageId) };

    const crossed = signed(failureOf(two.wamid, one.messageId));
    await webhook(crossed.raw, crossed.signature).expect(200);
    const otherKey = signed(failureOf(one.wamid, one.messageId), 'not the app secret');
    assert.equal((await webhook(otherKey.raw, otherKey.signature)).status, 401);
    const genuine = signed(failureOf(one.wamid, one.messageId));
    assert.equal((await webhook(JSON.stringify(failureOf(one.wamid, two.messageId)), genuine.signature)).status, 401, "a signature over another body");
    assert.equal((await webhook(genuine.raw, null)).status, 401);
    assert.deepEqual({ one: await eventsOf(one.messageId), two: await eventsOf(two.messageId) }, before, 'nothing recorded');

    await webhook(genuine.raw, genuine.signature).expect(200);
    await eventually(async () => assert.equal((await eventsOf(one.messageId)).at(-1), 'MessageSent'), 15_000);
    const moved = await eventsOf(one.messageId);
    assert.deepEqual(moved.slice(before.one.length).filter((type) => type !== 'MessageAttemptStarted'), ['MessageFailed', 'MessageSent'], 'on to SMS');
    await webhook(genuine.raw, genuine.signature).expect(200);
    await t.settle();
    assert.deepEqual(await eventsOf(one.messageId), moved, 'the replay');
    assert.deepEqual(await eventsOf(two.messageId), before.two);
  });

  it("a STOP reply ends WhatsApp for its sender's account only, and only when signed", async () => {
    const first = await patientOnWhatsApp();
    const second = await patientOnWhatsApp();
    const channels = async (user: TestUser) => (await spec.read((http) => http.get('/api/v1/users/me/messaging').set(user.auth))).body.channels as Record<string, boolean>;

    const unsigned = JSON.stringify(stopFrom(first.phone));
    assert.equal((await webhook(unsigned, null)).status, 401);
    assert.equal((await webhook(unsigned, signed(stopFrom(first.phone), 'a guessed secret').signature)).status, 401);
    assert.equal((await channels(first.patient)).whatsapp, true);

    const stop = signed(stopFrom(second.phone));
    await webhook(stop.raw, stop.signature).expect(200);
    assert.equal((await channels(second.patient)).whatsapp, false);
    assert.deepEqual(await channels(first.patient), { email: false, sms: true, whatsapp: true }, 'the other account');

    const stranger = signed(stopFrom(newNumber()));
    await webhook(stranger.raw, stranger.signature).expect(200);
  });

  it('bad WhatsApp webhooks and subscription checks get a 4xx, never a 5xx; the checked challenge is plain text', async () => {
    const { signature } = signed({ entry: [] });
    const answers = [
      await webhook('{"entry": [', signature),
      await webhook('[1,2,3]', signed([1, 2, 3]).signature),
      await webhook('hello', signature, 'text/plain'),
      await webhook(JSON.stringify({ padding: 'x'.repeat(1_100_000) }), signature),
      await webhook(JSON.stringify({ entry: [] }), `sha256=${'é'.repeat(64)}`),
      await webhook(JSON.stringify({ entry: [] }), 'sha256='),
    ];
    assert.deepEqual(answers.map((a) => a.status), [400, 422, 415, 413, 401, 401]);
    const polluting = signedRaw('{"entry":"not a list","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    const pollutingAnswer = await webhook(polluting.raw, polluting.signature);
    assert.ok(pollutingAnswer.status < 500, `${pollutingAnswer.status}`);
    const oddButSigned = signed(envelope({ statuses: [{ id: 'wamid.x', status: 'delivered', biz_opaque_callback_data: '__proto__' }, 'junk', null], messages: [{ from: 'not digits', type: 'text', text: { body: 'STOP' } }] }));
    await webhook(oddButSigned.raw, oddButSigned.signature).expect(200);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);

    const check = (verifyToken: string, challenge = '1158201444') => t.http.get('/api/v1/messaging/whatsapp/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': verifyToken, 'hub.challenge': challenge });
    assert.equal((await check('verify-me-pleasE')).status, 403);
    assert.equal((await check('')).status, 403);
    assert.equal((await t.http.get('/api/v1/messaging/whatsapp/webhook')).status, 422);
    const reflected = await check('verify-me-please', '<script>alert(1)</script>');
    assert.equal(reflected.status, 200);
    assert.match(String(reflected.headers['content-type']), /^text\/plain/);
    assert.equal(reflected.headers['x-content-type-options'], 'nosniff');
  });

  it("an operator's resend of a failed sign-in code sends no code again; a failed send's error, the log's answer and the logs name no number", async () => {
    const started = await t.http.post('/api/v1/auth/phone/start').set('X-Forwarded-For', '198.51.100.2').send({ phone_number: UNREACHABLE });
    assert.deepEqual([started.status, started.body.code], [503, 'messaging_unavailable']);
    const operator = await t.createUser('admin');
    const read = await spec.read((http) => http.get('/api/v1/admin/messages').query({ filter: JSON.stringify({ kind: 'sign_in_code', status: 'failed' }) }).set(operator.auth));
    assert.equal(read.status, 200, read.text);
    const failed = (read.body as Array<{ id: string; last_error: string | null }>)[0]!;
    assert.match(String(failed.last_error), /<number>/);
    assert.ok(!read.text.includes(UNREACHABLE.slice(3)), 'the number in the log');

    const patient = await spec.given.patient();
    assert.equal((await t.http.post(`/api/v1/admin/messages/${failed.id}/resend`).set(patient.auth)).status, 403);
    const sends = exotel.requests.length + whatsapp.requests.length;
    const resent = await t.http.post(`/api/v1/admin/messages/${failed.id}/resend`).set(operator.auth);
    assert.deepEqual(resent.body, { id: failed.id, status: 'queued' });
    await eventually(async () => assert.equal((await eventsOf(failed.id)).at(-1), 'MessageCancelled'), 15_000);
    await t.settle();
    assert.equal(exotel.requests.length + whatsapp.requests.length, sends, 'nothing sent again');
    assert.equal((await t.http.post(`/api/v1/admin/messages/${failed.id}/resend`).set(operator.auth)).status, 409);

    const logged = logs.lines.join('');
    assert.ok(logged.includes('message send failed'), 'the failures were logged');
    for (const needle of [UNREACHABLE, UNREACHABLE.slice(1), UNREACHABLE.slice(3)]) assert.ok(!logged.includes(needle), `a log line holds ${needle}`);
  });
});

describe('the development outbox', () => {
  it('answers only a connection from this machine: a client elsewhere is told it does not exist', async () => {
    const t = await startTestApp();
    // The app behind a server whose connections present another machine's address, as a client on the network would.
    const remote = createServer(t.app.app);
    remote.on('connection', (socket) => Object.defineProperty(socket, 'remoteAddress', { value: '203.0.113.50' }));
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    try {
      await t.http.post('/api/v1/auth/phone/start').send({ phone_number: newNumber() }).expect(200);
      const local = await t.http.get('/api/v1/dev/outbox').expect(200);
      assert.equal(local.body.length, 1);
      const address = remote.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const far = await clientAt(address.port, '127.0.0.1').get('/api/v1/dev/outbox');
      assert.deepEqual([far.status, far.body.code], [404, 'not_found']);
      assert.equal(JSON.stringify(far.body).includes('sign_in_code'), false);
    } finally {
      remote.closeAllConnections();
      await new Promise<void>((resolve) => remote.close(() => resolve()));
      await t.close();
    }
  });

  it('production refuses it as the only channel; with a channel configured it is not found', async () => {
    const production = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_SECRET: 'x'.repeat(40), DATA_MASTER_KEY: 'A'.repeat(64) };
    await assert.rejects(startTestApp({ env: production }), /A messaging channel must be configured in production/);
    const exotel = await providerServer(() => ({ status: 200, body: { SMSMessage: { Sid: 'SM1', Status: 'queued' } } }));
    const t = await startTestApp({ env: { ...production, SMS_API_URL: `${exotel.origin}/v1/Accounts/a/Sms/send.json`, SMS_API_KEY: 'k:t', SMS_SENDER_ID: 'TLMEDC', MESSAGING_CALLBACK_SECRET: 'callback-secret-0123456789' } });
    try {
      assert.equal(t.app.outbox, null);
      const answer = await t.http.get('/api/v1/dev/outbox').expect(404);
      assert.equal(answer.body.code, 'not_found');
    } finally {
      await t.close();
      await exotel.close();
    }
  });
});
