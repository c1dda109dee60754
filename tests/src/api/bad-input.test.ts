import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streamCategory } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';

/**
 * Odd, hostile and oversized inputs on every route: always a clear 4xx with a detail, never a 500, nothing written.
 * Each request goes through the spec helper, so "nothing written" is what it and the process managers wrote in answer
 * to it (by its correlation id), whatever a sweep did meanwhile.
 */
describe('bad input never yields a 500 or changes stored data', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let doctor: TestUser;
  let patient: TestUser;
  let admin: TestUser;
  let institutionId: string;
  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
    admin = await t.createUser('admin');
    institutionId = (
      await t.http
        .post('/api/v1/institutions/')
        .set(admin.auth)
        .send({ name: 'Clinic', slug: 'clinic', address: 'Road', phone: '+91 80 1234 5678', email: 'c@c.in', staff: [{ name: 'A', email: 'a@c.in', phone: '+91 90000 00001', account_type: 'ADMIN' }] })
        .expect(201)
    ).body.id;
    await t.settle();
    await t.openSlots(doctor, [{ date: indiaDate(1), time: '07:00' }]);
  });
  after(() => t.close());

  /** Nothing written by the request or in answer to it, and no address claimed (a registration claims it under a correlation id of its own). */
  const nothingWritten = (then: Then): Then => {
    then.expectNoEvents();
    assert.deepEqual(then.unrelated.filter((e) => streamCategory(e.stream_id) === 'email').map((e) => e.stream_id), [], `${then.label}: no address claimed`);
    return then;
  };

  const hostile: unknown[] = [
    null,
    [],
    'text',
    12,
    { slot_id: 1e300, notes: 'x' },
    { slot_id: -1, notes: 'x' },
    { slot_id: Number.MAX_SAFE_INTEGER + 2, notes: 'x' },
    { slot_id: { $gt: 0 }, notes: 'x' },
    { slot_id: 1, notes: { $ne: null } },
    { slot_id: 1, notes: 'x', __proto__: { admin: true } },
    { constructor: { prototype: { polluted: true } } },
    { slots: [{ slot_date: "2030-01-01'; DROP TABLE events;--", start_time: '09:00:00', end_time: '09:30:00' }] },
    { slots: [{ slot_date: '9999-99-99', start_time: '99:99:99', end_time: '00:00:00' }] },
    { doctor_id: '../../etc/passwd' },
    { name: '<script>alert(1)</script>'.repeat(100) },
    { reason: 'r'.repeat(5000) },
    { name: 'X', slug: 'x', address: 'A', phone: '1', email: 'e@e.in', staff: [{ name: 'S', email: 's@s.in', phone: '+91 90000 00000', account_type: 'ROOT' }] },
    { name: 'X', slug: 'ok-slug', address: 'A', phone: '+91 80 1234 5678', email: 'e@e.in', staff: [], role_permissions: { ADMIN: ['everything'] } },
    { name: 'Dr', email: 'd@d.in', phone_number: '+91 90000 00000', specialty: 'ENT', qualification: 'MS', consultation_fee: -1 },
    { email: "' OR 1=1 --", password: { $gt: '' } },
    { token: ['code'] },
  ];
  const routes = (): Array<[string, string, TestUser]> => [
    ['post', '/api/v1/appointments', patient],
    ['post', '/api/v1/schedule-v2/set_availability_v2/', doctor],
    ['post', '/api/v1/users/subscribe', patient],
    ['put', '/api/v1/users/me', patient],
    ['post', '/api/v1/appointments/x/reject', doctor],
    ['post', '/api/v1/appointments/x/cancel', patient],
    ['post', '/api/v1/institutions/', admin],
    ['post', `/api/v1/institutions/${institutionId}/doctors`, admin],
    ['post', '/api/v1/auth/support', patient],
    ['post', '/api/v1/auth/google', patient],
    ['post', '/api/v1/auth/refresh', patient],
  ];

  it('hostile bodies', async () => {
    for (const [method, path, user] of routes()) {
      for (const body of hostile) {
        const res = nothingWritten(
          await spec.when((http) => (method === 'put' ? http.put(path) : http.post(path)).set(user.auth).set('Content-Type', 'application/json').send(JSON.stringify(body))),
        );
        assert.ok(res.status >= 400 && res.status < 500, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)} → ${res.status}`);
        assert.ok(res.body.detail, 'a detail is given');
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('hostile path parameters and queries', async () => {
    const ids = ['%00', '..%2F..%2Fetc', 'a'.repeat(500), '%E2%80%AE', "1'OR'1'='1", '%7B%22%24gt%22%3A%22%22%7D'];
    for (const id of ids) {
      for (const path of [`/api/v1/appointments/${id}/approve`, `/api/v1/appointments/${id}/history`, `/api/v1/doctors/${id}/available-slots`]) {
        const user = path.includes('approve') ? doctor : patient;
        const res = (await spec.when((http) => (path.includes('approve') ? http.post(path) : http.get(path)).set(user.auth))).expectNoEvents();
        assert.ok(res.status >= 400 && res.status < 500, `${path} → ${res.status}`);
      }
    }
    for (const query of ['timezone_str=%00', 'timezone_str=' + 'x'.repeat(100), 'status=requested,$where', 'include_past=yes']) {
      const res = (await spec.when((http) => http.get(`/api/v1/appointments/me?${query}`).set(patient.auth))).expectNoEvents();
      assert.equal(res.status, 422, query);
    }
    // Queries are parsed flat: a bracketed key is just an unknown parameter, never an operator.
    (await spec.when((http) => http.get('/api/v1/appointments/me?timezone_str[$ne]=1').set(patient.auth))).expectStatus(200).expectNoEvents();
  });

  it('a method a path does not take is 405 naming those it takes; OPTIONS lists every service’s methods', async () => {
    // GET is the query service's, POST and DELETE the command service's: the answer names all of them.
    const consents = (await spec.when((http) => http.options('/api/v1/users/me/consents'))).expectStatus(204).expectNoEvents();
    assert.deepEqual(String(consents.headers.allow).split(', ').sort(), ['GET', 'HEAD', 'OPTIONS', 'POST']);
    const refused = (await spec.when((http) => http.put('/api/v1/users/me/consents').set(patient.auth).send({}))).expectStatus(405).expectNoEvents();
    assert.equal(refused.body.detail, `PUT is not accepted here; this address accepts ${consents.headers.allow}`);
    assert.equal(refused.headers.allow, consents.headers.allow);
    // Two declared paths fit `/appointments/me`: the methods of both.
    const mine = (await spec.when((http) => http.delete('/api/v1/appointments/me').set(patient.auth))).expectStatus(405).expectNoEvents();
    assert.ok(String(mine.headers.allow).includes('GET'), mine.headers.allow);
    assert.ok(mine.body.detail.startsWith('DELETE is not accepted here'));
    // Without a token too: the path's methods are no secret (they are in /openapi.json), and nothing runs.
    (await spec.when((http) => http.patch('/api/v1/appointments'))).expectStatus(405).expectNoEvents();
    (await spec.when((http) => http.get('/api/v1/appointments/x/approve').set(doctor.auth))).expectStatus(405).expectNoEvents();
    // A path nobody declared stays 404.
    const unknown = (await spec.when((http) => http.put('/api/v1/no-such-thing'))).expectStatus(404).expectNoEvents();
    assert.ok(unknown.body.detail);
    (await spec.when((http) => http.options('/api/v1/no-such-thing'))).expectStatus(404).expectNoEvents();
  });

  it('a route that takes no body refuses one, other than an empty object', async () => {
    // (A JSON text that is not an object or array, "text" or 12, is refused by the body parser first: 400.)
    for (const body of [[1], [], { slot_id: 1 }]) {
      const res = (await spec.when((http) => http.post('/api/v1/appointments/x/approve').set(doctor.auth).set('Content-Type', 'application/json').send(JSON.stringify(body)))).expectNoEvents();
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.detail[0].msg, API_TEXTS.noBodyTaken);
    }
    // No body, or {} as some clients send: the route runs (this appointment does not exist).
    (await spec.when((http) => http.post('/api/v1/appointments/x/approve').set(doctor.auth))).expectStatus(404).expectNoEvents();
    (await spec.when((http) => http.post('/api/v1/appointments/x/approve').set(doctor.auth).send({}))).expectStatus(404).expectNoEvents();
  });

  /** The token with one character of its signature changed: in the middle, since the last character's low bits are padding. */
  const alteredSignature = (token: string) => {
    const at = token.lastIndexOf('.') + 5;
    return token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
  };

  it('tokens that are not ours', async () => {
    const forged = [
      'Bearer',
      'Bearer ' + Buffer.from('{"alg":"none"}').toString('base64url') + '.' + Buffer.from(JSON.stringify({ sub: patient.user_id, account_type: 'admin' })).toString('base64url') + '.',
      `Bearer ${alteredSignature(patient.token)}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${'a'.repeat(10_000)}`,
    ];
    for (const header of forged) {
      const res = await t.http.get('/api/v1/appointments/me').set('Authorization', header);
      assert.equal(res.status, 401, header.slice(0, 40));
    }
  });
});
