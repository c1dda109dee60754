import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { CONSENT_NOTICE_VERSION, DEFAULT_TIMEZONE, streamCategory } from '@telemed/contracts';
import { findUserIdByEmail } from '@telemed/command';
import type { DeclaredRoute } from '@telemed/platform';
import { slotInput, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';
import { REQUEST_KINDS, callersFor, encodeSegment, requestArbitrary, schemasAccept, type CallerRole, type GeneratedRequest, type RequestKind, type RouteHints } from './route-requests';
import type { Path } from './zod-arbitrary';

/**
 * Property tests of every route, generated from its zod schemas: valid, near-valid (one value nudged past what it
 * allows), prototype-key and hostile requests, sent as a caller the route's policy lets through. Whatever comes,
 * the answer is never a 5xx; a refusal stores nothing; a success answers what the route's response schema says,
 * and only for input the route's schemas accept. PROPERTY_SEED and PROPERTY_RUNS override the seed and the runs.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20_240_611);
const RUNS: Record<RequestKind, number> = { valid: 12, 'near-valid': 16, 'prototype-key': 4, hostile: 6 };
const RUN_SCALE = Number(process.env.PROPERTY_RUNS ?? 1);

const routeName = (r: Pick<DeclaredRoute, 'method' | 'path'>) => `${r.method.toUpperCase()} ${r.path}`;

describe('properties of every route, generated from its schemas', () => {
  let t: TestApp;
  const users = {} as Record<Exclude<CallerRole, 'anonymous'>, TestUser>;
  let institutionId = '';
  const slotIds: number[] = [];
  const appointmentIds: string[] = [];
  const existingEmails = ['admin@property.in', 'doctor@property.in', 'desk@property.in'];
  const tally = new Map<string, Map<number, number>>();

  async function tokenFor(email: string, accountType: 'patient' | 'doctor'): Promise<TestUser> {
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const token = await t.app.tokens.issue({ user_id, account_type: accountType });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  }

  before(async () => {
    const port = await freePort();
    t = await startTestApp({ env: { LOGIN_RATE_LIMIT_PER_ADDRESS: '100000', LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    await t.app.listen(port, '127.0.0.1');
    users.patient = await t.createUser('patient');
    users.platformAdmin = await t.createUser('admin');
    for (const user of [users.patient, users.platformAdmin, await t.createUser('doctor')]) {
      existingEmails.push((await t.http.get('/api/v1/users/me').set(user.auth).expect(200)).body.email as string);
    }
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(users.platformAdmin.auth)
      .send({
        name: 'Property Clinic',
        slug: 'property-clinic',
        address: 'MG Road',
        phone: '+91 80 1234 5678',
        email: 'desk@property.in',
        staff: [
          { name: 'Admin', email: 'admin@property.in', phone: '+91 90000 10000', account_type: 'ADMIN' },
          { name: 'Dr. Property', email: 'doctor@property.in', phone: '+91 90000 10001', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    institutionId = created.body.id as string;
    await t.settle();
    users.institutionAdmin = await tokenFor('admin@property.in', 'patient');
    users.doctor = await tokenFor('doctor@property.in', 'doctor');
    await reopenSlots();
    for (const slot_id of slotIds.splice(0, 6)) {
      const res = await t.http.post('/api/v1/appointments').set(users.patient.auth).send({ slot_id, notes: 'Fever since Monday' }).expect(201);
      appointmentIds.push(res.body.appointment_id as string);
    }
    await t.settle();
  });
  after(() => t?.close());

  /**
   * Publishes the fixture slots again (a generated availability replaces the doctor's, withdrawing them) and
   * keeps the ids of those still open, so that valid requests to book one can succeed.
   */
  async function reopenSlots(): Promise<void> {
    const day = DateTime.now().setZone(DEFAULT_TIMEZONE).plus({ days: 2 }).toISODate()!;
    const times = ['07:00', '07:30', '08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30'];
    slotIds.splice(0, slotIds.length, ...(await t.openSlots(users.doctor, times.map((time) => ({ date: day, time })))));
  }

  /** Fixture values where a random one would only ever be "not found"; mixed with generated ones. */
  const hints: RouteHints = (route) => (path: Path, generated) => {
    const [where, ...rest] = path;
    const key = rest.at(-1);
    const parent = rest.at(-2);
    const mix = (...fixtures: unknown[]) => (fixtures.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...fixtures) }, { weight: 1, arbitrary: generated() }) : undefined);
    if (where === 'params') {
      // Never a fixture where success would destroy it (a deactivated caller, a disbanded institution).
      if (route.method === 'delete' && (route.path === '/admin/users/:user_id' || route.path === '/institutions/:id')) return undefined;
      if (key === 'id' && route.path.startsWith('/appointments')) return mix(...appointmentIds);
      if (key === 'id' && route.path.startsWith('/institutions')) return mix(institutionId);
      if (key === 'doctor_id') return mix(users.doctor.user_id);
      if (key === 'slot_id') return mix(...slotIds);
      if (key === 'notice_version') return mix(CONSENT_NOTICE_VERSION);
      // Clinical records: the fixture appointments and patient, so that requests get past "not found".
      if (key === 'appointment_id') return mix(...appointmentIds);
      if (key === 'patient_id') return mix(users.patient.user_id);
      return undefined;
    }
    if (key === 'slot_id') return mix(...slotIds);
    if (key === 'doctor_id') return mix(users.doctor.user_id);
    // Addresses and slugs that exist take the other branches: invitations, conflicts, accounts of another kind.
    if (key === 'email') return mix(...existingEmails);
    if (key === 'slug') return mix('property-clinic');
    if (key === 'notice_version') return mix(CONSENT_NOTICE_VERSION);
    if (where === 'query' && key === 'status') return mix('requested', 'confirmed,completed', 'requested,confirmed,rejected,cancelled,completed');
    if (where === 'query' && key === 'include_past') return mix('true', 'false');
    if (key === 'timezone' || key === 'timezone_str') return mix('Asia/Kolkata', 'UTC', 'Europe/London', 'America/New_York', 'Asia/Kathmandu');
    if (parent === 'slots' && typeof key === 'number') {
      const start = DateTime.now().setZone(DEFAULT_TIMEZONE).startOf('day');
      const valid = fc.tuple(fc.integer({ min: -1, max: 10 }), fc.integer({ min: 0, max: 32 })).map(([days, row]) => {
        const at = start.plus({ days, minutes: 360 + 30 * row });
        return slotInput(at.toISODate()!, at.toFormat('HH:mm'));
      });
      return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: generated() });
    }
    return undefined;
  };

  /** Routes whose success ends the caller's account: each request comes from a new person of the same kind. */
  const DESTROYS_CALLER = new Set(['POST /users/me/erasure']);
  const throwaway = (role: Exclude<CallerRole, 'anonymous'>) => t.createUser(role === 'doctor' ? 'doctor' : role === 'platformAdmin' ? 'admin' : 'patient');

  async function send(route: DeclaredRoute, request: GeneratedRequest) {
    const path = route.path.replace(/:(\w+)/g, (_m, name: string) => encodeSegment(request.params[name] ?? ''));
    const url = `/api/v1${path}${request.query ? `?${request.query}` : ''}`;
    const role = callersFor(route.policy)[request.caller]!;
    const correlationId = randomUUID();
    let req = t.http[route.method](url).set('X-Correlation-Id', correlationId);
    if (role !== 'anonymous') req = req.set((DESTROYS_CALLER.has(routeName(route)) ? await throwaway(role) : users[role]).auth);
    // Once the log is quiet (what earlier requests set going is written), so what follows the head is this request's doing.
    await t.settle();
    const before = await t.app.eventStore.headPosition();
    const res = request.body === undefined ? await req : await req.set('Content-Type', 'application/json').send(request.body);
    return { res, role, before, correlationId, url };
  }

  /**
   * What a request stored, read once the log is quiet again (the process managers have answered it): the events after
   * `after` under its correlation id, and any address claimed meanwhile (a registration claims one under a correlation id
   * of its own). A sweep's writes in the window carry neither.
   */
  async function eventsOf(correlationId: string, after: number): Promise<string[]> {
    await t.settle();
    const events = await t.app.eventStore.readAll({ fromPosition: after, limit: 10_000 });
    return events
      .filter((e) => (e.metadata as { correlation_id?: string }).correlation_id === correlationId || streamCategory(e.stream_id) === 'email')
      .map((e) => `${streamCategory(e.stream_id)} ${e.type}`);
  }

  /** The property itself: one request, every rule. Returns a description of what broke, or null. */
  async function check(route: DeclaredRoute, request: GeneratedRequest): Promise<string | null> {
    const { res, role, before, correlationId, url } = await send(route, request);
    const counts = tally.get(routeName(route)) ?? new Map<number, number>();
    counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
    tally.set(routeName(route), counts);
    const where = `${routeName(route)} as ${role}: ${url.slice(0, 200)} ${request.body?.slice(0, 200) ?? ''} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
    if (res.status >= 500) return `a 5xx: ${where}`;
    if (request.kind === 'prototype-key' && res.status < 400) return `a prototype key was accepted (and dropped): ${where}`;
    if (res.status >= 400) {
      // 431 comes from node's HTTP parser (a URL past its header limit), before the app sees the request.
      if (res.status !== 431 && (!res.body || res.body.detail === undefined)) return `a refusal without a detail: ${where}`;
      // Only the access audit of what the refusal's answer showed may be written (a 409 that says an address belongs to
      // an account of another kind reads that account).
      const stored = (await eventsOf(correlationId, before)).filter((event) => !event.endsWith(' PersonalDataAccessed'));
      if (stored.length > 0) return `a refusal stored ${stored.join(', ')}: ${where}`;
      return null;
    }
    // An empty path parameter leaves a URL that is another route's (`/institutions/invitations/`): only the rules above apply.
    if (Object.values(request.params).some((v) => v === '')) return null;
    if (route.multipart) return `an upload route succeeded without a multipart body: ${where}`;
    if (!schemasAccept(route, request)) return `input the route's schemas refuse was accepted: ${where}`;
    if (res.status !== route.successStatus) return `success with ${res.status} instead of ${route.successStatus}: ${where}`;
    // A download the JSON schema does not describe (the export as a zip, `?format=zip`): an attachment of that type.
    if (res.type === 'application/zip') return /^attachment; /.test(String(res.headers['content-disposition'])) ? null : `a zip that is not an attachment: ${where}`;
    if (route.response) {
      const parsed = route.response.safeParse(res.body);
      if (!parsed.success) return `a success body the response schema refuses (${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join('.')}): ${where}`;
    }
    return null;
  }

  it('every route has a generator for each kind of request (new routes are picked up by themselves)', () => {
    const missing: string[] = [];
    for (const route of t.app.routes) {
      try {
        requestArbitrary(route, hints, callersFor(route.policy).length);
      } catch (error) {
        missing.push(`${routeName(route)}: ${(error as Error).message}`);
      }
    }
    assert.ok(t.app.routes.length > 20, 'the app declares its routes');
    assert.deepEqual(missing, []);
  });

  /**
   * Upload routes read a multipart/form-data body, which the generator does not write (its bodies are JSON): for them
   * no valid body is generated, so their requests test only the refusals (no body, or JSON: 415; bad parameters), and
   * their multipart bodies are the records API tests' to cover. Said in the output, not skipped silently.
   */
  it('says which routes take a body the generator cannot write', () => {
    const uploads = t.app.routes.filter((r) => r.multipart);
    for (const route of uploads) {
      console.log(`${routeName(route)}: multipart bodies not generated (the generator writes JSON); its requests check the refusals only, and tests/src/api/records*.test.ts its uploads`);
    }
    assert.ok(uploads.every((r) => !r.body), 'a route reads multipart or JSON, not both');
  });

  for (const kind of REQUEST_KINDS) {
    it(`${kind} requests: never a 5xx, a refusal stores nothing, a success fits its response schema`, async () => {
      const failures: string[] = [];
      for (const route of t.app.routes) {
        await reopenSlots();
        const arbitrary = requestArbitrary(route, hints, callersFor(route.policy).length)[kind];
        const seed = SEED + [...routeName(route)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
        const result = await fc.check(
          fc.asyncProperty(arbitrary, async (request) => {
            const broken = await check(route, request);
            if (broken) throw new Error(broken);
          }),
          { seed, numRuns: Math.max(1, Math.round(RUNS[kind] * RUN_SCALE)), endOnFailure: true },
        );
        if (result.failed) {
          failures.push(`${routeName(route)} (seed ${seed}, path ${result.counterexamplePath}): ${(result.errorInstance as Error | undefined)?.message ?? String(result.errorInstance)}`);
        }
      }
      assert.deepEqual(failures, [], `seed ${SEED}: rerun with PROPERTY_SEED=${SEED} to replay`);
    });
  }

  it('prints what the routes answered', () => {
    const lines = [...tally].map(([route, counts]) => `${route}: ${[...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    console.log(`\nStatuses per route (seed ${SEED})\n${lines.join('\n')}\n`);
    assert.ok(tally.size > 0);
  });
});
