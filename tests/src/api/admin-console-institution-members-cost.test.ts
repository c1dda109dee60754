import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';

type Row = { id: string; institution_id: string; name: string; role: string; email: string; specialty?: string | null; added_at?: string; is_active: boolean };
type Resource = 'staff' | 'doctors';

const DOCTORS = 30;
const SPECIALTIES = ['Cardiology', 'Dermatology', 'ENT', 'Neurology', 'Paediatrics'];

/**
 * An institution's console lists of staff and doctors (an institution admin's always; a platform admin's with the
 * institution filter). They read every current member of the institution, then each doctor's account one by one, and
 * sorted them all before cutting the page: a page of 10 cost 90 ms at 5 000 members. Now the page's entries, in order,
 * through an index, and the doctor's name and specialty as their account has them now (kept on the member).
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`an institution's staff and doctors lists read what the page shows (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let operator: TestUser;
  let admin: TestUser;
  const institutionIds: string[] = [];

  const list = (as: TestUser, resource: Resource, params: Record<string, unknown>) =>
    t.http.get(`/api/v1/admin/${resource}`).query(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))).set(as.auth);

  /** What a request read of the members and of the doctors' accounts. */
  async function reads(work: () => Promise<unknown>): Promise<{ staff: number; doctors: number }> {
    let doctors = 0;
    const staff = await documentsRead(t, 'institution_staff', async () => {
      doctors = await documentsRead(t, 'doctors', work);
    });
    return { staff, doctors };
  }

  /** The whole list in one request, sorted here as the console asks: by the field, then the record's id. */
  async function whole(as: TestUser, resource: Resource, filter: Record<string, unknown>, field: keyof Row, order: 1 | -1): Promise<Row[]> {
    const rows = (await list(as, resource, { filter, range: [0, 99] }).expect(200)).body as Row[];
    const key = (r: Row) => String(r[field] ?? '');
    return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * order);
  }

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    operator = await t.createUser('admin');
    for (const slug of ['lotus', 'banyan']) {
      const staff = [
        { name: `Admin ${slug}`, email: `admin@${slug}.in`, phone: '+91 90000 10000', account_type: 'ADMIN' },
        { name: `Nurse ${slug}`, email: `nurse@${slug}.in`, phone: '+91 90000 10003', account_type: 'STAFF' },
      ];
      const res = await t.http.post('/api/v1/institutions/').set(operator.auth).send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff }).expect(201);
      institutionIds.push(res.body.id as string);
    }
    const lotusAdmin = await t.signedIn('admin@lotus.in', 'patient');
    for (let i = 0; i < DOCTORS; i += 1) {
      const doctor = { name: `Doctor ${String(i).padStart(2, '0')}`, email: `d${i}@lotus.in`, phone_number: '+91 90000 55555', specialty: SPECIALTIES[i % SPECIALTIES.length], qualification: 'MD', consultation_fee: 500 };
      await t.http.post(`/api/v1/institutions/${institutionIds[0]}/doctors`).set(lotusAdmin.auth).send(doctor).expect(201);
    }
    // Lotus's admin also administers Banyan: their lists without a filter are both institutions'.
    const invited = await t.http.post('/api/v1/admin/staff').set(operator.auth).send({ institution_id: institutionIds[1], name: 'Admin lotus', email: 'admin@lotus.in', phone: '+91 90000 10000', account_type: 'ADMIN' }).expect(201);
    assert.equal(invited.body.status, 'invited', 'an existing account is invited');
    await t.http.post(`/api/v1/institutions/${institutionIds[1]}/invitations/${invited.body.invitation_id}/accept`).set(lotusAdmin.auth).expect(200);
    const banyanAdmin = await t.signedIn('admin@banyan.in', 'patient');
    await t.http
      .post(`/api/v1/institutions/${institutionIds[1]}/doctors`)
      .set(banyanAdmin.auth)
      .send({ name: 'Doctor banyan', email: 'doc@banyan.in', phone_number: '+91 90000 55556', specialty: 'Oncology', qualification: 'MD', consultation_fee: 700 })
      .expect(201);
    // A doctor's account changes after they joined: their records show (and order by) the account as it is now.
    const renamed = await t.signedIn('d7@lotus.in', 'doctor');
    await t.http.put('/api/v1/users/me').set(renamed.auth).send({ name: 'Aaron Zed', specialty: 'Anaesthesia' }).expect(200);
    await t.settle();
    admin = lotusAdmin;
  });
  after(() => t.close());

  it("a page of one institution's doctors reads its entries and their accounts, in each order, with the list's total", async () => {
    const filter = { institution_id: institutionIds[0] };
    for (const [field, order] of [['name', 1], ['name', -1], ['specialty', 1], ['specialty', -1], ['email', 1], ['id', -1]] as const) {
      const all = await whole(operator, 'doctors', filter, field, order);
      assert.equal(all.length, DOCTORS);
      let page: Row[] = [];
      let range = '';
      const read = await reads(async () => {
        const res = await list(operator, 'doctors', { filter, range: [10, 19], sort: [field, order === 1 ? 'ASC' : 'DESC'] }).expect(200);
        page = res.body as Row[];
        range = res.headers['content-range'] as string;
      });
      assert.deepEqual(page.map((r) => r.id), all.slice(10, 20).map((r) => r.id), `records 10 to 19 by ${field} ${order}`);
      assert.equal(range, `doctors 10-19/${DOCTORS}`, 'Content-Range counts every doctor of the institution');
      assert.ok(read.staff <= 10 && read.doctors <= 10, `the page read ${read.staff} members and ${read.doctors} accounts for its 10 (the institution has ${DOCTORS + 2})`);
    }
    const byName = (await list(operator, 'doctors', { filter, range: [0, 0], sort: ['name', 'ASC'] }).expect(200)).body as Row[];
    assert.deepEqual(byName.map((r) => [r.name, r.specialty]), [['Aaron Zed', 'Anaesthesia']], "the account's name and specialty as they are now, in order");
  });

  it("an institution admin's lists: their institution's, or both of theirs merged, a page at a time", async () => {
    const mine = [...(await whole(admin, 'staff', { institution_id: institutionIds[0] }, 'name', 1)), ...(await whole(admin, 'staff', { institution_id: institutionIds[1] }, 'name', 1))];
    const both = mine.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
    assert.equal(both.length, DOCTORS + 2 + 4, 'Lotus: an admin, a nurse and the doctors; Banyan: two admins, a nurse and a doctor');
    let page: Row[] = [];
    let range = '';
    const read = await reads(async () => {
      const res = await list(admin, 'staff', { range: [5, 9], sort: ['name', 'ASC'] }).expect(200);
      page = res.body as Row[];
      range = res.headers['content-range'] as string;
    });
    assert.deepEqual(page.map((r) => r.id), both.slice(5, 10).map((r) => r.id), 'records 5 to 9 of both institutions by name');
    assert.equal(range, `staff 5-9/${both.length}`);
    assert.ok(read.staff <= 2 * 10 + 2, `each institution's first ten, and the admin's memberships (${read.staff} read)`);

    const doctors = await list(admin, 'doctors', { range: [0, 2], sort: ['specialty', 'DESC'] }).expect(200);
    assert.deepEqual((doctors.body as Row[]).map((r) => r.specialty), ['Paediatrics', 'Paediatrics', 'Paediatrics'], "both institutions' doctors by specialty, descending");
    assert.equal(doctors.headers['content-range'], `doctors 0-2/${DOCTORS + 1}`);
    const roles = await list(admin, 'staff', { filter: { institution_id: institutionIds[0], role: 'STAFF' }, range: [0, 9] }).expect(200);
    assert.deepEqual((roles.body as Row[]).map((r) => r.name), ['Nurse lotus'], 'a role of one institution');
  });

  it('getMany by ids, a search by name and the removed members still answer, over what they name or match', async () => {
    const some = (await list(operator, 'doctors', { filter: { institution_id: institutionIds[0] }, range: [0, 2], sort: ['name', 'ASC'] }).expect(200)).body as Row[];
    const ids = some.map((r) => r.id).reverse();
    const many = await list(operator, 'doctors', { filter: { id: ids } }).expect(200);
    assert.deepEqual((many.body as Row[]).map((r) => r.id), some.map((r) => r.id), 'the named members, by name');
    const found = await list(admin, 'doctors', { filter: { institution_id: institutionIds[0], q: 'doctor 1' }, range: [0, 99] }).expect(200);
    assert.equal((found.body as Row[]).length, 10, 'Doctor 10 to Doctor 19');
    const removed = await list(admin, 'staff', { filter: { institution_id: institutionIds[0], is_active: false }, range: [0, 99] }).expect(200);
    assert.deepEqual(removed.body, []);
  });
});
