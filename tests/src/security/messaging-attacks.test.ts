import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MESSAGE_CHANNELS, ERASED_VALUE, PHONE_SIGN_IN, isOneTimeCode, streams } from '@telemed/contracts';
import { createLogger, privateDigest } from '@telemed/platform';
import { messageIdFor } from '@telemed/command';
import { providerServer, type RecordedRequest } from '../../../platform/src/messaging/messaging.test-support';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventually } from '../support/eventually';
import { logLines } from '../support/log-lines';
import { givenClinicOfTwo, givenInstitution, LOTUS_CLINIC } from '../support/given-institution';
import { freshLoopbackAddress } from '../support/loopback-address';

/**
 * Attacks on messages outside the browser and sign-in by phone (issue 34), through the real HTTP API: guessing codes,
 * flooding a number with them, taking over an account by its number, telling who has an account, forging provider
 * callbacks, reading the message log or the outbox without the right, and what the log, the logs and the messages hold.
 * Each case asserts a defence that holds. The review's findings were fixed since; the cases named "finding N" each
 * make the attack that succeeded before its fix.
 *
 * A code counts only with the challenge its start answered: an attacker who wants tries at a code asks for it himself
 * (which sends it to the owner's phone and answers him its challenge), so the cases that guess do that.
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
            const challenge = parsed !== null && typeof parsed === 'object' && 'challenge' in parsed ? parsed.challenge : undefined;
            if (typeof challenge === 'string') challengesAnswered.push(challenge);
            resolve({ status: res.statusCode ?? 0, body: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed } : { items: parsed }, headers: res.headers });
          });
        },
      );
      sent.on('error', reject);
      sent.end(data);
    });
  return { post: (path: string, body: unknown) => send('POST', path, body), get: (path: string) => send('GET', path) };
}
type Client = ReturnType<typeof clientAt>;

/** Every challenge a start answered to a client: secrets like the codes, that no log may hold. */
const challengesAnswered: string[] = [];

const newAddress = freshLoopbackAddress;

let nextNumber = 0;
/** An Indian mobile number no other case has used, in E.164. */
const newNumber = () => `+9198${String(71_000_000 + (nextNumber += 1))}`;

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

