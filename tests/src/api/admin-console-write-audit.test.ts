import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PRIVACY_TEXTS, memberId } from '@telemed/contracts';
import { registerUser, systemContext } from '@telemed/command';
import type supertest from 'supertest';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { auditedReads, withAuditUnwritable, type Access } from '../support/access-audit';

/**
 * The console's writes answer the record they wrote (react-admin shows it): where that record is another person's
 * (a member's name, e-mail and phone, an account), the answer is a read of their personal data, recorded like the
 * console's list and show reads (same resources, purposes and `contact_details` item). It is recorded before the write,
 * so when it cannot be recorded the write is refused with 503 and nothing changes: never shown off the record, never
 * half done.
 */
describe("admin console: writes that answer another person's record are on the access audit", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let operator: TestUser;
  let lata: TestUser;
  let kabir: TestUser;
  let nina: TestUser;
  let institutionId: string;

  /** An account registered under this address (someone the console then invites). */
  async function account(email: string, accountType: 'patient' | 'doctor', name: string): Promise<string> {
    const { user_id } = await registerUser(t.app.eventStore, { email, name, account_type: accountType, phone_number: '+91 95555 55555' }, systemContext(new Date(), null));
    return user_id;
  }
  const memberUrl = (kind: 'staff' | 'doctors', userId: string) => `/api/v1/admin/${kind}/${memberId(institutionId, userId)}`;

  /** The one audit event a write appended, with its resource, route and subject. */
  function assertRecorded(events: Access[], expected: { resource: string; route: string; subject: string; purpose: string; role?: string | null }) {
    assert.equal(events.length, 1, `one audit event for the answer: ${JSON.stringify(events)}`);
    const [event] = events as [Access];
    assert.deepEqual(
      [event.resource, event.route, event.purpose, event.subjects],
      [expected.resource, expected.route, expected.purpose, [{ user_id: expected.subject, items: ['contact_details'] }]],
    );
    if (expected.role !== undefined) assert.equal(event.institution_role, expected.role, 'the writer\'s role in the institution');
  }

  /**
   * While the audit cannot be written, the write answers 503 with no data, and nothing is written (to the stream it writes
   * to or any other), by it or in answer to it: checked by its correlation id once the log is quiet.
   */
  async function refusedCleanly(write: () => supertest.Test, secret: string) {
    await withAuditUnwritable(t, async () => {
      const res = await spec.when(() => write());
      assert.equal(res.status, 503, `refused: ${JSON.stringify(res.body)}`);
      assert.equal((res.body as { detail?: string }).detail, PRIVACY_TEXTS.auditUnavailable);
      assert.ok(!JSON.stringify(res.body).includes(secret), 'no data in the refusal');
      res.expectNoEvents();
    });
  }

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    operator = await t.createUser('admin', { name: 'Operator Omkar' });
    const created = await t.http
      .post('/api/v1/admin/institutions')
      .set(operator.auth)
      .send({
        name: 'Write Audit Clinic',
        address: '2 Park Street, Kolkata',
        phone: '+91 33 4000 0001',
        email: 'desk@write-audit.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@write-audit.in', phone: '+91 93333 33330', account_type: 'ADMIN' },
          { name: 'Dr. Kabir Sen', email: 'kabir@write-audit.in', phone: '+91 94444 44440', account_type: 'DOCTOR' },
          { name: 'Nina Das', email: 'nina@write-audit.in', phone: '+91 96666 66660', account_type: 'STAFF' },
        ],
      })
      .expect(201);
    institutionId = created.body.id as string;
    await t.settle();
    lata = await t.signedIn('lata@write-audit.in', 'patient');
    kabir = await t.signedIn('kabir@write-audit.in', 'doctor');
    nina = await t.signedIn('nina@write-audit.in', 'patient');
  });
  after(() => t.close());

  it("PUT /admin/staff/:id (a role change) is recorded as a read of the member's contact details; refused cleanly when it cannot be", async () => {
    const url = memberUrl('staff', nina.user_id);
    await refusedCleanly(() => t.http.put(url).set(lata.auth).send({ role: 'USER' }), 'Nina');
    const events = await auditedReads(t, lata, async () => assert.equal((await t.http.put(url).set(lata.auth).send({ role: 'USER' }).expect(200)).body.name, 'Nina Das'));
    assertRecorded(events, { resource: 'institution_staff', route: 'PUT /api/v1/admin/staff/:id', subject: nina.user_id, purpose: 'institution_administration', role: 'ADMIN' });
    assert.equal(events[0]!.institution_id, institutionId);
  });

  it("PUT /admin/doctors/:id (deactivate, activate) is recorded as a read of the doctor's record; refused cleanly when it cannot be", async () => {
    const url = memberUrl('doctors', kabir.user_id);
    await refusedCleanly(() => t.http.put(url).set(operator.auth).send({ is_active: false }), 'Kabir');
    const events = await auditedReads(t, operator, async () => {
      assert.equal((await t.http.put(url).set(operator.auth).send({ is_active: false }).expect(200)).body.is_active, false);
      await t.http.put(url).set(operator.auth).send({ is_active: true }).expect(200);
    });
    assert.equal(events.length, 2, 'one per answer');
    assertRecorded(events.slice(0, 1), { resource: 'institution_doctors', route: 'PUT /api/v1/admin/doctors/:id', subject: kabir.user_id, purpose: 'platform_administration', role: null });
  });

  it("POST /admin/staff inviting an existing account is recorded (its id and address are read); a new account, the caller's own input, is not", async () => {
    const existing = await account('meera@elsewhere.in', 'patient', 'Meera Iyer');
    const body = { institution_id: institutionId, name: 'Meera I.', email: 'meera@elsewhere.in', phone: '+91 97777 77770', account_type: 'STAFF' };
    await refusedCleanly(() => t.http.post('/api/v1/admin/staff').set(lata.auth).send(body), existing);
    const events = await auditedReads(t, lata, async () => assert.equal((await t.http.post('/api/v1/admin/staff').set(lata.auth).send(body).expect(201)).body.status, 'invited'));
    assertRecorded(events, { resource: 'institution_staff', route: 'POST /api/v1/admin/staff', subject: existing, purpose: 'institution_administration', role: 'ADMIN' });

    const fresh = await auditedReads(t, lata, async () => {
      const res = await t.http.post('/api/v1/admin/staff').set(lata.auth).send({ ...body, name: 'New Person', email: 'new.person@write-audit.in' }).expect(201);
      assert.equal(res.body.status, 'success');
    });
    assert.deepEqual(fresh, [], 'nothing of anyone else was read');
  });

  it('POST /admin/doctors inviting an existing doctor is recorded; refused cleanly when it cannot be', async () => {
    const existing = await account('dr.anil@elsewhere.in', 'doctor', 'Dr. Anil Mehta');
    const body = { institution_id: institutionId, name: 'Dr. Anil Mehta', email: 'dr.anil@elsewhere.in', phone_number: '+91 98888 88880' };
    await refusedCleanly(() => t.http.post('/api/v1/admin/doctors').set(operator.auth).send(body), existing);
    const events = await auditedReads(t, operator, async () => assert.equal((await t.http.post('/api/v1/admin/doctors').set(operator.auth).send(body).expect(201)).body.status, 'invited'));
    assertRecorded(events, { resource: 'institution_doctors', route: 'POST /api/v1/admin/doctors', subject: existing, purpose: 'platform_administration', role: null });
  });

  it("DELETE /admin/staff/:id and /admin/doctors/:id answer the removed member: recorded; refused cleanly when they cannot be", async () => {
    const removed = await account('ravi@write-audit.in', 'patient', 'Ravi Kulkarni');
    await t.http.post('/api/v1/admin/staff').set(operator.auth).send({ institution_id: institutionId, name: 'Ravi Kulkarni', email: 'ravi@write-audit.in', phone: '+91 92222 22220', account_type: 'USER' }).expect(201);
    const url = memberUrl('staff', removed);
    await refusedCleanly(() => t.http.delete(url).set(lata.auth), 'Ravi');
    const events = await auditedReads(t, lata, async () => assert.equal((await t.http.delete(url).set(lata.auth).expect(200)).body.name, 'Ravi Kulkarni'));
    assertRecorded(events, { resource: 'institution_staff', route: 'DELETE /api/v1/admin/staff/:id', subject: removed, purpose: 'institution_administration', role: 'ADMIN' });

    const doctorUrl = memberUrl('doctors', kabir.user_id);
    await refusedCleanly(() => t.http.delete(doctorUrl).set(operator.auth), 'Kabir');
    const doctorEvents = await auditedReads(t, operator, async () => assert.equal((await t.http.delete(doctorUrl).set(operator.auth).expect(200)).body.is_active, false));
    assertRecorded(doctorEvents, { resource: 'institution_doctors', route: 'DELETE /api/v1/admin/doctors/:id', subject: kabir.user_id, purpose: 'platform_administration', role: null });
  });

  it("PUT /admin/users/:id answers the account: recorded as a read of it; refused cleanly when it cannot be; an unknown account reads nothing", async () => {
    const asha = await t.createUser('patient', { name: 'Asha Verma' });
    const url = `/api/v1/admin/users/${asha.user_id}`;
    await refusedCleanly(() => t.http.put(url).set(operator.auth).send({ is_active: false }), 'Asha');
    const events = await auditedReads(t, operator, async () => assert.equal((await t.http.put(url).set(operator.auth).send({ is_active: false }).expect(200)).body.name, 'Asha Verma'));
    assertRecorded(events, { resource: 'user_accounts', route: 'PUT /api/v1/admin/users/:id', subject: asha.user_id, purpose: 'platform_administration', role: null });
    assert.equal(events[0]!.institution_id, null);
    await t.http.put(url).set(operator.auth).send({ is_active: true }).expect(200);
    assert.deepEqual(await auditedReads(t, operator, () => t.http.put('/api/v1/admin/users/no-such-user').set(operator.auth).send({ is_active: false }).expect(404)), []);
  });

  it("institutions' own writes answer the institution (not a person): nothing is recorded", async () => {
    const events = await auditedReads(t, operator, () => t.http.put(`/api/v1/admin/institutions/${institutionId}`).set(operator.auth).send({ phone: '+91 33 4000 0009' }).expect(200));
    assert.deepEqual(events, []);
  });
});
