import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INSTITUTION_TEXTS, PRIVACY_TEXTS } from '@telemed/contracts';
import { registerUser, systemContext } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { auditedReads, withAuditUnwritable } from '../support/access-audit';

/**
 * Adding a doctor through the institution's own route (`POST /institutions/{id}/doctors`) answers, for an address that
 * already has an account, that account's id (an invitation) or that it is not a doctor's (409): a read of another
 * person's account, recorded as the console's `POST /admin/doctors` records it (issue 12's access audit), before
 * the write, so that a probe of addresses is on the record too. A new account is the caller's own input: nothing read.
 */
describe("institution route adding a doctor: answering another person's account is on the access audit", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let operator: TestUser;
  let admin: TestUser;
  let institutionId: string;
  const doctor = (email: string) => ({ name: 'Dr. Someone', email, phone_number: '+91 90000 55555', specialty: 'Dermatology', qualification: 'MBBS', consultation_fee: 400 });
  const url = () => `/api/v1/institutions/${institutionId}/doctors`;

  async function account(email: string, accountType: 'patient' | 'doctor'): Promise<string> {
    const { user_id } = await registerUser(t.app.eventStore, { email, name: 'Elsewhere Person', account_type: accountType, phone_number: '+91 95555 55551' }, systemContext(new Date(), null));
    return user_id;
  }

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    operator = await t.createUser('admin');
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({ name: 'Audit Add Clinic', slug: 'audit-add', address: '3 Park Street', phone: '+91 33 4000 0002', email: 'desk@audit-add.in', staff: [{ name: 'Asha Admin', email: 'asha@audit-add.in', phone: '+91 93333 33331', account_type: 'ADMIN' }] })
      .expect(201);
    institutionId = created.body.id as string;
    await t.settle();
    admin = await t.signedIn('asha@audit-add.in', 'patient');
  });
  after(() => t.close());

  it('an existing doctor invited: one audit event naming them, with the route, the institution and why', async () => {
    const existing = await account('dr.elsewhere@other.in', 'doctor');
    const events = await auditedReads(t, admin, async () => {
      const res = await t.http.post(url()).set(admin.auth).send(doctor('dr.elsewhere@other.in')).expect(201);
      assert.deepEqual([res.body.status, res.body.doctor_id], ['invited', existing]);
    });
    assert.equal(events.length, 1, `one audit event: ${JSON.stringify(events)}`);
    const [event] = events;
    assert.deepEqual(
      [event!.resource, event!.route, event!.purpose, event!.institution_id, event!.institution_role, event!.subjects],
      ['institution_doctors', 'POST /api/v1/institutions/:id/doctors', 'institution_administration', institutionId, 'ADMIN', [{ user_id: existing, items: ['contact_details'] }]],
    );
  });

  it("a patient's address (answered 409: not a doctor's account) is recorded too; a new address is not", async () => {
    const patient = await account('someone.patient@other.in', 'patient');
    const probe = await auditedReads(t, admin, async () => {
      const res = await t.http.post(url()).set(admin.auth).send(doctor('someone.patient@other.in')).expect(409);
      assert.equal(res.body.detail, INSTITUTION_TEXTS.notADoctorAccount);
    });
    assert.deepEqual(probe.map((e) => e.subjects), [[{ user_id: patient, items: ['contact_details'] }]]);
    const fresh = await auditedReads(t, admin, () => t.http.post(url()).set(admin.auth).send(doctor('brand.new@audit-add.in')).expect(201));
    assert.deepEqual(fresh, [], 'a new account is the caller\'s own input');
  });

  for (const route of ['/api/v1/institutions/', '/api/v1/admin/institutions'] as const) {
    it(`creating an institution (${route}) whose staff includes an existing account records that account; new addresses nothing`, async () => {
      const existing = await account(`kept.${route.length}@other.in`, 'patient');
      const slug = `audit-create-${route.length}`;
      const staff = [
        { name: 'New Admin', email: `new.admin.${route.length}@audit-add.in`, phone: '+91 93333 33332', account_type: 'ADMIN' },
        { name: 'Known Person', email: `kept.${route.length}@other.in`, phone: '+91 93333 33333', account_type: 'STAFF' },
      ];
      const events = await auditedReads(t, operator, () =>
        t.http.post(route).set(operator.auth).send({ name: `Create ${slug}`, slug, address: '4 Park Street', phone: '+91 33 4000 0003', email: `desk@${slug}.in`, staff }).expect(201),
      );
      assert.deepEqual(
        events.map((e) => [e.route, e.purpose, e.resource, e.subjects]),
        [[`POST ${route}`, 'platform_administration', 'institution_staff', [{ user_id: existing, items: ['contact_details'] }]]],
      );
      // The same staff under the slug now taken: refused for the slug, which shows none of them, so nothing is recorded.
      const again = await auditedReads(t, operator, () =>
        t.http.post(route).set(operator.auth).send({ name: `Create ${slug}`, slug, address: '4 Park Street', phone: '+91 33 4000 0003', email: `desk@${slug}.in`, staff }).expect(409),
      );
      assert.deepEqual(again, [], 'a refusal for the slug records no read of the staff');
    });
  }

  it('refused cleanly (503, nothing written) when the audit cannot be written', async () => {
    const existing = await account('dr.another@other.in', 'doctor');
    await withAuditUnwritable(t, async () => {
      const res = await spec.when((http) => http.post(url()).set(admin.auth).send(doctor('dr.another@other.in')));
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.detail, PRIVACY_TEXTS.auditUnavailable);
      assert.ok(!JSON.stringify(res.body).includes(existing), 'no id in the refusal');
      // Nothing written, to the institution's stream or any other, by it or in answer to it (by its correlation id).
      res.expectNoEvents();
    });
  });
});
