import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INSTITUTION_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { givenInstitution } from '../support/given-institution';

/**
 * An institution's role permissions, edited in the console (issue 15): a member who manages the institution without
 * being its admin gives no role a right they lack themselves. Before, such a member (here a USER the admin let manage
 * the institution) could add appointments to their own role through the institution's edit and read the patients' notes, which
 * the role change itself refuses ('nobody raises their own role or gives rights they lack').
 */
describe("the console's institution edit: role permissions stay within the editor's own rights", () => {
  let t: TestApp;
  let spec: ApiSpec;
  const details = { name: 'Lotus Clinic', address: '3 Lake Rd', phone: '+91 80 4000 7777', email: 'desk@lotus.in' };

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Lotus Clinic with its admin Lata Rao and Uma Nair, a USER; when `umaManages`, the USER role may manage the institution. */
  const givenLotus = async ({ umaManages }: { umaManages: boolean }) => {
    const clinic = await givenInstitution(spec, {
      ...details,
      staff: [
        { name: 'Lata Rao', email: 'lata@lotus.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
        { name: 'Uma Nair', email: 'uma@lotus.in', phone: '+91 90000 33333', account_type: 'USER' },
      ],
    });
    const [lata, uma] = [await clinic.member('lata@lotus.in', 'patient'), await clinic.member('uma@lotus.in', 'patient')];
    if (umaManages) {
      await t.http
        .put(`/api/v1/admin/institutions/${clinic.id}`)
        .set(lata.auth)
        .send({ ...details, email: clinic.email(details.email), role_permissions: { USER: ['read', 'manage_institution'] } })
        .expect(200);
    }
    // The institution's edit, the same details with these changes.
    const edit = (who: TestUser, body: object) =>
      spec.when((http) => http.put(`/api/v1/admin/institutions/${clinic.id}`).set(who.auth).send({ ...details, email: clinic.email(details.email), ...body }));
    return { clinic, lata, uma, edit };
  };

  it("the institution's admin lets the USER role manage the institution", async () => {
    const { clinic, lata, edit } = await givenLotus({ umaManages: false });
    const res = (await edit(lata, { role_permissions: { USER: ['read', 'manage_institution'] } }))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionUpdated' }]);
    assert.deepEqual(res.body.role_permissions.USER, ['read', 'manage_institution']);
  });

  it('that USER edits the details, but cannot give their own role (or any) the appointments (and their notes) they may not read: 403 with a detail, nothing changed', async () => {
    const { clinic, lata, uma, edit } = await givenLotus({ umaManages: true });
    (await edit(uma, { address: '5 Lake Rd' })).expectStatus(200).expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionUpdated' }]);
    for (const role_permissions of [{ USER: ['read', 'manage_institution', 'appointments'] }, { STAFF: ['read', 'appointments'] }]) {
      const res = (await edit(uma, { role_permissions })).expectStatus(403).expectNoEvents();
      assert.equal(res.body.detail, INSTITUTION_TEXTS.permissionsBeyondYours);
    }
    const now = await spec.read((http) => http.get(`/api/v1/admin/institutions/${clinic.id}`).set(lata.auth).expect(200));
    assert.deepEqual(now.body.role_permissions.USER, ['read', 'manage_institution']);
    assert.deepEqual(now.body.role_permissions.STAFF, ['read', 'basic_operations']);
    assert.equal(now.body.address, '5 Lake Rd');
  });

  it('rights they hold they may give, and take away; the admin may give any', async () => {
    const { clinic, lata, uma, edit } = await givenLotus({ umaManages: true });
    (await edit(uma, { role_permissions: { STAFF: ['read', 'basic_operations', 'manage_staff'] } }))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionUpdated' }]);
    (await edit(lata, { role_permissions: { USER: ['read', 'manage_institution', 'appointments'] } }))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionUpdated' }]);
  });
});
