import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { auditedReads, subjectIds, withAuditUnwritable } from '../support/access-audit';
import { freePort } from '../support/processes';

/**
 * The console's list reads are on the access audit (issue 12): an institution's staff or a platform admin reading
 * other people's personal data through `/api/v1/admin/<resource>` lists (and their Export, which pages through the
 * list) appends one PersonalDataAccessed event per page read, naming the people whose data that page showed, so
 * each of them finds the read on their "who saw my data" list and in their export.
 */
describe('admin console: list reads are on the access audit', () => {
  let t: TestApp;
  let base: string;
  let operator: TestUser;
  let lata: TestUser;
  let doctor: TestUser;
  let asha: TestUser;
  let ravi: TestUser;
  let institutionId: string;
  let ashaAppointment: string;
  let raviAppointment: string;

  function providerFor(user: { token: string }): DataProvider {
    const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
      const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
      headers.set('Authorization', `Bearer ${user.token}`);
      return fetchUtils.fetchJson(url, { ...options, headers });
    };
    return simpleRestProvider(`${base}/api/v1/admin`, httpClient);
  }


  const page = (page: number, perPage: number) => ({ pagination: { page, perPage }, sort: { field: 'start', order: 'ASC' as const }, filter: {} });

  before(async () => {
    const port = await freePort();
    t = await startTestApp();
    await t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    operator = await t.createUser('admin', { name: 'Operator Omkar' });
    asha = await t.createUser('patient', { name: 'Asha Verma', phone_number: '+91 91111 11111' });
    ravi = await t.createUser('patient', { name: 'Ravi Kulkarni', phone_number: '+91 92222 22222' });
    const created = await providerFor(operator).create('institutions', {
      data: {
        name: 'Audit Clinic',
        address: '1 Park Street, Kolkata',
        phone: '+91 33 4000 0000',
        email: 'desk@audit-clinic.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@audit-clinic.in', phone: '+91 93333 33333', account_type: 'ADMIN' },
          { name: 'Dr. Kabir Sen', email: 'kabir@audit-clinic.in', phone: '+91 94444 44444', account_type: 'DOCTOR' },
        ],
      },
    });
    institutionId = String(created.data.id);
    await t.settle();
    lata = await t.signedIn('lata@audit-clinic.in', 'patient');
    doctor = await t.signedIn('kabir@audit-clinic.in', 'doctor');
    const [slotA, slotR] = await t.openSlots(doctor, [
      { date: indiaDate(3), time: '10:00' },
      { date: indiaDate(3), time: '10:30' },
    ]);
    ashaAppointment = (await t.http.post('/api/v1/appointments').set(asha.auth).send({ slot_id: slotA, notes: 'Migraine' }).expect(201)).body.appointment_id;
    raviAppointment = (await t.http.post('/api/v1/appointments').set(ravi.auth).send({ slot_id: slotR, notes: 'Knee pain' }).expect(201)).body.appointment_id;
    await t.settle();
  });
  after(() => t.close());

  it("a search in the notes is on the record for every appointment it matched, even when the page past the last row shows none", async () => {
    // A patient and a word, asked for a page past the results: the total (Content-Range) says whether that patient's
    // notes hold the word, so the search read them even though no row is shown.
    const window = { start_gte: new Date(Date.now() - 86_400_000).toISOString(), start_lte: new Date(Date.now() + 20 * 86_400_000).toISOString() };
    const url = (filter: object) =>
      `/api/v1/admin/appointments?filter=${encodeURIComponent(JSON.stringify({ ...filter, ...window }))}&range=${encodeURIComponent('[5,9]')}&sort=${encodeURIComponent('["start","ASC"]')}`;
    let res: { headers: Record<string, string>; body: unknown[] } | null = null;
    const events = await auditedReads(t, lata, async () => {
      res = await t.http.get(url({ patient_id: asha.user_id, q: 'migr' })).set(lata.auth).expect(200);
    });
    assert.deepEqual(res!.body, [], 'no row on that page');
    assert.match(res!.headers['content-range']!, /\/1$/, 'yet the total says one appointment matched');
    assert.equal(events.length, 1, 'the search is on the record');
    assert.deepEqual(subjectIds(events[0]!), [asha.user_id, doctor.user_id].sort());
    assert.deepEqual(events[0]!.subjects.find((s) => s.user_id === asha.user_id)!.items, [ashaAppointment]);
    assert.equal(events[0]!.purpose, 'institution_audit');

    const none = await auditedReads(t, lata, () => t.http.get(url({ patient_id: asha.user_id, q: 'knee' })).set(lata.auth).expect(200));
    assert.deepEqual(none, [], 'a search that matched nothing read nothing of anyone');
  });

  it("one patient's list past its last row is on the record: its total says how many appointments they have here", async () => {
    const url = `/api/v1/admin/appointments?filter=${encodeURIComponent(JSON.stringify({ patient_id: ravi.user_id }))}&range=${encodeURIComponent('[5,9]')}&sort=${encodeURIComponent('["start","ASC"]')}`;
    let res: { headers: Record<string, string>; body: unknown[] } | null = null;
    const events = await auditedReads(t, lata, async () => {
      res = await t.http.get(url).set(lata.auth).expect(200);
    });
    assert.deepEqual(res!.body, []);
    assert.match(res!.headers['content-range']!, /\/1$/);
    assert.equal(events.length, 1, 'on the record');
    assert.deepEqual(events[0]!.subjects.find((s) => s.user_id === ravi.user_id)!.items, [raviAppointment]);
  });

  it('a search of the staff by name or e-mail is on the record for every member it matched, even past the last row', async () => {
    const url = `/api/v1/admin/staff?filter=${encodeURIComponent(JSON.stringify({ institution_id: institutionId, q: 'kabir@' }))}&range=${encodeURIComponent('[5,9]')}`;
    let res: { headers: Record<string, string>; body: unknown[] } | null = null;
    const events = await auditedReads(t, lata, async () => {
      res = await t.http.get(url).set(lata.auth).expect(200);
    });
    assert.deepEqual(res!.body, []);
    assert.match(res!.headers['content-range']!, /\/1$/, 'the total says a member matched');
    assert.equal(events.length, 1);
    assert.deepEqual(subjectIds(events[0]!), [doctor.user_id]);
  });

  it("an institution admin's appointments list: one event per page read, naming only that page's patients and items", async () => {
    const admin = providerFor(lata);
    const first = await auditedReads(t, lata, () => admin.getList('appointments', page(1, 1)));
    assert.equal(first.length, 1, 'one event for the page, not one per row');
    assert.equal(first[0]!.resource, 'institution_appointments');
    assert.equal(first[0]!.route, 'GET /api/v1/admin/appointments');
    assert.equal(first[0]!.purpose, 'institution_audit');
    assert.equal(first[0]!.institution_id, institutionId);
    assert.equal(first[0]!.institution_role, 'ADMIN');
    assert.deepEqual(subjectIds(first[0]!), [asha.user_id, doctor.user_id].sort(), 'the first page showed Asha (10:00) and her doctor');
    assert.deepEqual(first[0]!.subjects.find((s) => s.user_id === asha.user_id)!.items, [ashaAppointment]);

    const second = await auditedReads(t, lata, () => admin.getList('appointments', page(2, 1)));
    assert.equal(second.length, 1);
    assert.deepEqual(second[0]!.subjects.find((s) => s.user_id === ravi.user_id)!.items, [raviAppointment]);
    assert.ok(!subjectIds(second[0]!).includes(asha.user_id), 'Asha was not on the second page');

    // An empty page shows nobody: nothing is written.
    assert.deepEqual(await auditedReads(t, lata, () => admin.getList('appointments', { ...page(1, 25), filter: { status: 'completed' } })), []);
  });

  it("the console's Export, which reads the list in pages of 100, is recorded once per page it read", async () => {
    const events = await auditedReads(t, lata, () => providerFor(lata).getList('appointments', page(1, 100)));
    assert.equal(events.length, 1);
    assert.deepEqual(subjectIds(events[0]!), [asha.user_id, ravi.user_id, doctor.user_id].sort());
  });

  it("a platform admin's appointments list is recorded for platform administration", async () => {
    const events = await auditedReads(t, operator, () => providerFor(operator).getList('appointments', page(1, 25)));
    assert.equal(events.length, 1);
    assert.equal(events[0]!.purpose, 'platform_administration');
    assert.equal(events[0]!.accessor_role, 'admin');
    assert.deepEqual(subjectIds(events[0]!), [asha.user_id, ravi.user_id, doctor.user_id].sort());
  });

  it("a platform admin's reads of accounts (list, show, getMany) are recorded with each account shown as a subject", async () => {
    const admin = providerFor(operator);
    const list = await auditedReads(t, operator, () => admin.getList('users', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { account_type: 'patient' } }));
    assert.equal(list.length, 1, 'one event for the page');
    assert.equal(list[0]!.resource, 'user_accounts');
    assert.equal(list[0]!.purpose, 'platform_administration');
    assert.equal(list[0]!.route, 'GET /api/v1/admin/users');
    assert.ok(subjectIds(list[0]!).includes(asha.user_id) && subjectIds(list[0]!).includes(ravi.user_id), JSON.stringify(list[0]));
    assert.deepEqual(list[0]!.subjects.find((s) => s.user_id === asha.user_id)!.items, ['contact_details']);

    const one = await auditedReads(t, operator, () => admin.getOne('users', { id: ravi.user_id }));
    assert.equal(one.length, 1);
    assert.equal(one[0]!.route, 'GET /api/v1/admin/users/:id');
    assert.deepEqual(one[0]!.subjects, [{ user_id: ravi.user_id, items: ['contact_details'] }]);

    const many = await auditedReads(t, operator, () => admin.getMany('users', { ids: [asha.user_id, ravi.user_id] }));
    assert.equal(many.length, 1);
    assert.deepEqual(subjectIds(many[0]!), [asha.user_id, ravi.user_id].sort());

    // The operator's own account in the list is not a read of someone else's data.
    const admins = await auditedReads(t, operator, () => admin.getList('users', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { account_type: 'admin' } }));
    assert.deepEqual(admins, [], 'only themselves shown: nothing recorded');
  });

  it('an account list whose audit cannot be written is refused (503), never served off the record', async () => {
    await withAuditUnwritable(t, async () => {
      for (const url of ['/api/v1/admin/users', `/api/v1/admin/users/${asha.user_id}`]) {
        const res = await t.http.get(url).set(operator.auth);
        assert.equal(res.status, 503, url);
        assert.ok(!JSON.stringify(res.body).includes('Asha'), 'no data in the refusal');
      }
    });
  });

  it("a platform admin's reads of an institution's staff and doctors are recorded", async () => {
    const admin = providerFor(operator);
    const staff = await auditedReads(t, operator, () => admin.getList('staff', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } }));
    assert.equal(staff.length, 1);
    assert.equal(staff[0]!.purpose, 'platform_administration');
    assert.deepEqual(subjectIds(staff[0]!), [lata.user_id, doctor.user_id].sort());
    const doctors = await auditedReads(t, operator, () => admin.getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} }));
    assert.equal(doctors.length, 1);
    assert.equal(doctors[0]!.resource, 'institution_doctors');
    assert.deepEqual(subjectIds(doctors[0]!), [doctor.user_id]);
  });

  it("the patient finds the console's list reads on their 'who saw my data' list and in their export", async () => {
    await t.settle();
    const log = await t.http.get('/api/v1/users/me/access-log?limit=100').set(asha.auth).expect(200);
    const text = JSON.stringify(log.body.entries);
    assert.match(text, /institution_appointments|An institution's appointments/);
    assert.match(text, /user_accounts|list of accounts/);
    const exported = await t.http.get('/api/v1/users/me/export').set(asha.auth).expect(200);
    const routes = JSON.stringify(exported.body.access_log);
    assert.ok(routes.includes('/admin/appointments'), routes);
    assert.ok(routes.includes('/admin/users'), routes);
  });
});
