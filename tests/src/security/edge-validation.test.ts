import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type supertest from 'supertest';
import { streamCategory } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/** Regression tests of the issue "dates out of range answer 500; control characters and prototype keys are stored or dropped". */
describe('the edge refuses out-of-range dates, control characters and prototype keys', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let doctor: TestUser;
  let patient: TestUser;
  let admin: TestUser;
  let institutionId: string;
  let slotId: number;
  const institution = (overrides: Record<string, unknown> = {}) => ({
    name: 'Edge Clinic',
    slug: `edge-${Math.random().toString(36).slice(2, 10)}`,
    address: 'MG Road',
    phone: '+91 80 1234 5678',
    email: 'desk@edge.in',
    staff: [{ name: 'Admin', email: `admin-${Math.random().toString(36).slice(2, 10)}@edge.in`, phone: '+91 90000 00001', account_type: 'ADMIN' }],
    ...overrides,
  });

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
    admin = await t.createUser('admin');
    institutionId = (await t.http.post('/api/v1/institutions/').set(admin.auth).send(institution()).expect(201)).body.id as string;
    slotId = (await t.openSlots(doctor, [{ date: indiaDate(1), time: '09:00' }]))[0]!;
    await t.settle();
  });
  after(() => t.close());

  /**
   * Sends a request (on the spec helper, once the log is quiet) and checks it is refused with `status` and stores nothing:
   * nothing under its correlation id, by it or in answer to it, and no address claimed (a registration claims one under a
   * correlation id of its own), whatever a sweep wrote meanwhile.
   */
  async function refused(status: number, send: () => supertest.Test) {
    const res = await spec.when(() => send());
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.ok(res.body.detail, 'a detail is given');
    // Nothing but the access audit of an account the refusal's answer showed (a 409 naming a patient's address as one).
    const stored = [...res.written, ...res.reactions, ...res.unrelated.filter((e) => streamCategory(e.stream_id) === 'email')]
      .map((e) => e.type)
      .filter((type) => type !== 'PersonalDataAccessed');
    assert.deepEqual(stored, [], 'nothing is stored');
    return res.body.detail;
  }
  const availability = (slots: unknown[], timezone?: string) =>
    t.http.post('/api/v1/schedule-v2/set_availability_v2/').set(doctor.auth).send({ slots, ...(timezone ? { timezone } : {}) });

  describe('dates and times', () => {
    it('a slot date before 2020 is 422, not a 500 from the slot id', async () => {
      const detail = await refused(422, () => availability([{ slot_date: '2019-06-01', start_time: '09:00:00', end_time: '09:30:00' }]));
      assert.deepEqual((detail as Array<{ loc: unknown[] }>)[0]!.loc, ['body', 'slots', 0, 'slot_date']);
    });
    it('the first day of 2020 in a zone still in 2019 by UTC is 422 as well', async () => {
      await refused(422, () => availability([{ slot_date: '2020-01-01', start_time: '06:00:00', end_time: '06:30:00' }], 'Pacific/Kiritimati'));
    });
    it('impossible dates and times, a slot ending before it starts, and far-future years are 422', async () => {
      for (const slot of [
        { slot_date: '2030-02-30', start_time: '09:00:00', end_time: '09:30:00' },
        { slot_date: '9999-12-31', start_time: '09:00:00', end_time: '09:30:00' },
        { slot_date: indiaDate(1), start_time: '24:00:00', end_time: '24:30:00' },
        { slot_date: indiaDate(1), start_time: '09:30:00', end_time: '09:00:00' },
      ]) {
        await refused(422, () => availability([slot]));
      }
    });
    it('zones are IANA names: offsets and unknown names are 422', async () => {
      const slot = { slot_date: indiaDate(1), start_time: '10:00:00', end_time: '10:30:00' };
      for (const zone of ['+05:30', 'UTC+5', 'Mars/Olympus', '../../etc/localtime']) await refused(422, () => availability([slot], zone));
      for (const zone of ['+05:30', 'Asia/Kolkata%00']) await refused(422, () => t.http.get(`/api/v1/appointments/me?timezone_str=${encodeURIComponent(zone)}`).set(patient.auth));
    });
    it('slot ids are positive safe integers; appointment filters name known statuses', async () => {
      for (const slot_id of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
        await refused(422, () => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'x' }));
      }
      await refused(422, () => t.http.get('/api/v1/appointments/me?status=requested,deleted').set(patient.auth));
      await refused(422, () => t.http.get(`/api/v1/doctors/?skip=${1e12}`).set(patient.auth));
    });
  });

  describe('control characters', () => {
    const hostile = ['Ravi\u0000', 'Ravi\u001b[31m', 'Ravi\u007f', 'Ravi\u0085', 'Ravi\u202eivaR', 'Ravi\nKumar', 'Ravi\ud800'];
    it('names are refused with them: users, institutions, staff and doctors', async () => {
      for (const name of hostile) {
        await refused(422, () => t.http.put('/api/v1/users/me').set(patient.auth).send({ name }));
        await refused(422, () => t.http.post('/api/v1/institutions/').set(admin.auth).send(institution({ name })));
        await refused(422, () => t.http.post('/api/v1/institutions/').set(admin.auth).send(institution({ staff: [{ ...institution().staff[0], name }] })));
        await refused(422, () =>
          t.http
            .post(`/api/v1/institutions/${institutionId}/doctors`)
            .set(admin.auth)
            .send({ name, email: 'dr@edge.in', phone_number: '+91 90000 00002', specialty: 'ENT', qualification: 'MS', consultation_fee: 100 }),
        );
      }
    });
    it('free text keeps line breaks and tabs but not the rest', async () => {
      for (const notes of ['Fever\u0000', 'Fever\u001b]0;owned\u0007', 'Fever\u202e']) {
        await refused(422, () => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes }));
      }
      await refused(422, () => t.http.post('/api/v1/appointments/x/reject').set(doctor.auth).send({ reason: 'No\u0000' }));
      await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Fever since Monday\n\tworse at night' }).expect(201);
    });
    it('names in the scripts people use are accepted', async () => {
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ name: 'प्रिया शर्मा' }).expect(200);
    });
  });

  describe('refusals found by the property tests store nothing', () => {
    it("an institution whose doctor line names a patient's address is 409 without claiming the slug or provisioning the other staff", async () => {
      const patientEmail = (await t.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.email as string;
      const admin1 = { name: 'New Admin', email: 'new-admin@edge.in', phone: '+91 90000 00003', account_type: 'ADMIN' };
      await refused(409, () => t.http.post('/api/v1/institutions/').set(admin.auth).send(institution({ slug: 'refused-clinic', staff: [admin1, { ...admin1, email: patientEmail, account_type: 'DOCTOR' }] })));
      // The same address as an admin (a patient account) and then as a doctor, in one request.
      await refused(409, () => t.http.post('/api/v1/institutions/').set(admin.auth).send(institution({ slug: 'refused-clinic', staff: [admin1, { ...admin1, account_type: 'DOCTOR' }] })));
    });
  });

  describe('prototype keys', () => {
    it('a __proto__ role is refused, not silently dropped, on the admin route that creates institutions', async () => {
      const body = `{"name":"Proto","slug":"proto-clinic","address":"A","phone":"+91 80 1234 5678","email":"p@p.in","staff":[{"name":"S","email":"s@p.in","phone":"+91 90000 00000","account_type":"ADMIN"}],"role_permissions":{"__proto__":["manage_institution"],"ADMIN":["read"]}}`;
      const detail = await refused(422, () => t.http.post('/api/v1/institutions/').set(admin.auth).set('Content-Type', 'application/json').send(body));
      assert.deepEqual((detail as Array<{ loc: unknown[]; type: string }>)[0], { loc: ['body', 'role_permissions', '__proto__'], msg: 'Keys named __proto__, constructor or prototype are not allowed', type: 'prototype_key' });
    });
    it('constructor and prototype keys at any depth, and in queries, are refused', async () => {
      await refused(422, () => t.http.put('/api/v1/users/me').set(patient.auth).set('Content-Type', 'application/json').send('{"name":"A","constructor":{"prototype":{"x":1}}}'));
      await refused(422, () => availability([{ slot_date: indiaDate(1), start_time: '10:00:00', end_time: '10:30:00', prototype: 1 }]));
      await refused(422, () => t.http.get('/api/v1/appointments/me?__proto__=x').set(patient.auth));
      await refused(422, () => t.http.post('/api/v1/auth/logout').set(patient.auth).set('Content-Type', 'application/json').send('{"__proto__":{"admin":true}}'));
      assert.equal(({} as Record<string, unknown>).admin, undefined);
    });
    it('nesting deeper than any request is refused', async () => {
      await refused(422, () => t.http.put('/api/v1/users/me').set(patient.auth).set('Content-Type', 'application/json').send('{"name":' + '['.repeat(5000) + ']'.repeat(5000) + '}'));
    });
  });
});
