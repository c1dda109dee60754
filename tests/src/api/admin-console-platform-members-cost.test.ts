import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GenerationalReadStore, physicalName } from '@telemed/platform';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';

type Row = { id: string; institution_id: string; name: string; role: string; email: string; is_active: boolean };

/**
 * A platform admin's console lists of staff and doctors without an institution filter: every institution's current
 * members, a page at a time. They read every staff entry of the platform (and, with `is_active`, every membership and
 * role interval ever) to answer one page; now the page's entries through an index.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`the platform's staff and doctors lists read what the page shows (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let operator: TestUser;
  const institutionIds: string[] = [];

  const staffRead = (work: () => Promise<unknown>) => documentsRead(t, 'institution_staff', work);

  const list = (resource: 'staff' | 'doctors', params: Record<string, unknown>) =>
    t.http.get(`/api/v1/admin/${resource}`).query(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))).set(operator.auth);
  const doctor = (name: string, email: string) => ({ name, email, phone_number: '+91 90000 55555', specialty: 'Cardiology', qualification: 'MD', consultation_fee: 500 });

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    operator = await t.createUser('admin');
    for (const slug of ['north', 'south', 'east']) {
      const staff = [
        { name: `Admin ${slug}`, email: `admin@${slug}.in`, phone: '+91 90000 10000', account_type: 'ADMIN' },
        { name: `Doctor ${slug} A`, email: `a@${slug}.in`, phone: '+91 90000 10001', account_type: 'DOCTOR' },
        { name: `Doctor ${slug} B`, email: `b@${slug}.in`, phone: '+91 90000 10002', account_type: 'DOCTOR' },
        { name: `Nurse ${slug}`, email: `nurse@${slug}.in`, phone: '+91 90000 10003', account_type: 'STAFF' },
      ];
      const res = await t.http.post('/api/v1/institutions/').set(operator.auth).send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff }).expect(201);
      institutionIds.push(res.body.id as string);
    }
    // History: doctors who joined and left the first institution, a role changed and back (closed role intervals).
    const north = await t.signedIn('admin@north.in', 'patient');
    for (let i = 0; i < 20; i += 1) {
      const added = await t.http.post(`/api/v1/institutions/${institutionIds[0]}/doctors`).set(north.auth).send(doctor(`Doctor past ${i}`, `past-${i}@north.in`)).expect(201);
      await t.http.delete(`/api/v1/institutions/${institutionIds[0]}/doctors/${added.body.doctor_id}`).set(north.auth).expect(200);
    }
    const northDoctor = await t.signedIn('b@north.in', 'doctor');
    for (const role of ['STAFF', 'DOCTOR']) await t.http.put(`/api/v1/admin/staff/${institutionIds[0]}~${northDoctor.user_id}`).set(operator.auth).send({ role }).expect(200);
    const southDoctor = await t.signedIn('a@south.in', 'doctor');
    await t.http.put(`/api/v1/admin/doctors/${institutionIds[1]}~${southDoctor.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
    await t.settle();
  });
  after(() => t.close());

  /** Each institution's list (its own filter), together: what the platform's list pages through. */
  async function everyInstitutions(resource: 'staff' | 'doctors'): Promise<Row[]> {
    const lists = await Promise.all(institutionIds.map(async (id) => (await list(resource, { filter: { institution_id: id }, range: [0, 99] }).expect(200)).body as Row[]));
    return lists.flat();
  }
  const byNameThenId = (a: Row, b: Row) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

  it('a page of staff reads its entries, with the records, order and total of every institution\'s lists together', async () => {
    const all = (await everyInstitutions('staff')).sort(byNameThenId);
    assert.equal(all.length, 12, 'four current members in each of three institutions');
    let page: Row[] = [];
    let range = '';
    const read = await staffRead(async () => {
      const res = await list('staff', { range: [5, 9], sort: ['name', 'ASC'] }).expect(200);
      page = res.body as Row[];
      range = res.headers['content-range'] as string;
    });
    assert.deepEqual(page.map((r) => r.id), all.slice(5, 10).map((r) => r.id), 'records 5 to 9 by name');
    assert.equal(range, 'staff 5-9/12', 'Content-Range counts every current member');
    assert.ok(read <= 5, `the page read ${read} staff entries for its 5 (the platform has over 40)`);

    const descending = (await list('staff', { range: [0, 11], sort: ['email', 'DESC'] }).expect(200)).body as Row[];
    assert.deepEqual(descending.map((r) => r.email), all.map((r) => r.email).sort().reverse(), 'by e-mail, descending');
    const byId = (await list('staff', { range: [0, 2], sort: ['id', 'ASC'] }).expect(200)).body as Row[];
    assert.deepEqual(byId.map((r) => r.id), all.map((r) => r.id).sort().slice(0, 3), 'by id');
    const staffRole = await list('staff', { filter: { role: 'STAFF' }, range: [0, 24] }).expect(200);
    assert.deepEqual((staffRole.body as Row[]).map((r) => r.name), ['Nurse east', 'Nurse north', 'Nurse south'], 'a role, by name');
    assert.equal(staffRole.headers['content-range'], 'staff 0-2/3');
  });

  it('doctors: only doctor roles, the deactivated one shown inactive and left out by is_active true', async () => {
    const all = (await everyInstitutions('doctors')).sort(byNameThenId);
    assert.equal(all.length, 6, 'two doctors in each institution');
    let page: Row[] = [];
    const read = await staffRead(async () => {
      const res = await list('doctors', { range: [0, 3], sort: ['name', 'ASC'] }).expect(200);
      page = res.body as Row[];
      assert.equal(res.headers['content-range'], 'doctors 0-3/6');
    });
    assert.deepEqual(page.map((r) => [r.id, r.is_active]), all.slice(0, 4).map((r) => [r.id, r.is_active]), 'the first four by name, as each institution shows them');
    assert.ok(read <= 4, `the page read ${read} staff entries for its 4`);
    const active = await list('doctors', { filter: { is_active: true }, range: [0, 24] }).expect(200);
    assert.deepEqual((active.body as Row[]).map((r) => r.name), all.filter((r) => r.is_active).map((r) => r.name), 'the deactivated doctor is not active');
    assert.equal(active.headers['content-range'], 'doctors 0-4/5');
  });

  it("doctors by specialty: their account's, in order", async () => {
    const profile = await t.signedIn('a@east.in', 'doctor');
    await t.http.put('/api/v1/users/me').set(profile.auth).send({ specialty: 'Anaesthesia' }).expect(200);
    await t.settle();
    const all = await everyInstitutions('doctors');
    const res = await list('doctors', { sort: ['specialty', 'ASC'], range: [0, 2] }).expect(200);
    const page = res.body as Array<Row & { specialty: string }>;
    assert.equal(page[0]?.specialty, 'Anaesthesia', `the edited specialty sorts first (${JSON.stringify(page.map((r) => r.specialty))})`);
    assert.deepEqual(page.map((r) => r.specialty), [...page.map((r) => r.specialty)].sort(), 'by specialty');
    assert.equal(res.headers['content-range'], `doctors 0-2/${all.length}`);
  });

  it('the lists\' queries go through their indexes (SQLite plan)', { skip: readStoreKind !== 'sqlite' ? 'a query plan is SQLite\'s' : false }, () => {
    const store = t.app.readStore;
    assert.ok(store instanceof GenerationalReadStore, 'the app reads through generations');
    const inner = store.inner as unknown as { explain(collection: string, filter: object, options: object): string[] };
    const plan = (filter: object, sort: object) => inner.explain(physicalName('institution_staff', store.generationOf('institution_staff')), filter, { sort }).join(' | ');
    assert.match(plan({ is_active: true }, { name: 1, institution_id: 1, user_id: 1 }), /USING INDEX ix_doc_\w*institution_staff\w*_is_active_name/, 'the platform page by name');
    assert.match(plan({ is_active: true, role: 'STAFF' }, { name: 1, institution_id: 1, user_id: 1 }), /USING INDEX ix_doc_\w*institution_staff\w*_is_active_role_name/, 'a role by name');
    // An institution's current members, not its removed ones.
    assert.match(plan({ institution_id: institutionIds[0], is_active: true }, { added_position: 1 }), /USING INDEX ix_doc_\w*institution_staff\w*_institution_id_is_active_added_position\w* \(<expr>=\? AND <expr>=\?\)/, "an institution's current members");
  });

  it('what only an institution answers is asked with its filter (422 says so)', async () => {
    for (const [resource, params] of [
      ['staff', { filter: { q: 'nurse' } }],
      ['staff', { filter: { is_active: false } }],
    ] as const) {
      const res = await list(resource, params).expect(422);
      assert.match(JSON.stringify(res.body.detail), /institution_id/, `${resource} ${JSON.stringify(params)}: the answer says to filter by institution`);
    }
    let active: Row[] = [];
    const read = await staffRead(async () => {
      active = (await list('doctors', { filter: { institution_id: institutionIds[0], is_active: true }, range: [0, 99] }).expect(200)).body as Row[];
    });
    assert.deepEqual(active.map((r) => r.name).sort(), ['Doctor north A', 'Doctor north B'], "an institution's active doctors");
    assert.ok(read <= 4, `they are read among its ${read} current members, not its 20 removed doctors and closed role intervals`);
    const removed = await list('doctors', { filter: { institution_id: institutionIds[0], is_active: false }, range: [0, 99] }).expect(200);
    assert.equal((removed.body as Row[]).length, 20, "an institution's removed doctors are listed with its filter");
  });
});
