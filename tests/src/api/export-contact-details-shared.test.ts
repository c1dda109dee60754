import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

type Shared = { user_id: string; purpose: string; institution: { id: string } | null };

/**
 * The export says with whom each item was shared (issue 12). A read of a person's name, e-mail and phone (the access
 * log's `contact_details`) by a platform admin (the console's account pages), or by an institution that invited them
 * (its console lists pending invitations with the invitee's details), was on their access log but on no item of the
 * export: the profile and the invitations had no `shared_with`, and only a member's own institution entry had one.
 */
describe('export: who saw your name and contact details', () => {
  let t: TestApp;
  let operator: TestUser;
  let institutionId: string;
  let institutionAdmin: TestUser;

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin', { name: 'Operator Oishi' });
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({ name: 'Shared Clinic', slug: 'shared-clinic', address: '5 Park Street', phone: '+91 33 4000 5000', email: 'desk@shared-clinic.in', staff: [{ name: 'Asha Admin', email: 'asha@shared-clinic.in', phone: '+91 93333 55551', account_type: 'ADMIN' }] })
      .expect(201);
    institutionId = created.body.id as string;
    await t.settle();
    institutionAdmin = await t.signedIn('asha@shared-clinic.in', 'patient');
  });
  after(() => t.close());

  const exportOf = async (user: TestUser) => (await t.http.get('/api/v1/users/me/export').set(user.auth).expect(200)).body;

  it("a platform admin's read of the account is on the profile's shared_with", async () => {
    const patient = await t.createUser('patient', { name: 'Pallavi Profile' });
    assert.deepEqual((await exportOf(patient)).profile.shared_with, [], 'nobody saw it yet');
    await t.http.get(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).expect(200);
    await t.settle();
    const shared = (await exportOf(patient)).profile.shared_with as Shared[];
    assert.deepEqual(
      shared.map((s) => [s.user_id, s.purpose, s.institution]),
      [[operator.user_id, 'platform_administration', null]],
    );
  });

  it("an institution's reads of an invitee's details are on the invitation's shared_with (and the profile's)", async () => {
    const invitee = await t.createUser('patient', { name: 'Indu Invitee' });
    const email = (await t.http.get('/api/v1/users/me').set(invitee.auth).expect(200)).body.email as string;
    const invited = await t.http
      .post('/api/v1/admin/staff')
      .set(institutionAdmin.auth)
      .send({ institution_id: institutionId, name: 'Indu I.', email, phone: '+91 95544 77777', account_type: 'STAFF' })
      .expect(201);
    assert.equal(invited.body.status, 'invited');
    await t.http.get('/api/v1/institutions/my-institution').set(institutionAdmin.auth).expect(200);
    await t.settle();
    const body = await exportOf(invitee);
    const [invitation] = body.invitations as Array<{ institution_id: string; shared_with: Shared[] }>;
    assert.equal(invitation!.institution_id, institutionId);
    assert.ok(invitation!.shared_with.length >= 2, `the invitation's answer and the console's list: ${JSON.stringify(invitation!.shared_with)}`);
    assert.ok(invitation!.shared_with.every((s) => s.user_id === institutionAdmin.user_id && s.institution?.id === institutionId && s.purpose === 'institution_administration'));
    assert.equal((body.profile.shared_with as Shared[]).length, invitation!.shared_with.length, 'the same reads, on the profile');
    assert.equal(body.institutions.length, 0, 'not a member: no institution entry to carry them');
  });
});