/** What proves a phone: the code the phone received, and the challenge answered to whoever asked for it. */
interface Proof {
  code: string;
  challenge: string;
}
/** A challenge of the right shape that no start answered. */
const madeUpChallenge = () => `made-up-${String(Math.random()).slice(2)}-challenge-000000`;
/** Mobile numbers of Nigeria and the United States (libphonenumber's own examples): valid, but not Indian. */
const FOREIGN_MOBILES = ['+234 802 123 4567', '+1 201 555 0123'];
/** A doctor's name made to read as a message of the product's, with a link. */
const LURE_NAME = 'Rao. Refund pending, pay at https://evil.example/r';
/** What an approval's message says the doctor is (the English text: "Telemed: {doctor} confirmed your consultation ..."). */
const doctorIn = (text: string) => /^Telemed: (.*) confirmed your consultation/su.exec(text)?.[1] ?? `(no doctor in: ${text})`;
const SIGN_IN_START = '/api/v1/auth/phone/start';
const SIGN_IN_VERIFY = '/api/v1/auth/phone/verify';
const ADD_START = '/api/v1/users/me/phone/start';
const ADD_VERIFY = '/api/v1/users/me/phone/verify';

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
    const sent = outbox(e164).find((entry) => isOneTimeCode(entry.kind));
    assert.ok(sent, `a code was sent to ${e164}`);
    return codeIn(sent.text)!;
  };
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };
  /**
   * Asks for a code to `e164` (from a new address unless a client is given) once any wait for the number has passed: a
   * wait the server names is waited out on the clock. The code the outbox received, and the challenge answered.
   */
  const codeSentTo = async (e164: string, client: Client = clientAt(port, newAddress()), path = SIGN_IN_START): Promise<Proof> => {
    let started = await client.post(path, { phone_number: e164 });
    if (started.status === 429 && started.body.code === 'phone_resend_wait') {
      later(Number(started.headers['retry-after']));
      started = await client.post(path, { phone_number: e164 });
    }
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(typeof started.body.challenge, 'string');
    return { code: latestCode(e164), challenge: String(started.body.challenge) };
  };
  const verify = (client: Client, e164: string, proof: Proof, path = SIGN_IN_VERIFY) => client.post(path, { phone_number: e164, ...proof });
  /** A sign-in by phone, from a new address, with the code the number received and the challenge of its start. */
  const signedInBy = async (e164: string) => verify(clientAt(port, newAddress()), e164, await codeSentTo(e164));
  /** An account (of this kind, or the one given) whose verified number is `e164`, proved with the code the outbox received. */
  const holderOf = async (e164: string, kind: 'patient' | 'doctor' | 'admin' = 'patient', given?: TestUser): Promise<TestUser> => {
    const holder = given ?? (await t.createUser(kind));
    const client = clientAt(port, newAddress(), holder.auth);
    const added = await verify(client, e164, await codeSentTo(e164, client, ADD_START), ADD_VERIFY);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    return holder;
  };
  const verifiedPhoneOf = async (user: TestUser) => (await spec.read((http) => http.get('/api/v1/users/me/messaging').set(user.auth))).body.verified_phone as string | null;
  const varying = new Set(['date', 'etag', 'x-correlation-id', 'content-length']);
  const headerShape = (answer: Answer) => Object.entries(answer.headers).filter(([name]) => !varying.has(name)).sort(([x], [y]) => x.localeCompare(y));
  /** An answer to a start without what differs by number: the number itself, and the challenge (random each time). */
  const startShape = (answer: Answer) => {
    assert.match(String(answer.body.challenge), /^[\w-]{32}$/);
    return { ...answer.body, phone_number: null, challenge: null };
  };

  describe('guessing a code', () => {
    it('one address gets five wrong tries at a code, even with its challenge; then not even the right one counts from there, and from another address it still signs in', async () => {
      const phone = newNumber();
      // The guesser asked for the code himself (so he holds its challenge); the owner's phone received it.
      const attacker = clientAt(port, newAddress());
      const proof = await codeSentTo(phone, attacker);
      for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) {
        const tried = await verify(attacker, phone, { ...proof, code: wrongFor(proof.code) });
        assert.deepEqual([tried.status, tried.body.code], [401, 'phone_code_wrong']);
      }
      const spent = await verify(attacker, phone, proof);
      assert.deepEqual([spent.status, spent.body.code], [429, 'phone_code_tries'], 'the right code from an address whose tries are spent');
      const signedIn = await verify(clientAt(port, newAddress()), phone, proof);
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    });

    it('thirty wrong tries at once from one address: five are weighed and recorded, no more', async () => {
      const phone = newNumber();
      const attacker = clientAt(port, newAddress());
      const proof = await codeSentTo(phone, attacker);
      const answers = await Promise.all(Array.from({ length: 30 }, () => verify(attacker, phone, { ...proof, code: wrongFor(proof.code) })));
      const weighed = answers.filter((a) => a.body.code === 'phone_code_wrong').length;
      assert.equal(weighed, PHONE_SIGN_IN.triesPerAddress, JSON.stringify(answers.map((a) => a.body.code)));
      for (const answer of answers) assert.ok(answer.status === 401 || answer.status === 429 || answer.status === 409, `no other answer: ${answer.status}`);
      const tried = (await t.app.eventStore.readStream(await codeStream(t, phone))).filter((e) => e.type === 'PhoneSignInCodeTried');
      assert.equal(tried.length, PHONE_SIGN_IN.triesPerAddress, 'tries recorded');
      assert.equal((await verify(attacker, phone, proof)).status, 429);
    });

    it('however many addresses guess with the challenge, 25 wrong tries are weighed against one code, and then the right code signs nobody in from a new address', async () => {
      const phone = newNumber();
      const proof = await codeSentTo(phone);
      const answers: Answer[] = [];
      for (let a = 0; a < 6; a++) {
        const guesser = clientAt(port, newAddress());
        for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) answers.push(await verify(guesser, phone, { ...proof, code: wrongFor(proof.code) }));
      }
      assert.deepEqual(
        answers.map((a) => a.body.code),
        [...Array<string>(PHONE_SIGN_IN.maxTriesAllAddresses).fill('phone_code_wrong'), ...Array<string>(answers.length - PHONE_SIGN_IN.maxTriesAllAddresses).fill('phone_code_tries')],
      );
      const late = await verify(clientAt(port, newAddress()), phone, proof);
      assert.deepEqual([late.status, late.body.code], [429, 'phone_code_tries']);
    });

    it('the right code sent ten times at once signs in once, as one account', async () => {
      const phone = newNumber();
      const proof = await codeSentTo(phone);
      const client = clientAt(port, newAddress());
      const answers = await Promise.all(Array.from({ length: 10 }, () => verify(client, phone, proof)));
      assert.equal(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers.map((a) => a.status)));
      for (const answer of answers) if (answer.status !== 200) assert.ok(answer.status === 401 || answer.status === 409, `${answer.status}`);
      await t.settle();
      const claimed = (await t.app.eventStore.readStream(await claimStream(t, phone))).filter((e) => e.type === 'PhoneClaimed');
      assert.equal(claimed.length, 1, 'one account holds the number');
    });

    it("a code and its challenge are their own number's only, and end after five minutes", async () => {
      const phone = newNumber();
      const other = newNumber();
      const proof = await codeSentTo(phone);
      const otherProof = await codeSentTo(other);
      const client = clientAt(port, newAddress());
      const elsewhere = await verify(client, other, { ...otherProof, code: proof.code === otherProof.code ? wrongFor(proof.code) : proof.code });
      assert.deepEqual([elsewhere.status, elsewhere.body.code], [401, 'phone_code_wrong'], "another number's code");
      const borrowed = await verify(client, other, { ...proof, code: otherProof.code });
      assert.deepEqual([borrowed.status, borrowed.body.code], [401, 'phone_code_wrong'], "another number's challenge");
      later(PHONE_SIGN_IN.codeTtlSeconds + 1);
      const late = await verify(client, phone, proof);
      assert.deepEqual([late.status, late.body.code], [401, 'phone_code_expired']);
    });

    it('a new code waits 30 s whoever asks, and replaces the last: the replaced one signs nobody in, with its challenge or the new one', async () => {
      const phone = newNumber();
      const first = await codeSentTo(phone);
      const soon = await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: phone });
      assert.deepEqual([soon.status, soon.body.code], [429, 'phone_resend_wait']);
      const wait = Number(soon.headers['retry-after']);
      assert.ok(wait > 0 && wait <= PHONE_SIGN_IN.resendAfterSeconds, `Retry-After ${wait}`);
      later(wait);
      const second = await codeSentTo(phone);
      const client = clientAt(port, newAddress());
      const replaced = await verify(client, phone, first);
      assert.deepEqual([replaced.status, replaced.body.code], [401, 'phone_code_wrong'], 'the replaced code with its challenge');
      if (second.code !== first.code) assert.equal((await verify(client, phone, { ...second, code: first.code })).status, 401, 'the replaced code with the new challenge');
      assert.equal((await verify(client, phone, second)).status, 200);
    });
  });

  describe('making the server send codes', () => {
    it('X-Forwarded-For does not give a client new addresses: twenty codes an hour from one connection address, whatever the header says', async () => {
      const from = newAddress();
      const numbers = Array.from({ length: PHONE_SIGN_IN.codesPerAddressPerHour + 1 }, newNumber);
      const statuses: number[] = [];
      for (const [i, phone] of numbers.entries()) {
        const answer = await clientAt(port, from, { 'X-Forwarded-For': `203.0.113.${i + 1}` }).post(SIGN_IN_START, { phone_number: phone });
        statuses.push(answer.status);
        if (answer.status === 429) {
          assert.equal(answer.body.code, 'phone_rate_limited');
          assert.ok(Number(answer.headers['retry-after']) > 0);
        }
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerAddressPerHour).fill(200), 429]);
      assert.equal(outbox(numbers.at(-1)!).length, 0, 'the refused one was sent nothing');
      assert.equal((await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: newNumber() })).status, 200, 'another address has its own budget');
    });

    it('one address has a number sent five codes an hour; spending each at once is no way past the wait, which doubles; an hour on, again', async () => {
      const phone = newNumber();
      const client = clientAt(port, newAddress());
      const statuses: number[] = [];
      const waits: number[] = [];
      for (let i = 0; i <= PHONE_SIGN_IN.codesPerNumberAndAddressPerHour; i++) {
        let started = await client.post(SIGN_IN_START, { phone_number: phone });
        if (i > 0) {
          assert.deepEqual([started.status, started.body.code], [429, 'phone_resend_wait'], 'a code whose tries were spent is no shortcut');
          waits.push(Number(started.headers['retry-after']));
          later(waits.at(-1)!);
          started = await client.post(SIGN_IN_START, { phone_number: phone });
        }
        statuses.push(started.status);
        if (started.status !== 200) {
          assert.equal(started.body.code, 'phone_rate_limited');
          break;
        }
        const proof = { code: latestCode(phone), challenge: String(started.body.challenge) };
        for (let k = 0; k < PHONE_SIGN_IN.triesPerAddress; k++) {
          const tried = await verify(client, phone, { ...proof, code: wrongFor(proof.code) });
          assert.equal(tried.body.code, 'phone_code_wrong');
        }
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerNumberAndAddressPerHour).fill(200), 429]);
      assert.deepEqual(waits, [30, 60, 120, 240, 480]);
      assert.equal(outbox(phone).length, PHONE_SIGN_IN.codesPerNumberAndAddressPerHour);
      later(3600 + 1);
      assert.equal((await client.post(SIGN_IN_START, { phone_number: phone })).status, 200);
    });

    it('a landline, a short number or junk is refused and sent nothing', async () => {
      const client = clientAt(port, newAddress());
      const before = t.app.outbox!.list({ limit: 10_000 }).length;
      for (const input of ['+91 22 2345 6789', '12345', 'call me maybe', '+91 98765 4321 0000 1']) {
        const answer = await client.post(SIGN_IN_START, { phone_number: input });
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
      const signedIn = await signedInBy(typed);
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      const user = signedIn.body.user as { user_id: string; account_type: string };
      assert.notEqual(user.user_id, doctor.user_id);
      assert.equal(user.account_type, 'patient');
      const me = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(signedIn)));
      assert.equal(me.body.email, null, "nothing of the doctor's account");
      assert.equal((await spec.read((http) => http.get('/api/v1/users/me').set(doctor.auth))).body.account_type, 'doctor');
    });

    it('another account cannot take a held number, even with a code for it and its challenge; the holder still signs in', async () => {
      const phone = newNumber();
      const holder = await holderOf(phone);
      const other = await t.createUser('patient');
      const client = clientAt(port, newAddress(), other.auth);
      const taken = await verify(client, phone, await codeSentTo(phone, client, ADD_START), ADD_VERIFY);
      assert.deepEqual([taken.status, taken.body.code], [409, 'phone_taken']);
      assert.equal(await verifiedPhoneOf(other), null);
      const signedIn = await signedInBy(phone);
      assert.equal((signedIn.body.user as { user_id: string }).user_id, holder.user_id);
    });

    it("an erasure frees the number: its next holder is a new patient who sees nothing of the erased one's, and the claim no longer names them", async () => {
      const phone = newNumber();
      const erased = await holderOf(phone);
      await t.http.put('/api/v1/users/me/messaging').set(erased.auth).send({ channels: { email: false, sms: true, whatsapp: false }, time_zone: 'Asia/Dubai' }).expect(200);
      await t.http.post('/api/v1/users/me/erasure').set(erased.auth).expect(200);
      const claims = (await t.app.eventStore.readStream(await claimStream(t, phone))).map((e) => e.data as { user_id: string; phone_number: string });
      assert.deepEqual(claims.map((c) => [c.user_id, c.phone_number]), [[ERASED_VALUE, ERASED_VALUE]]);

      const signedIn = await signedInBy(phone);
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
      const refused = await signedInBy(phone);
      assert.deepEqual([refused.status, refused.body.code], [403, 'account_disabled']);
      const claims = (await t.app.eventStore.readStream(await claimStream(t, phone))).map((e) => (e.data as { user_id: string }).user_id);
      assert.deepEqual(claims, [holder.user_id]);
    });
  });

  describe('telling who has an account', () => {
    it('/auth/phone/start answers a held number and a free one alike (status, fields, headers); so does a wrong code', async () => {
      const held = newNumber();
      await holderOf(held);
      const free = newNumber();
      const [a, b] = [await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: held }), await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: free })];
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      assert.deepEqual(startShape(a), startShape(b));
      assert.deepEqual(headerShape(a), headerShape(b));
      assert.equal(a.headers['cache-control'], 'no-store');

      const wrongHeld = await verify(clientAt(port, newAddress()), held, { code: wrongFor(latestCode(held)), challenge: String(a.body.challenge) });
      const wrongFree = await verify(clientAt(port, newAddress()), free, { code: wrongFor(latestCode(free)), challenge: String(b.body.challenge) });
      assert.deepEqual([wrongHeld.status, wrongHeld.body], [wrongFree.status, wrongFree.body]);
    });
  });

  describe("the review's findings: each attack that worked before its fix", () => {
    it('finding 1: a number its holder replaced is freed: it signs in a new patient, not the account that left it, and another account can add it', async () => {
      const [left, kept] = [newNumber(), newNumber()];
      const mover = await holderOf(left);
      await holderOf(kept, 'patient', mover);
      assert.equal(await verifiedPhoneOf(mover), kept);

      // The number is a carrier's to give to someone else: its next owner signs in to an account of their own.
      const newcomer = await signedInBy(left);
      assert.equal(newcomer.status, 200, JSON.stringify(newcomer.body));
      const user = newcomer.body.user as { user_id: string; account_type: string };
      assert.notEqual(user.user_id, mover.user_id);
      assert.equal(user.account_type, 'patient');
      const me = await spec.read((http) => http.get('/api/v1/users/me').set(bearer(newcomer)));
      assert.deepEqual([me.body.name, me.body.email], [left, null], 'a new patient, named by the number');
      assert.equal(((await signedInBy(kept)).body.user as { user_id: string }).user_id, mover.user_id, 'the number kept still signs its holder in');

      const [given, taken] = [newNumber(), newNumber()];
      const giver = await holderOf(given);
      await holderOf(taken, 'patient', giver);
      const taker = await holderOf(given);
      assert.equal(await verifiedPhoneOf(taker), given);
      assert.equal(await verifiedPhoneOf(giver), taken);
      assert.equal(((await signedInBy(given)).body.user as { user_id: string }).user_id, taker.user_id);
    });

    it("finding 2: tries without the code's challenge tell nothing of the code and spend none of its tries: the owner signs in after 30 from 5 addresses", async () => {
      const phone = newNumber();
      const owner = clientAt(port, newAddress());
      const proof = await codeSentTo(phone, owner);
      const neverSent = newNumber();
      const used = newNumber();
      assert.equal((await signedInBy(used)).status, 200);

      const answers: Answer[] = [];
      for (let a = 0; a < 5; a++) {
        const guesser = clientAt(port, newAddress());
        for (let i = 0; i < 6; i++) answers.push(await verify(guesser, phone, { code: String(a * 6 + i).padStart(6, '0'), challenge: madeUpChallenge() }));
      }
      const prober = clientAt(port, newAddress());
      answers.push(await verify(prober, phone, { code: proof.code, challenge: madeUpChallenge() }));
      for (const answer of answers) assert.deepEqual([answer.status, answer.body.code], [401, 'phone_code_wrong'], 'the right code without its challenge too');
      // The same answer whether the number has a live code, never had one, or had its code used.
      for (const other of [neverSent, used]) {
        const probed = await verify(prober, other, { code: '123456', challenge: madeUpChallenge() });
        assert.deepEqual([probed.status, probed.body], [answers[0]!.status, answers[0]!.body], other === used ? 'a used code' : 'no code');
      }
      const probedLive = await verify(prober, phone, { code: '123456', challenge: madeUpChallenge() });
      assert.deepEqual(headerShape(probedLive), headerShape(await verify(prober, neverSent, { code: '123456', challenge: madeUpChallenge() })));
      // No challenge at all is refused before any code is looked at: a 422, whatever the number's state.
      const bare = await prober.post(SIGN_IN_VERIFY, { phone_number: phone, code: proof.code });
      assert.deepEqual([bare.status, bare.body.code], [422, 'validation_failed']);
      const bareNeverSent = await prober.post(SIGN_IN_VERIFY, { phone_number: neverSent, code: proof.code });
      assert.deepEqual([bareNeverSent.status, bareNeverSent.body], [bare.status, bare.body]);
      const tried = (await t.app.eventStore.readStream(await codeStream(t, phone))).filter((e) => e.type === 'PhoneSignInCodeTried');
      assert.equal(tried.length, 0, 'nothing counted against the code');

      const signedIn = await verify(owner, phone, proof);
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    });

    it('finding 3: codes to a number come ever slower whoever asks (30 s, 60 s, 120 s...), a spent code no shortcut: in an hour, 7 reach it from 20 addresses', async () => {
      const phone = newNumber();
      const hourEnds = now.getTime() + 3_600_000;
      const waits: number[] = [];
      let sent = 0;
      for (;;) {
        const client = clientAt(port, newAddress());
        const asked = await client.post(SIGN_IN_START, { phone_number: phone });
        if (asked.status === 200) {
          sent += 1;
          // The asker spends the code's tries at once (as a flood would to skip the wait): no shortcut.
          for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) await verify(client, phone, { code: wrongFor(latestCode(phone)), challenge: String(asked.body.challenge) });
          continue;
        }
        assert.deepEqual([asked.status, asked.body.code], [429, 'phone_resend_wait']);
        const wait = Number(asked.headers['retry-after']);
        waits.push(wait);
        if (now.getTime() + wait * 1000 >= hourEnds) break;
        later(wait);
      }
      assert.deepEqual(waits, [30, 60, 120, 240, 480, 960, 1920]);
      assert.equal(sent, 7);
      assert.equal(outbox(phone).length, 7);
      assert.ok(sent <= PHONE_SIGN_IN.codesPerNumberPerHour);
    });

    it('finding 3: ten codes an hour reach one number, however many addresses ask, even when each is used at once to skip the wait', async () => {
      // SMS pumping: the attacker receives the codes (a number of his own) and uses each, which lets the next come at once.
      const phone = newNumber();
      const statuses: number[] = [];
      let retryAfter = 0;
      for (let i = 0; i <= PHONE_SIGN_IN.codesPerNumberPerHour; i++) {
        const client = clientAt(port, newAddress());
        const started = await client.post(SIGN_IN_START, { phone_number: phone });
        statuses.push(started.status);
        if (started.status !== 200) {
          assert.equal(started.body.code, 'phone_rate_limited');
          retryAfter = Number(started.headers['retry-after']);
          break;
        }
        const signedIn = await verify(client, phone, { code: latestCode(phone), challenge: String(started.body.challenge) });
        assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      }
      assert.deepEqual(statuses, [...Array<number>(PHONE_SIGN_IN.codesPerNumberPerHour).fill(200), 429]);
      assert.equal(outbox(phone).length, PHONE_SIGN_IN.codesPerNumberPerHour, 'the refused one was sent nothing');
      assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
      later(retryAfter);
      assert.equal((await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: phone })).status, 200, 'once the hour has passed');
    });

    it('one address makes 30 code checks an hour over all numbers: spreading guesses over many codes gets no more', async () => {
      const guesser = clientAt(port, newAddress());
      const answers: Answer[] = [];
      const numbers = Array.from({ length: 7 }, newNumber);
      for (const phone of numbers) {
        const proof = await codeSentTo(phone, guesser);
        for (let i = 0; i < PHONE_SIGN_IN.triesPerAddress; i++) answers.push(await verify(guesser, phone, { ...proof, code: wrongFor(proof.code) }));
      }
      assert.deepEqual(
        answers.map((a) => a.body.code),
        [...Array<string>(PHONE_SIGN_IN.triesPerAddressPerHour).fill('phone_code_wrong'), ...Array<string>(answers.length - PHONE_SIGN_IN.triesPerAddressPerHour).fill('phone_code_tries')],
      );
      const last = numbers.at(-1)!;
      const tried = (await t.app.eventStore.readStream(await codeStream(t, last))).filter((e) => e.type === 'PhoneSignInCodeTried');
      assert.equal(tried.length, 0, 'the refused checks were not weighed');
    });

    it('finding 4: /users/me/phone/start answers a number another account holds exactly as a free one; the code proves the phone before the answer tells', async () => {
      const held = newNumber();
      await holderOf(held);
      const free = newNumber();
      const asker = await t.createUser('patient');
      const a = await clientAt(port, newAddress(), asker.auth).post(ADD_START, { phone_number: held });
      const b = await clientAt(port, newAddress(), asker.auth).post(ADD_START, { phone_number: free });
      assert.deepEqual([a.status, b.status], [200, 200], JSON.stringify([a.body, b.body]));
      assert.deepEqual(startShape(a), startShape(b));
      assert.deepEqual(headerShape(a), headerShape(b));
      const wrongHeld = await verify(clientAt(port, newAddress(), asker.auth), held, { code: wrongFor(latestCode(held)), challenge: String(a.body.challenge) }, ADD_VERIFY);
      const wrongFree = await verify(clientAt(port, newAddress(), asker.auth), free, { code: wrongFor(latestCode(free)), challenge: String(b.body.challenge) }, ADD_VERIFY);
      assert.deepEqual([wrongHeld.status, wrongHeld.body], [wrongFree.status, wrongFree.body]);
    });

    it('finding 5: a Nigerian or a US mobile number is refused (422) and sent nothing, to sign in or to add', async () => {
      const asker = await t.createUser('patient');
      const before = t.app.outbox!.list({ limit: 10_000 }).length;
      for (const foreign of FOREIGN_MOBILES) {
        const started = await clientAt(port, newAddress()).post(SIGN_IN_START, { phone_number: foreign });
        assert.deepEqual([started.status, started.body.code], [422, 'phone_invalid'], foreign);
        const added = await clientAt(port, newAddress(), asker.auth).post(ADD_START, { phone_number: foreign });
        assert.deepEqual([added.status, added.body.code], [422, 'phone_invalid'], foreign);
        const verified = await verify(clientAt(port, newAddress()), foreign, { code: '123456', challenge: madeUpChallenge() });
        assert.deepEqual([verified.status, verified.body.code], [422, 'phone_invalid'], foreign);
      }
      assert.equal(t.app.outbox!.list({ limit: 10_000 }).length, before, 'nothing sent');
    });

    it("finding 7: a doctor's name in a patient's message carries no link, no domain and no comma", async () => {
      const doctor = await spec.given.doctor({ name: 'Dr. Kavya Rao' });
      await t.http.put('/api/v1/users/me').set(doctor.auth).send({ name: LURE_NAME }).expect(200);
      const patient = await spec.given.patient();
      const phone = newNumber();
      await holderOf(phone, 'patient', patient);
      await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: false, sms: true, whatsapp: false } }).expect(200);
      await spec.given.appointment({ doctor, patient, confirmed: true });
      const approved = () => outbox(phone).filter((m) => m.kind === 'appointment_approved');
      await eventually(async () => assert.equal(approved().length, 1), 15_000);
      const [sms] = approved();
      assert.equal(sms!.channel, 'sms');
      const said = doctorIn(sms!.text);
      assert.match(said, /^Rao\. Refund pending pay at /, sms!.text);
      assert.ok(said.length <= 40, `${said.length} characters`);
      // The message's own date has a comma ("9 Dec, 9:00 am"): the name's is what must be gone.
      for (const lure of ['evil.example', '://', '/r', ',']) assert.ok(!said.includes(lure), `the name says ${lure}: ${sms!.text}`);
      assert.ok(!sms!.text.includes('evil.example'), sms!.text);
    });

    it("finding 7, all of it: the patient's message says no 'https' at all", async () => {
      const doctor = await spec.given.doctor({ name: 'Dr. Kavya Rao' });
      await t.http.put('/api/v1/users/me').set(doctor.auth).send({ name: LURE_NAME }).expect(200);
      const patient = await spec.given.patient();
      const email = String((await spec.read((http) => http.get('/api/v1/users/me').set(patient.auth))).body.email);
      await spec.given.appointment({ doctor, patient, confirmed: true });
      const approved = () => t.app.outbox!.list({ limit: 10_000 }).filter((m) => m.kind === 'appointment_approved' && m.to === email);
      await eventually(async () => assert.equal(approved().length, 1), 15_000);
      const [message] = approved();
      assert.ok(!message!.text.includes('https'), message!.text);
    });

    it('finding 8: an operator with a verified number is refused sign-in by it (403), and given no session', async () => {
      const phone = newNumber();
      const operator = await holderOf(phone, 'admin');
      assert.equal(await verifiedPhoneOf(operator), phone);
      const refused = await signedInBy(phone);
      assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden_role']);
      assert.equal(refused.body.access_token, undefined);
      assert.equal(refused.body.refresh_token, undefined);
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
        const code = isOneTimeCode(entry.kind) ? codeIn(entry.text) : undefined;
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
      await holderOf(patientPhone, 'patient', patient);
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

    it('the stored log holds no code, challenge, number, e-mail address or message text in clear, and the debug logs none of them either', async () => {
      await t.settle();
      assert.ok(challengesAnswered.length > 20, 'the cases before were answered challenges');
      const sent = t.app.outbox!.list({ limit: 10_000 });
      assert.ok(sent.length > 20, 'the cases before sent messages');
      const addresses = new Set(sent.map((m) => m.to));
      const numbers = [...addresses].filter((to) => to.startsWith('+91'));
      const needles = [
        ...[...addresses].filter((to) => to.includes('@')),
        ...numbers,
        ...numbers.map((n) => n.slice(3)),
        ...sent.map((m) => m.text),
        ...challengesAnswered,
        'Zebrastripe',
        'Yakbutter',
        'Narwhal',
      ];
      const codes = sent.filter((m) => isOneTimeCode(m.kind)).map((m) => codeIn(m.text)!);
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

  it("five wrong tries at a code from one /64, however many of its addresses try; the right code from another /64 still signs in", async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const phone = newNumber();
      const started = await t.http.post(SIGN_IN_START).set('X-Forwarded-For', '2001:db8:5:5::1').send({ phone_number: phone }).expect(200);
      const proof = { code: codeIn(t.app.outbox!.list({ recipient: phone, limit: 1 })[0]!.text)!, challenge: String(started.body.challenge) };
      const wrong = proof.code === '000000' ? '111111' : '000000';
      const codes: unknown[] = [];
      for (let i = 1; i <= PHONE_SIGN_IN.triesPerAddress + 1; i++) {
        codes.push((await t.http.post(SIGN_IN_VERIFY).set('X-Forwarded-For', `2001:db8:6:6::${i.toString(16)}`).send({ phone_number: phone, ...proof, code: wrong })).body.code);
      }
      assert.deepEqual(codes, [...Array<string>(PHONE_SIGN_IN.triesPerAddress).fill('phone_code_wrong'), 'phone_code_tries']);
      await t.http.post(SIGN_IN_VERIFY).set('X-Forwarded-For', '2001:db8:6:7::1').send({ phone_number: phone, ...proof }).expect(200);
    } finally {
      await t.close();
    }
  });

  it('thirty code checks an hour from one /64, however many of its addresses check; another /64 has its own', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const phone = newNumber();
      const check = (address: string) => t.http.post(SIGN_IN_VERIFY).set('X-Forwarded-For', address).send({ phone_number: phone, code: '123456', challenge: madeUpChallenge() });
      const codes: unknown[] = [];
      for (let i = 1; i <= PHONE_SIGN_IN.triesPerAddressPerHour + 1; i++) codes.push((await check(`2001:db8:9:9::${i.toString(16)}`)).body.code);
      assert.deepEqual(codes, [...Array<string>(PHONE_SIGN_IN.triesPerAddressPerHour).fill('phone_code_wrong'), 'phone_code_tries']);
      assert.equal((await check('2001:db8:9:a::1')).body.code, 'phone_code_wrong');
    } finally {
      await t.close();
    }
  });
});

