import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ERASED_VALUE, memberId, streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext, MemoryReadStore, type ReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { givenInstitution, uniqueInstitution, type InstitutionInput } from '../support/given-institution';

type Member = { name: string; role_title: string | null; department: string | null; specialization: string | null };

/**
 * What an institution writes about a member (their title, department and specialization: a 'Psychiatry' department
 * says something of the person) is theirs like their name: ciphertext in the log under their key, read in clear in the
 * console, blanked by their erasure (the same live and in a rebuild). A member recorded before (in clear) still reads.
 */
describe("institutions: a member's title, department and specialization in the log", () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const fieldsClinic: InstitutionInput = {
    name: 'Fields Clinic',
    address: '3 Park Street, Kolkata',
    phone: '+91 33 4000 0002',
    email: 'desk@fields-clinic.in',
    staff: [
      { name: 'Lata Rao', email: 'lata@fields-clinic.in', phone: '+91 93333 33331', account_type: 'ADMIN' },
      { name: 'Sunil Roy', email: 'sunil@fields-clinic.in', phone: '+91 93333 33332', account_type: 'STAFF', role_title: 'Counsellor, de-addiction', department: 'Psychiatry', specialization: 'Addiction counselling' },
    ],
  };
  const staffOf = async (operator: TestUser, institutionId: string, userId: string) =>
    (await spec.read((http) => http.get(`/api/v1/admin/staff/${memberId(institutionId, userId)}`).set(operator.auth).expect(200))).body as Member;
  const staffDocs = async (store: ReadStore, userId: string) =>
    (await store.collection<{ _id: string; user_id: string }>('institution_staff').find({ user_id: userId })).sort((a, b) => a._id.localeCompare(b._id));

  it('are ciphertext in the log and read in clear in the console', async () => {
    const operator = await t.createUser('admin', { name: 'Operator Omkar' });
    const { body } = uniqueInstitution(fieldsClinic);
    const created = (await spec.when((http) => http.post('/api/v1/admin/institutions').set(operator.auth).send(body))).expectStatus(201);
    const institutionId = created.body.id as string;
    // The slug claimed, both members' accounts registered, the institution and its members recorded.
    created.expectEvents([
      { stream: streams.institutionSlug(body.slug), type: 'InstitutionSlugClaimed' },
      { type: 'UserRegistered' },
      { type: 'UserRegistered' },
      { stream: streams.institution(institutionId), type: 'InstitutionCreated' },
      { stream: streams.institution(institutionId), type: 'InstitutionStaffAdded' },
      { stream: streams.institution(institutionId), type: 'InstitutionStaffAdded' },
    ]);
    const added = (await ciphertextLog(t.app.eventStore).readStream(streams.institution(institutionId))).filter((e) => e.type === 'InstitutionStaffAdded');
    assert.equal(added.length, 2, 'both members in the log');
    const log = JSON.stringify(added);
    for (const clear of ['Counsellor, de-addiction', 'Psychiatry', 'Addiction counselling']) assert.ok(!log.includes(clear), `the log holds ${clear} in clear`);
    const sunil = added.find((e) => isCiphertext((e.data as Member).role_title));
    assert.ok(sunil, 'the title is ciphertext');
    for (const field of ['department', 'specialization'] as const) assert.ok(isCiphertext((sunil.data as Member)[field]), `${field} is ciphertext`);

    const shown = await staffOf(operator, institutionId, (sunil.data as { user_id: string }).user_id);
    assert.deepEqual([shown.role_title, shown.department, shown.specialization], ['Counsellor, de-addiction', 'Psychiatry', 'Addiction counselling']);
  });

  it('a member recorded before they were encrypted (in clear) still reads', async () => {
    const clinic = await givenInstitution(spec, fieldsClinic);
    const userId = randomUUID();
    const metadata = { actor: { user_id: clinic.operator.user_id, role: 'admin' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() };
    await ciphertextLog(t.app.eventStore).appendToStream(streams.institution(clinic.id), [
      {
        event_id: randomUUID(),
        type: 'InstitutionStaffAdded',
        data: { institution_id: clinic.id, staff_id: randomUUID(), user_id: userId, name: 'Old Member', email: 'old@fields-clinic.in', phone: '+91 90000 00001', role: 'STAFF', role_title: 'Receptionist', department: 'Front desk', specialization: null, is_institution_admin: false },
        metadata,
      },
    ]);
    const shown = await staffOf(clinic.operator, clinic.id, userId);
    assert.deepEqual([shown.name, shown.role_title, shown.department, shown.specialization], ['Old Member', 'Receptionist', 'Front desk', null]);
  });

  it("the member's erasure blanks them, the same live and in a rebuild", async () => {
    const clinic = await givenInstitution(spec, fieldsClinic);
    const sunil = await clinic.member('sunil@fields-clinic.in', 'patient');
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(sunil.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(sunil.user_id), type: 'PersonalDataErased' }]);
    const shown = await staffOf(clinic.operator, clinic.id, sunil.user_id);
    assert.deepEqual([shown.name, shown.role_title, shown.department, shown.specialization], [ERASED_VALUE, ERASED_VALUE, ERASED_VALUE, ERASED_VALUE]);
    const rebuilt = new MemoryReadStore();
    await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
    assert.deepEqual(await staffDocs(rebuilt, sunil.user_id), await staffDocs(t.app.readStore, sunil.user_id), 'a rebuild reads them as the live read model blanked them');
    const text = JSON.stringify(await staffDocs(t.app.readStore, sunil.user_id));
    for (const clear of ['Counsellor', 'Psychiatry', 'Addiction']) assert.ok(!text.includes(clear), `the read store still holds ${clear}`);
  });
});
