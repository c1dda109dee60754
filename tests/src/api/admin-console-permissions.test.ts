import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findUserIdByEmail } from '@telemed/command';
import { INSTITUTION_TEXTS } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * An institution's role permissions, edited in the console (issue 15): a member who manages the institution without
 * being its admin gives no role a right they lack themselves. Before, such a member (here a USER the admin let manage
 * the institution) could add appointments to their own role through the institution's edit and read the patients' notes, which
 * the role change itself refuses ('nobody raises their own role or gives rights they lack').
 */
describe("the console's institution edit: role permissions stay within the editor's own rights", () => {
  let t: TestApp;
  let institutionId: string;
  let lata: TestUser;
  let uma: TestUser;
  const details = { name: 'Lotus Clinic', address: '3 Lake Rd', phone: '+91 80 4000 7777', email: 'desk@lotus.in' };

  before(async () => {
    t = await startTestApp();
    const operator = await t.createUser('admin', { name: 'Operator' });
    const created = await t.http
      .post('/api/v1/admin/institutions')
      .set(operator.auth)
      .send({
        ...details,
        staff: [
          { name: 'Lata Rao', email: 'lata@lotus.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Uma Nair', email: 'uma@lotus.in', phone: '+91 90000 33333', account_type: 'USER' },
        ],
      })
      .expect(201);
    institutionId = created.body.id;
    const accountOf = async (email: string): Promise<TestUser> => {
      const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
      const token = await t.app.tokens.issue({ user_id, account_type: 'patient' });
      return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    };
    lata = await accountOf('lata@lotus.in');
    uma = await accountOf('uma@lotus.in');
  });
  after(() => t.close());

  it("the institution's admin lets the USER role manage the institution", async () => {
    const res = await t.http
      .put(`/api/v1/admin/institutions/${institutionId}`)
      .set(lata.auth)
      .send({ ...details, role_permissions: { USER: ['read', 'manage_institution'] } })
      .expect(200);
    assert.deepEqual(res.body.role_permissions.USER, ['read', 'manage_institution']);
  });

  it('that USER edits the details, but cannot give their own role (or any) the appointments (and their notes) they may not read: 403 with a detail, nothing changed', async () => {
    await t.http.put(`/api/v1/admin/institutions/${institutionId}`).set(uma.auth).send({ ...details, address: '5 Lake Rd' }).expect(200);
    for (const role_permissions of [{ USER: ['read', 'manage_institution', 'appointments'] }, { STAFF: ['read', 'appointments'] }]) {
      const res = await t.http.put(`/api/v1/admin/institutions/${institutionId}`).set(uma.auth).send({ ...details, role_permissions }).expect(403);
      assert.equal(res.body.detail, INSTITUTION_TEXTS.permissionsBeyondYours);
    }
    await t.settle();
    const now = await t.http.get(`/api/v1/admin/institutions/${institutionId}`).set(lata.auth).expect(200);
    assert.deepEqual(now.body.role_permissions.USER, ['read', 'manage_institution']);
    assert.deepEqual(now.body.role_permissions.STAFF, ['read', 'basic_operations']);
    assert.equal(now.body.address, '5 Lake Rd');
  });

  it('rights they hold they may give, and take away; the admin may give any', async () => {
    await t.http
      .put(`/api/v1/admin/institutions/${institutionId}`)
      .set(uma.auth)
      .send({ ...details, role_permissions: { STAFF: ['read', 'basic_operations', 'manage_staff'] } })
      .expect(200);
    await t.http
      .put(`/api/v1/admin/institutions/${institutionId}`)
      .set(lata.auth)
      .send({ ...details, role_permissions: { USER: ['read', 'manage_institution', 'appointments'] } })
      .expect(200);
  });
});
