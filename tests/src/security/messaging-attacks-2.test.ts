import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { PHONE_SIGN_IN, streams } from '@telemed/contracts';
import { createLogger, signInboundSmsAddress } from '@telemed/platform';
import { messageIdFor } from '@telemed/command';
import { providerServer, type RecordedRequest } from '../../../platform/src/messaging/messaging.test-support';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventually } from '../support/eventually';
import { logLines } from '../support/log-lines';
import { givenClinicOfTwo, givenInstitution, LOTUS_CLINIC } from '../support/given-institution';
import { freshLoopbackAddress } from '../support/loopback-address';

/**
 * Attacks on what issue 34 added last, through the real HTTP API with SMS configured against a local Exotel: the SMS
 * STOP address (forged tokens, odd senders and texts, replays, telling who has an account, bodies too big, logs), a
 * clinic member's read of an appointment's messages (other clinics', filters that reach further, members without the
 * right), and the code that adds a number to an account (signing in with it, other countries, floods, who holds a
 * number). Each case asserts the safe behaviour; a case named "finding" makes an attack that worked when it was
 * written, and says the fix.
 */

interface Answer {
  status: number;
  text: string;
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** An HTTP request from a loopback address of its own (each 127.x.y.z is a different client to the server's budgets). */
function call(port: number, method: string, path: string, options: { address?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const body = options.body ?? '';
    const length = body === '' ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const sent = request({ host: '127.0.0.1', port, localAddress: options.address ?? '127.0.0.1', path, method, agent: false, headers: { ...length, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = null;
        if (/json/.test(String(res.headers['content-type'])) && text) parsed = JSON.parse(text);
        resolve({ status: res.statusCode ?? 0, text, body: parsed, headers: res.headers });
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

const bodyOf = (answer: Answer) => (answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body) ? (answer.body as Record<string, unknown>) : {});

const newAddress = freshLoopbackAddress;

let nextNumber = 0;
/** An Indian mobile number no other case (of this file) has used, in E.164 (ending in 0: the nine after it are free too). */
const newNumber = () => `+9197${String(72_000_000 + (nextNumber += 10))}`;
/** The ten digits after +91. */
const national = (e164: string) => e164.slice(3);

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** Midday in India (outside quiet hours): today, or tomorrow once that has passed. */
function middayInIndia(): Date {
  const midday = new Date();
  midday.setUTCHours(6, 30, 0, 0);
  return midday.getTime() < Date.now() - 6 * 3_600_000 ? new Date(midday.getTime() + 86_400_000) : midday;
}

const CALLBACK_SECRET = 'callback-secret-for-attacks-2-only';
const INBOUND = '/api/v1/messaging/sms/inbound';
const SIGN_IN_START = '/api/v1/auth/phone/start';
const SIGN_IN_VERIFY = '/api/v1/auth/phone/verify';
const ADD_START = '/api/v1/users/me/phone/start';
const ADD_VERIFY = '/api/v1/users/me/phone/verify';
/** Headers that differ from one answer to the next whatever was asked. */
const VARYING = new Set(['date', 'x-correlation-id', 'content-length', 'etag', 'connection', 'keep-alive']);
const headerShape = (answer: Answer) => Object.entries(answer.headers).filter(([name]) => !VARYING.has(name)).sort(([x], [y]) => x.localeCompare(y));

describe('messages by SMS under attack (a local Exotel; SMS the only channel)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let port: number;
  let exotel: Awaited<ReturnType<typeof providerServer>>;
  let sid = 0;
  const now = middayInIndia();
  const logs = logLines();
  const token = signInboundSmsAddress(CALLBACK_SECRET);
  /** Every text and sender written into a reply in this file: none may reach a log line. */
  const repliedTexts = new Set<string>();
  const repliedSenders = new Set<string>();

  before(async () => {
    exotel = await providerServer(() => ({ status: 200, body: { SMSMessage: { Sid: `SM${(sid += 1)}`, Status: 'queued' } } }));
    t = await startTestApp({
      clock: () => now,
      logger: createLogger({ level: 'debug', destination: logs.destination }),
      env: {
        PUBLIC_URL: 'https://telemed.example.in',
        SMS_API_URL: `${exotel.origin}/v1/Accounts/telemed/Sms/send.json`,
        SMS_API_KEY: 'key:token',
        SMS_SENDER_ID: 'TLMEDC',
        SMS_TEMPLATE_IDS: JSON.stringify({ sign_in_code: '1107000000000000001', phone_verification_code: '1107000000000000003', appointment_approved: '1107000000000000002' }),
        MESSAGING_CALLBACK_SECRET: CALLBACK_SECRET,
      },
    });
    spec = apiSpec(t);
    port = await t.app.listen(0, '127.0.0.1');
  });
  after(async () => {
    await t.close();
    await exotel.close();
  });

  const form = (r: RecordedRequest) => new URLSearchParams(r.body);
  const smsTo = (phone: string) => exotel.requests.filter((r) => form(r).get('To') === phone);
  const latestCode = (phone: string) => {
    const last = smsTo(phone).at(-1);
    assert.ok(last, `an SMS reached ${phone}`);
    return codeIn(form(last).get('Body')!)!;
  };
  const json = (method: string, path: string, body: unknown, options: { address?: string; user?: TestUser } = {}) =>
    call(port, method, path, { address: options.address ?? newAddress(), headers: { 'content-type': 'application/json', ...options.user?.auth }, body: JSON.stringify(body) });

  /** Starts a code to `phone` (to add it for `user`, or to sign in), from an address of its own: the answer and the code sent. */
  const codeFor = async (phone: string, user?: TestUser, address = newAddress()) => {
    const started = await json('POST', user ? ADD_START : SIGN_IN_START, { phone_number: phone }, { address, user });
    assert.equal(started.status, 200, started.text);
    return { code: latestCode(phone), challenge: String(bodyOf(started).challenge) };
  };

  const channelsOf = async (user: TestUser) => (await spec.read((http) => http.get('/api/v1/users/me/messaging').set(user.auth))).body.channels as Record<string, boolean>;
  const smsOn = async (user: TestUser) => {
    await t.http.put('/api/v1/users/me/messaging').set(user.auth).send({ channels: { email: false, sms: true, whatsapp: false } }).expect(200);
  };
  const preferenceEvents = async (userId: string) => (await t.app.eventStore.readStream(streams.contact(userId))).filter((e) => e.type === 'MessagingPreferencesSet').length;

  /** A patient whose verified number is `phone` (proved with the code the SMS provider was sent), who takes SMS. */
  const holderOf = async (phone: string, given?: TestUser): Promise<TestUser> => {
    const holder = given ?? (await t.createUser('patient'));
    const address = newAddress();
    const proof = await codeFor(phone, holder, address);
    const added = await json('POST', ADD_VERIFY, { phone_number: phone, ...proof }, { address, user: holder });
    assert.equal(added.status, 200, added.text);
    await smsOn(holder);
    return holder;
  };

  /** Exotel's inbound SMS as a GET (its SMS app), with the fields given and this server's token unless told. */
  const replyByGet = (fields: Record<string, string>, options: { token?: string | null; method?: string } = {}) => {
    if (fields.From) repliedSenders.add(fields.From);
    if (fields.Body) repliedTexts.add(fields.Body);
    const query = new URLSearchParams({ SmsSid: `SMin${(sid += 1)}`, To: '08047112233', ...fields });
    if (options.token !== null) query.set('token', options.token ?? token);
    return call(port, options.method ?? 'GET', `${INBOUND}?${query.toString()}`);
  };
  /** The same posted form-encoded (its inbound webhook). */
  const replyByPost = (fields: Record<string, string>, options: { token?: string | null } = {}) => {
    if (fields.From) repliedSenders.add(fields.From);
    if (fields.Body) repliedTexts.add(fields.Body);
    const query = options.token === null ? '' : `?token=${encodeURIComponent(options.token ?? token)}`;
    return call(port, 'POST', `${INBOUND}${query}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SmsSid: `SMin${(sid += 1)}`, To: '08047112233', ...fields }).toString(),
    });
  };

  describe('the STOP address', () => {
    it("takes only its own token: none, a guess, another secret's, a delivery report's, a near miss or two of it change nothing; and its own opens no delivery report", async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const before = await preferenceEvents(holder.user_id);
      // The message that carried the holder's code: its delivery reports have a signed address of their own.
      const codeMessage = form(smsTo(phone).at(-1)!).get('CustomField')!;
      assert.ok(codeMessage);
      const reportToken = (messageId: string) => createHmac('sha256', CALLBACK_SECRET).update(`telemed sms status\n${messageId}`).digest('base64url');
      const stop = { From: `0${national(phone)}`, Body: 'STOP' };
      const tokens: Array<[string, string | null]> = [
        ['none', null],
        ['empty', ''],
        ['a guess', 'guessed'],
        ["another secret's", signInboundSmsAddress('another-secret-of-32-characters!')],
        ["a delivery report's", reportToken(codeMessage)],
        ["an empty message id's report", reportToken('')],
        ['padded', `${token}=`],
        ['in upper case', token.toUpperCase()],
        ['cut short', token.slice(0, -1)],
        ['with a space', ` ${token}`],
        ['too long', `${token}${'A'.repeat(200)}`],
      ];
      for (const [what, given] of tokens) {
        for (const answer of [await replyByGet(stop, { token: given }), await replyByPost(stop, { token: given })]) {
          assert.ok(answer.status === 401 || answer.status === 422, `${what}: ${answer.status} ${answer.text}`);
          assert.equal(answer.text.includes(national(phone)), false, `${what}: the answer names the number`);
        }
      }
      // The token twice, and the token in the posted form rather than the address.
      const twice = await call(port, 'GET', `${INBOUND}?${new URLSearchParams([...Object.entries({ SmsSid: 'SMx', ...stop }), ['token', token], ['token', token]]).toString()}`);
      assert.equal(twice.status, 422, twice.text);
      const inForm = await call(port, 'POST', INBOUND, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SmsSid: 'SMx', ...stop, token }).toString() });
      assert.equal(inForm.status, 422, inForm.text);
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before, 'nothing recorded');
      assert.equal((await channelsOf(holder)).sms, true);

      // The inbound token is not a delivery report's for any message: a report signed with it is refused.
      const report = await call(port, 'POST', `/api/v1/messaging/sms/status?message=${codeMessage}&token=${token}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'SmsSid=SM1&Status=failed',
      });
      assert.equal(report.status, 401, report.text);
    });

    it("ends SMS for the sender's account however the operator writes the number (0-prefixed, 91, +91, spaces, 0091, an unencoded +), and for no one else", async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const neighbourPhone = `${phone.slice(0, -1)}1`;
      const neighbour = await holderOf(neighbourPhone);
      const digits = national(phone);
      const writings = [`0${digits}`, `91${digits}`, `+91${digits}`, `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`, `0091${digits}`, `${digits.slice(0, 5)} ${digits.slice(5)}`, `0${digits.slice(0, 5)}-${digits.slice(5)}`];
      for (const from of writings) {
        await smsOn(holder);
        const answer = await replyByGet({ From: from, Body: 'STOP' });
        assert.equal(answer.status, 200, `${from}: ${answer.text}`);
        assert.equal((await channelsOf(holder)).sms, false, `STOP from ${from}`);
      }
      // An unencoded '+' in the address reads as a space: the number is still the sender's.
      await smsOn(holder);
      const raw = await call(port, 'GET', `${INBOUND}?SmsSid=SMraw&From=+91${digits}&Body=STOP&token=${token}`);
      assert.equal(raw.status, 200, raw.text);
      assert.equal((await channelsOf(holder)).sms, false, 'STOP from an unencoded +91');
      // Posted, the same.
      await smsOn(holder);
      assert.equal((await replyByPost({ From: `+91${digits}`, Body: 'STOP' })).status, 200);
      assert.equal((await channelsOf(holder)).sms, false, 'STOP posted');
      assert.deepEqual(await channelsOf(neighbour), { email: false, sms: true, whatsapp: false }, 'the number one digit on');
    });

    it("a sender of another country, of one not configured, a landline, a short code, an alphanumeric sender or the holder's digits under another country code stops no one", async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const before = await preferenceEvents(holder.user_id);
      const digits = national(phone);
      const senders = ['+234 802 123 4567', '+1 201 555 0123', '+44 7400 123456', `+44${digits}`, `+1${digits}`, `+92${digits}`, `+880${digits}`, '+91 22 2345 6789', '022 2345 6789', '56767', 'TLMEDC', 'VM-TLMEDC', `${digits}0`, digits.slice(1), '+', '0'];
      for (const from of senders) {
        const answer = await replyByGet({ From: from, Body: 'STOP' });
        assert.equal(answer.status, 200, `${from}: ${answer.text}`);
        assert.equal(answer.text, '', from);
      }
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before);
      assert.equal((await channelsOf(holder)).sms, true);
    });

    it("STOP in its ways of being written stops; a text that only contains or resembles it changes nothing", async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const from = `0${national(phone)}`;
      for (const text of ['STOP', 'stop', ' Stop. ', 'STOP!', 'stop\n', 'stop all', 'Stop   ALL', 'UNSUBSCRIBE', 'रोकें', 'रोको।']) {
        await smsOn(holder);
        assert.equal((await replyByGet({ From: from, Body: text })).status, 200, JSON.stringify(text));
        assert.equal((await channelsOf(holder)).sms, false, `${JSON.stringify(text)} stops`);
      }
      await smsOn(holder);
      const before = await preferenceEvents(holder.user_id);
      const chatter = ['', ' ', 'STOPPED', "don't stop", 'Please do not STOP my reminders', 'S T O P', 'START', 'stop stop', 'non-stop', 'STOP?', 'st0p', 'Zebracough worse, when is my slot?', '😀'];
      for (const text of chatter) {
        const answer = await replyByGet({ From: from, Body: text });
        assert.equal(answer.status, 200, `${JSON.stringify(text)}: ${answer.text}`);
      }
      const posted = await replyByPost({ From: from, Body: 'Zebracough since Monday' });
      assert.equal(posted.status, 200);
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before, 'the chatter changed nothing');
      assert.equal((await channelsOf(holder)).sms, true);
    });

    it("answers alike whether the number is an account's, nobody's, an erased account's, one its holder replaced, or foreign; and only a holder's STOP is recorded", async () => {
      const held = newNumber();
      const holder = await holderOf(held);
      const erasedPhone = newNumber();
      const erased = await holderOf(erasedPhone);
      await t.http.post('/api/v1/users/me/erasure').set(erased.auth).expect(200);
      const [left, kept] = [newNumber(), newNumber()];
      const mover = await holderOf(left);
      await holderOf(kept, mover);
      await t.settle();
      const before = { holder: await preferenceEvents(holder.user_id), mover: await preferenceEvents(mover.user_id) };
      const head = await t.app.eventStore.headPosition();

      const answers: Array<[string, Answer]> = [];
      for (const [what, from] of [
        ['an account holds it', `0${national(held)}`],
        ['its STOP again', `0${national(held)}`],
        ['nobody has it', `0${national(newNumber())}`],
        ['an erased account had it', `0${national(erasedPhone)}`],
        ['its holder replaced it', `0${national(left)}`],
        ['foreign', '+234 802 123 4567'],
      ] as const) {
        answers.push([`GET: ${what}`, await replyByGet({ From: from, Body: 'STOP' })]);
        answers.push([`POST: ${what}`, await replyByPost({ From: from, Body: 'STOP' })]);
      }
      const [, first] = answers[0]!;
      for (const [what, answer] of answers) {
        assert.deepEqual([answer.status, answer.text], [200, ''], what);
        assert.deepEqual(headerShape(answer), headerShape(first), what);
        assert.equal(answer.headers['cache-control'], 'no-store', what);
      }
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before.holder + 1, "the holder's STOP, once");
      assert.equal(await preferenceEvents(mover.user_id), before.mover, 'the number left behind stops nobody');
      assert.equal((await channelsOf(mover)).sms, true);
      const written = (await t.app.eventStore.readAll({ fromPosition: head, limit: 1000 })).filter((e) => e.position > head).map((e) => `${e.stream_id} ${e.type}`);
      assert.deepEqual(written, [`contact-${holder.user_id} MessagingPreferencesSet`], 'nothing else was written');
    });

    it('a HEAD and its GET, a retry, or ten copies at once record one STOP; a HEAD (the provider check of the address) acts on nothing, and without the token is refused', async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const before = await preferenceEvents(holder.user_id);
      const fields = { SmsSid: 'SMsame', From: `0${national(phone)}`, Body: 'STOP' };
      const refusedHead = await replyByGet(fields, { method: 'HEAD', token: 'guessed' });
      assert.equal(refusedHead.status, 401);
      assert.equal(refusedHead.text, '');
      const bareHead = await call(port, 'HEAD', `${INBOUND}?token=${token}`);
      assert.equal(bareHead.status, 200);
      const head = await replyByGet(fields, { method: 'HEAD' });
      assert.equal(head.status, 200);
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before);

      assert.equal((await replyByGet(fields)).status, 200);
      assert.equal((await replyByGet(fields)).status, 200);
      const copies = await Promise.all(Array.from({ length: 10 }, () => replyByPost(fields)));
      assert.deepEqual(copies.map((a) => a.status), Array<number>(10).fill(200));
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before + 1);
      assert.equal((await channelsOf(holder)).sms, false);
    });

    it('a body too big, too long a field, fields twice, prototype keys, broken encodings, JSON or gzip: a 4xx where they are refused, never a 5xx, and nothing changes', async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const from = `0${national(phone)}`;
      const before = await preferenceEvents(holder.user_id);
      const formPost = (body: string | Buffer, query = `?token=${token}`, headers: Record<string, string> = {}) =>
        call(port, 'POST', `${INBOUND}${query}`, { headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
      const stopForm = `SmsSid=SM1&From=${from}&Body=STOP`;
      const cases: Array<[string, Promise<Answer>, number | null]> = [
        ['a posted body over 16 KiB', formPost(`${stopForm}&pad=${'x'.repeat(20_000)}`), 413],
        ['the same without the token', formPost(`${stopForm}&pad=${'x'.repeat(20_000)}`, '?token=guessed'), 401],
        ['a Body of 1,601 characters (GET)', replyByGet({ From: from, Body: `STOP${' '.repeat(1597)}` }), 422],
        ['a From of 33 characters (GET)', replyByGet({ From: `0${'9'.repeat(32)}`, Body: 'STOP' }), 422],
        ['a Body of 1,601 characters (POST)', formPost(`${stopForm}${'%20'.repeat(1597)}`), 400],
        ['no SmsSid (GET)', call(port, 'GET', `${INBOUND}?From=${from}&Body=STOP&token=${token}`), 400],
        ['no SmsSid (POST)', formPost(`From=${from}&Body=STOP`), 400],
        ['From twice (GET)', call(port, 'GET', `${INBOUND}?SmsSid=SM1&From=${from}&From=${from}&Body=STOP&token=${token}`), 422],
        ['Body twice (GET)', call(port, 'GET', `${INBOUND}?SmsSid=SM1&From=${from}&Body=STOP&Body=STOP&token=${token}`), 422],
        ['a prototype key (GET)', call(port, 'GET', `${INBOUND}?SmsSid=SM1&From=${from}&Body=STOP&__proto__=x&token=${token}`), 422],
        ['prototype keys (POST)', formPost(`SmsSid=SM1&From=${from}&Body=Hello&__proto__=x&constructor=y&prototype=z`), null],
        ['broken percent-encoding (GET)', call(port, 'GET', `${INBOUND}?SmsSid=SM1&From=%ZZ${from}&Body=ST%E0%A4OP&token=${token}`), null],
        ['broken percent-encoding (POST)', formPost(`SmsSid=SM1&From=%ZZ${from}&Body=ST%E0%A4OP`), null],
        ['bytes that are not UTF-8 (POST)', formPost(Buffer.concat([Buffer.from('SmsSid=SM1&From='), Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('&Body=STOP')])), null],
        ['JSON posted', call(port, 'POST', `${INBOUND}?token=${token}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ SmsSid: 'SM1', From: from, Body: 'STOP' }) }), null],
        ['gzip that is not', formPost(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), `?token=${token}`, { 'content-encoding': 'gzip' }), null],
        ['an address of 20 KiB', call(port, 'GET', `${INBOUND}?SmsSid=SM1&From=${from}&Body=${'x'.repeat(20_000)}&token=${token}`), null],
      ];
      for (const [what, pending, expected] of cases) {
        const answer = await pending;
        assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text}`);
        if (expected !== null) assert.equal(answer.status, expected, `${what}: ${answer.text}`);
        assert.equal(answer.text.includes(national(phone)), false, `${what}: the answer names the number`);
      }
      assert.equal(({} as Record<string, unknown>).x, undefined);
      await t.settle();
      assert.equal(await preferenceEvents(holder.user_id), before, 'nothing recorded');
    });
  });

  describe("a clinic's members and an appointment's messages", () => {
    /** A patient on SMS and an approved appointment with the doctor: its id, once its messages are in the log. */
    const appointmentWithMessages = async (doctor: TestUser, patient: TestUser) => {
      const { appointment_id } = await spec.given.appointment({ doctor, patient, confirmed: true });
      const approved = messageIdFor(`${appointment_id}:appointment_approved:0`);
      await eventually(async () => assert.ok((await t.app.eventStore.readStream(streams.message(approved))).some((e) => e.type === 'MessageSent')), 15_000);
      await t.settle();
      return appointment_id;
    };
    const messagesOf = (user: TestUser, query: Record<string, string>) => spec.read((http) => http.get('/api/v1/admin/messages').query(query).set(user.auth));
    const filterOf = (filter: unknown) => ({ filter: JSON.stringify(filter) });

    it("a member reads their own appointment's messages only: another clinic's, combined filters, arrays, operators, paging and sorting past the schema reach nothing more, and nothing unmasked", async () => {
      const lotus = await givenClinicOfTwo(spec, LOTUS_CLINIC);
      const tulsi = await givenClinicOfTwo(spec, { name: 'Tulsi Clinic', address: '9 Lake Road', phone: '+91 33 4000 9876', domain: 'tulsi.in' });
      const phone = newNumber();
      const patient = await holderOf(phone);
      const ours = await appointmentWithMessages(lotus.doctor, patient);
      const theirs = await appointmentWithMessages(tulsi.doctor, patient);
      const operator = await t.createUser('admin');
      const theirIds = ((await messagesOf(operator, filterOf({ appointment_id: theirs }))).body as Array<{ id: string }>).map((m) => m.id);
      assert.ok(theirIds.length > 0, "the other clinic's appointment has messages");
      const codeIds = ((await messagesOf(operator, { ...filterOf({ kind: 'phone_verification_code' }), range: '[0,99]' })).body as Array<{ id: string }>).map((m) => m.id);
      assert.ok(codeIds.length > 0);

      const read = await messagesOf(lotus.clinicAdmin, filterOf({ appointment_id: ours }));
      assert.equal(read.status, 200, read.text);
      const entries = read.body as Array<Record<string, unknown>>;
      assert.ok(entries.length > 0);
      for (const entry of entries) {
        assert.equal(entry.appointment_id, ours);
        assert.deepEqual(Object.keys(entry).sort(), ['appointment_id', 'attempts', 'channel', 'due_at', 'id', 'kind', 'last_error', 'recipient_id', 'status', 'to_masked', 'updated_at']);
        if (entry.to_masked !== null) assert.match(String(entry.to_masked), /^(\+?•+\d{3}|.•••@[^@]+)$/);
      }
      assert.ok(entries.some((e) => e.channel === 'sms' && e.recipient_id === patient.user_id), "the patient's SMS is there, masked");
      assert.equal(read.text.includes(national(phone)), false, 'the number in full');
      for (const sent of smsTo(phone)) assert.equal(read.text.includes(form(sent).get('Body')!), false, 'a text');

      // Another clinic's appointment, whoever of ours asks; and ours for the other clinic.
      for (const [who, user, appointment] of [
        ['our admin, theirs', lotus.clinicAdmin, theirs],
        ['our doctor, theirs', lotus.doctor, theirs],
        ['their admin, ours', tulsi.clinicAdmin, ours],
        ['the patient, their own', patient, ours],
      ] as const) {
        const refused = await messagesOf(user, filterOf({ appointment_id: appointment }));
        assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden_role'], who);
      }
      // Filters that combine ours with ids, kinds or statuses of other messages reach none of them.
      const combined = [
        { appointment_id: ours, id: theirIds },
        { appointment_id: ours, id: theirIds[0] },
        { appointment_id: ours, id: codeIds },
        { appointment_id: ours, kind: 'phone_verification_code' },
        { appointment_id: ours, kind: 'sign_in_code', status: 'sent' },
        { appointment_id: ours, channel: 'sms', status: 'sent' },
      ];
      for (const filter of combined) {
        const answer = await messagesOf(lotus.clinicAdmin, { ...filterOf(filter), range: '[0,99]' });
        assert.equal(answer.status, 200, answer.text);
        for (const entry of answer.body as Array<{ id: string; appointment_id: string }>) {
          assert.equal(entry.appointment_id, ours, JSON.stringify(filter));
          assert.ok(!theirIds.includes(entry.id) && !codeIds.includes(entry.id), JSON.stringify(filter));
        }
        const total = Number(/\/(\d+)$/.exec(String(answer.headers['content-range']))?.[1]);
        assert.equal(total, (answer.body as unknown[]).length, `${JSON.stringify(filter)}: the count is of ours only`);
      }
      // A key written twice is read once, as the check read it.
      const twice = await spec.read((http) => http.get('/api/v1/admin/messages').query({ filter: `{"appointment_id":"${theirs}","appointment_id":"${ours}"}` }).set(lotus.clinicAdmin.auth));
      assert.equal(twice.status, 200, twice.text);
      assert.ok((twice.body as Array<{ appointment_id: string }>).every((m) => m.appointment_id === ours));
      const twiceTheirs = await spec.read((http) => http.get('/api/v1/admin/messages').query({ filter: `{"appointment_id":"${ours}","appointment_id":"${theirs}"}` }).set(lotus.clinicAdmin.auth));
      assert.equal(twiceTheirs.status, 403);

      // Shapes the schema does not take: a 422 (or, for no appointment at all, the 403 of the whole log), never a read.
      const shapes: Array<[Record<string, string>, number]> = [
        [filterOf({ appointment_id: [ours, theirs] }), 422],
        [filterOf({ appointment_id: { $ne: null } }), 422],
        [filterOf({ appointment_id: { $in: [ours, theirs] } }), 422],
        [filterOf({ appointment_id: ours, recipient_id: patient.user_id }), 422],
        [filterOf({ appointment_id: ours, $or: [{ appointment_id: theirs }] }), 422],
        [filterOf({ appointment_id: ours, id: { $gt: '' } }), 422],
        [filterOf({ appointment_id: '' }), 403],
        [filterOf({ appointment_id: 'x'.repeat(65) }), 422],
        [filterOf({}), 403],
        [{ filter: 'not json' }, 422],
        [{ ...filterOf({ appointment_id: ours }), range: '[0,100000]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), range: '[-1,5]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), range: '[5,0]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), range: '[0.5,3]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), sort: '["to_masked","ASC"]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), sort: '["recipient_id","ASC"]' }, 422],
        [{ ...filterOf({ appointment_id: ours }), sort: '["updated_at","ASC; DROP"]' }, 422],
      ];
      for (const [query, status] of shapes) {
        const answer = await messagesOf(lotus.clinicAdmin, query);
        assert.equal(answer.status, status, `${JSON.stringify(query)}: ${answer.text}`);
      }
      // A prototype key inside the filter: refused, or read as nothing more than ours.
      const proto = await messagesOf(lotus.clinicAdmin, { filter: `{"appointment_id":"${ours}","__proto__":{"appointment_id":"${theirs}"}}` });
      assert.ok(proto.status === 422 || (proto.status === 200 && (proto.body as Array<{ appointment_id: string }>).every((m) => m.appointment_id === ours)), `${proto.status} ${proto.text}`);
      // The operators' resend is theirs alone.
      const resent = await t.http.post(`/api/v1/admin/messages/${String(entries[0]!.id)}/resend`).set(lotus.clinicAdmin.auth);
      assert.equal(resent.status, 403);
    });

    it("a STAFF member (no right to read appointments) and a doctor who left read none; the clinic keeps what its doctor had while a member, not what came after", async () => {
      const clinic = await givenInstitution(spec, {
        name: 'Kadamba Clinic',
        address: '3 Hill Road',
        phone: '+91 80 4000 5678',
        email: 'contact@kadamba.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@kadamba.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: 'ananya@kadamba.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
          { name: 'Ravi Kumar', email: 'ravi@kadamba.in', phone: '+91 90000 44444', account_type: 'DOCTOR' },
          { name: 'Sita Menon', email: 'sita@kadamba.in', phone: '+91 90000 33333', account_type: 'STAFF' },
        ],
      });
      const admin = await clinic.member('lata@kadamba.in', 'patient');
      const leaver = await clinic.member('ananya@kadamba.in', 'doctor');
      const peer = await clinic.member('ravi@kadamba.in', 'doctor');
      const staff = await clinic.member('sita@kadamba.in', 'patient');
      const patient = await holderOf(newNumber());
      const during = await appointmentWithMessages(leaver, patient);
      const filter = filterOf({ appointment_id: during });
      assert.equal((await messagesOf(peer, filter)).status, 200, "a peer doctor of the clinic reads it (the clinic's right)");
      assert.equal((await messagesOf(staff, filter)).status, 403, 'STAFF');
      const permissions = await spec.read((http) => http.get('/api/v1/admin/permissions').set(staff.auth));
      assert.equal(permissions.body.resources.messages, undefined);

      await t.http.delete(`/api/v1/institutions/${clinic.id}/doctors/${leaver.user_id}`).set(admin.auth).expect(200);
      await t.settle();
      const later = await appointmentWithMessages(leaver, patient);
      for (const appointment of [during, later]) {
        const refused = await messagesOf(leaver, filterOf({ appointment_id: appointment }));
        assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden_role'], 'the doctor who left');
      }
      const leaverPermissions = await spec.read((http) => http.get('/api/v1/admin/permissions').set(leaver.auth));
      assert.equal(leaverPermissions.body.resources.messages, undefined);
      assert.equal((await messagesOf(admin, filter)).status, 200, 'what was requested while a member stays the clinic\'s to audit');
      assert.equal((await messagesOf(admin, filterOf({ appointment_id: later }))).status, 403, 'nothing after the doctor left');
      assert.equal((await messagesOf(peer, filterOf({ appointment_id: later }))).status, 403);
    });

    // Finding 2: a provider's report (Exotel's DetailedStatus, WhatsApp's error title or message) becomes the message's error
    // as written, in clear in the log and shown to a clinic's members. The fix: pass it through withoutAddresses, as the
    // errors of a send already are.
    it("finding 2: a failed SMS's error as a clinic member reads it names no number, even when the provider's report does", async () => {
      const lotus = await givenClinicOfTwo(spec, { name: 'Amla Clinic', address: '7 Ring Road', phone: '+91 33 4000 1111', domain: 'amla.in' });
      const phone = newNumber();
      const patient = await holderOf(phone);
      const appointment = await appointmentWithMessages(lotus.doctor, patient);
      const messageId = messageIdFor(`${appointment}:appointment_approved:0`);
      const sent = (await t.app.eventStore.readStream(streams.message(messageId))).filter((e) => e.type === 'MessageSent').at(-1)!.data as { provider_message_id: string };
      const reportToken = createHmac('sha256', CALLBACK_SECRET).update(`telemed sms status\n${messageId}`).digest('base64url');
      // Exotel's report of an undelivered SMS, its DetailedStatus as an operator's network wrote it.
      const report = await call(port, 'POST', `/api/v1/messaging/sms/status?message=${messageId}&token=${reportToken}`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SmsSid: sent.provider_message_id, Status: 'failed', DetailedStatus: `Subscriber 91${national(phone)} absent; mail ${national(phone)}@operator.example` }).toString(),
      });
      assert.equal(report.status, 200, report.text);
      await eventually(async () => assert.equal((await t.app.eventStore.readStream(streams.message(messageId))).at(-1)?.type, 'MessageFailed'), 15_000);
      const read = await messagesOf(lotus.clinicAdmin, filterOf({ appointment_id: appointment }));
      assert.equal(read.status, 200, read.text);
      const failed = (read.body as Array<{ id: string; last_error: string | null }>).find((m) => m.id === messageId);
      assert.ok(failed?.last_error, 'the failure is shown');
      assert.equal(failed.last_error.includes(national(phone)), false, `the member reads the patient's number: ${failed.last_error}`);
      const stored = JSON.stringify((await t.app.eventStore.log.readStream(streams.message(messageId))).map((e) => e.data));
      assert.equal(stored.includes(national(phone)), false, 'the log holds the number in clear');
    });
  });

  describe('the code that adds a number', () => {
    // Finding 1: one number's codes are one stream whatever they were sent for, and a try is weighed by the code and the
    // challenge alone. The fix: hash the challenge with the code's purpose (sign-in, or adding to this account) where it
    // is issued and where it is tried, so a code answers only the route, and the account, it was sent for.
    it('finding 1: a code sent to add a number signs nobody in to its holder\'s account, with the challenge of its start', async () => {
      const phone = newNumber();
      const victim = await holderOf(phone);
      const attacker = await t.createUser('patient');
      // The attacker, signed in, asks for a code to add the victim's number; the victim's phone receives "your code to
      // add this number to your account", and its code is all the attacker needs from them.
      const address = newAddress();
      const proof = await codeFor(phone, attacker, address);
      assert.match(form(smsTo(phone).at(-1)!).get('Body')!, /is your code to add this number to your account/);
      const signedIn = await json('POST', SIGN_IN_VERIFY, { phone_number: phone, ...proof }, { address });
      const user = bodyOf(signedIn).user as { user_id?: string } | undefined;
      assert.equal(user?.user_id === victim.user_id, false, "signed in to the victim's account");
      assert.deepEqual([signedIn.status, bodyOf(signedIn).code], [401, 'phone_code_wrong'], signedIn.text);
    });

    it('finding 1, the other way: a sign-in code does not add its number to the account of whoever started the sign-in', async () => {
      const phone = newNumber();
      const attacker = await t.createUser('patient');
      const address = newAddress();
      const proof = await codeFor(phone, undefined, address);
      assert.match(form(smsTo(phone).at(-1)!).get('Body')!, /is your sign-in code/);
      const added = await json('POST', ADD_VERIFY, { phone_number: phone, ...proof }, { address, user: attacker });
      assert.deepEqual([added.status, bodyOf(added).code], [401, 'phone_code_wrong'], added.text);
      const preferences = await spec.read((http) => http.get('/api/v1/users/me/messaging').set(attacker.auth));
      assert.equal(preferences.body.verified_phone, null);
    });

    it('numbers of countries not configured, toll-free and premium numbers are refused to add (422) and sent nothing', async () => {
      const asker = await t.createUser('patient');
      const sends = exotel.requests.length;
      for (const input of ['+44 7400 123456', '0044 7400 123456', '+971 50 123 4567', '+92 300 1234567', '+880 1712 345678', '+234 802 123 4567', '+1 201 555 0123', '1800 123 4567', '+91 1860 123 4567', '+91 140 123 4567', '']) {
        const answer = await json('POST', ADD_START, { phone_number: input }, { user: asker });
        assert.equal(answer.status, 422, `${input}: ${answer.text}`);
      }
      assert.equal(exotel.requests.length, sends, 'nothing sent');
    });

    it('adding and signing in share one number\'s waits and its hourly cap, whichever accounts and addresses ask: a flood reaches it ten times an hour at most', async () => {
      const phone = newNumber();
      const first = await t.createUser('patient');
      const firstAddress = newAddress();
      const firstProof = await codeFor(phone, first, firstAddress);
      // At once, by the other route and by other accounts from other addresses: the number's wait holds.
      const bySignIn = await json('POST', SIGN_IN_START, { phone_number: phone });
      assert.deepEqual([bySignIn.status, bodyOf(bySignIn).code], [429, 'phone_resend_wait']);
      const byOther = await json('POST', ADD_START, { phone_number: phone }, { user: await t.createUser('patient') });
      assert.deepEqual([byOther.status, bodyOf(byOther).code], [429, 'phone_resend_wait']);

      // The first code used at once (the flooder's own phone, added to the first account), and each after it: a used code lets the
      // next come at once, from the other route, other accounts and other addresses; still ten reach the number in an hour.
      const firstUsed = await json('POST', ADD_VERIFY, { phone_number: phone, code: latestCode(phone), challenge: firstProof.challenge }, { address: firstAddress, user: first });
      assert.equal(firstUsed.status, 200, firstUsed.text);
      const statuses: number[] = [];
      for (let i = 0; i < PHONE_SIGN_IN.codesPerNumberPerHour; i++) {
        const address = newAddress();
        const user = i % 2 === 0 ? await t.createUser('patient') : undefined;
        const started = await json('POST', user ? ADD_START : SIGN_IN_START, { phone_number: phone }, { address, user });
        statuses.push(started.status);
        if (started.status !== 200) {
          assert.equal(bodyOf(started).code, 'phone_rate_limited', started.text);
          break;
        }
        const used = await json('POST', user ? ADD_VERIFY : SIGN_IN_VERIFY, { phone_number: phone, code: latestCode(phone), challenge: String(bodyOf(started).challenge) }, { address, user });
        // Held by the first account: another account is told so once it proved the phone; a sign-in signs the first in.
        assert.ok(user ? used.status === 409 : used.status === 200, `${used.status} ${used.text}`);
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerNumberPerHour - 1).fill(200), 429]);
      assert.equal(smsTo(phone).length, PHONE_SIGN_IN.codesPerNumberPerHour);
    });

    it('whether another account holds a number is told only to a caller who proved the phone: wrong codes, made-up challenges and replays answer alike', async () => {
      const held = newNumber();
      await holderOf(held);
      const free = newNumber();
      const asker = await t.createUser('patient');
      const answersFor = async (phone: string) => {
        const address = newAddress();
        const proof = await codeFor(phone, asker, address);
        const wrong = proof.code === '000000' ? '111111' : '000000';
        return [
          await json('POST', ADD_VERIFY, { phone_number: phone, ...proof, code: wrong }, { address, user: asker }),
          await json('POST', ADD_VERIFY, { phone_number: phone, code: proof.code, challenge: 'made-up-challenge-of-the-right-length-0' }, { address: newAddress(), user: asker }),
          await json('POST', ADD_VERIFY, { phone_number: phone, code: wrong }, { address: newAddress(), user: asker }),
        ];
      };
      const [heldAnswers, freeAnswers] = [await answersFor(held), await answersFor(free)];
      for (const [i, answer] of heldAnswers.entries()) {
        assert.deepEqual([answer.status, answer.body], [freeAnswers[i]!.status, freeAnswers[i]!.body], `answer ${i}`);
        assert.deepEqual(headerShape(answer), headerShape(freeAnswers[i]!), `answer ${i}'s headers`);
      }
      // The message log names the asker as the code's recipient, never the holder: an operator's read says nothing more.
      await t.settle();
      const operator = await t.createUser('admin');
      const codes = await spec.read((http) => http.get('/api/v1/admin/messages').query({ filter: JSON.stringify({ kind: 'phone_verification_code' }), range: '[0,99]' }).set(operator.auth));
      assert.equal(codes.status, 200);
      assert.equal(codes.text.includes(national(held)), false);
    });
  });

  it('no log line holds a sender, a reply, the inbound token, a number or a code; and no 5xx was logged', async () => {
    await t.settle();
    const logged = logs.lines.join('');
    assert.ok(logs.lines.length > 50, 'the requests were logged');
    const numbers = [...new Set(exotel.requests.map((r) => form(r).get('To')!))];
    const codes = exotel.requests.map((r) => form(r).get('Body')!).map((text) => codeIn(text)).filter((code): code is string => code !== undefined);
    const needles = [token, ...numbers, ...numbers.map(national), ...[...repliedSenders].filter((from) => /\d{7}/.test(from)), ...[...repliedTexts].filter((text) => text.trim().length >= 6), 'Zebracough'];
    for (const needle of needles) assert.ok(!logged.includes(needle), `a log line holds ${JSON.stringify(needle.slice(0, 40))}`);
    assert.ok(codes.length > 0);
    assert.doesNotMatch(logged, new RegExp(`(?<![0-9a-fA-F])(?:${codes.join('|')})(?![0-9a-fA-F])`), 'a log line holds a code');
    for (const line of logs.lines) {
      const entry = JSON.parse(line) as { status?: number; msg?: string };
      assert.ok(!(typeof entry.status === 'number' && entry.status >= 500), `a 5xx: ${line}`);
      assert.notEqual(entry.msg, 'unhandled error', line);
    }
  });
});

describe('the STOP address where SMS is not configured', () => {
  it('is not found, with the right token or any, by GET, HEAD or POST, and records nothing', async () => {
    const t = await startTestApp({ env: { MESSAGING_CALLBACK_SECRET: CALLBACK_SECRET } });
    try {
      const port = await t.app.listen(0, '127.0.0.1');
      const head = await t.app.eventStore.headPosition();
      const query = new URLSearchParams({ SmsSid: 'SM1', From: '09812345678', Body: 'STOP', token: signInboundSmsAddress(CALLBACK_SECRET) }).toString();
      for (const method of ['GET', 'HEAD']) assert.equal((await call(port, method, `${INBOUND}?${query}`)).status, 404, method);
      const posted = await call(port, 'POST', `${INBOUND}?token=${signInboundSmsAddress(CALLBACK_SECRET)}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'SmsSid=SM1&From=09812345678&Body=STOP' });
      assert.equal(posted.status, 404);
      assert.equal(await t.app.eventStore.headPosition(), head);
    } finally {
      await t.close();
    }
  });
});