describe('numbers of other countries (PHONE_COUNTRIES)', () => {
  it('the foreign numbers refused by default are sent codes where PHONE_COUNTRIES names their countries: the refusal is the country rule', async () => {
    const t = await startTestApp({ env: { PHONE_COUNTRIES: 'IN,NG,US' } });
    try {
      for (const foreign of FOREIGN_MOBILES) {
        const started = await t.http.post(SIGN_IN_START).send({ phone_number: foreign });
        assert.equal(started.status, 200, `${foreign}: ${started.text}`);
        assert.equal(t.app.outbox!.list({ recipient: String(started.body.phone_number), limit: 10 }).length, 1, foreign);
      }
      assert.equal((await t.http.post(SIGN_IN_START).send({ phone_number: '+44 7400 123456' })).body.code, 'phone_invalid', 'a country not named');
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
        SMS_TEMPLATE_IDS: JSON.stringify({ sign_in_code: '1107000000000000001', phone_verification_code: '1107000000000000003', appointment_approved: '1107000000000000002' }),
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
    const { challenge } = (await t.http.post('/api/v1/users/me/phone/start').set(patient.auth).send({ phone_number: phone }).expect(200)).body as { challenge: string };
    const code = codeIn(form(lastSmsTo(phone)!).get('Body')!)!;
    await t.http.post('/api/v1/users/me/phone/verify').set(patient.auth).send({ phone_number: phone, code, challenge }).expect(200);
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

  it('finding 6: behind a proxy on this machine (TRUST_PROXY=loopback), a request that came through it is told the outbox does not exist', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      await t.http.post(SIGN_IN_START).send({ phone_number: newNumber() }).expect(200);
      assert.equal((await t.http.get('/api/v1/dev/outbox').expect(200)).body.length, 1, 'this machine, through no proxy');
      const proxied: Array<[string, string]> = [
        ['X-Forwarded-For', '203.0.113.9'],
        ['X-Forwarded-For', '127.0.0.1'],
        ['Forwarded', 'for=203.0.113.9'],
        ['X-Real-IP', '203.0.113.9'],
      ];
      for (const [header, value] of proxied) {
        const far = await t.http.get('/api/v1/dev/outbox').set(header, value);
        assert.deepEqual([far.status, far.body.code], [404, 'not_found'], `${header}: ${value}`);
        assert.equal(far.text.includes('sign_in_code'), false);
      }
    } finally {
      await t.close();
    }
  });

  it('production refuses it as the only channel; with a channel configured it is not found', async () => {
    const production = {
      NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_SECRET: 'x'.repeat(40), DATA_MASTER_KEY: 'A'.repeat(64),
      RAZORPAY_KEY_ID: 'rzp_test_0000', RAZORPAY_KEY_SECRET: 'key-secret-0000', RAZORPAY_WEBHOOK_SECRET: 'webhook-secret-0000',
    };
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
