import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';
import { auditedReads, subjectIds } from '../support/access-audit';

type Row = { id: string; patient_id: string; doctor_id: string; institution_id: string | null; status: string; start: string };

/**
 * An institution member's console page reads the appointments it shows: a deep page merged the first `end + 1`
 * appointments of each doctor's membership (10 000 each at the console's last page) to answer one page.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`an institution's console page of appointments reads what it shows (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let platformAdmin: TestUser;
  let institutionAdmin: TestUser;
  let otherAdmin: TestUser;
  let doctor: TestUser;
  let patients: TestUser[];
  let institutionId: string;
  let otherInstitutionId: string;
  const booked: string[] = [];

  async function createInstitution(slug: string, adminEmail: string, doctorEmail?: string): Promise<string> {
    const staff = [{ name: `Admin ${slug}`, email: adminEmail, phone: '+91 90000 10000', account_type: 'ADMIN' }];
    if (doctorEmail) staff.push({ name: `Doctor ${slug}`, email: doctorEmail, phone: '+91 90000 10001', account_type: 'DOCTOR' });
    const res = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff }).expect(201);
    return res.body.id as string;
  }

  async function book(withDoctor: TestUser, count: number, patientOf: (i: number) => TestUser) {
    const times = Array.from({ length: count }, (_, i) => ({ date: indiaDate(1 + Math.floor(i / 16)), time: `${String(9 + Math.floor((i % 16) / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}` }));
    const slots = await t.openSlots(withDoctor, times);
    assert.equal(slots.length, count, 'every slot opened');
    const ids: string[] = [];
    for (const [i, slot] of slots.entries()) ids.push((await t.http.post('/api/v1/appointments').set(patientOf(i).auth).send({ slot_id: slot, notes: 'Fever' }).expect(201)).body.appointment_id as string);
    return ids;
  }

  const appointmentsRead = (work: () => Promise<unknown>) => documentsRead(t, 'appointments', work);

  const list = (user: TestUser, params: Record<string, unknown>) =>
    t.http.get('/api/v1/admin/appointments').query(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))).set(user.auth);

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    platformAdmin = await t.createUser('admin');
    institutionId = await createInstitution('page-cost', 'admin@page-cost.in', 'doctor@page-cost.in');
    otherInstitutionId = await createInstitution('page-other', 'admin@page-other.in');
    await t.settle();
    institutionAdmin = await t.signedIn('admin@page-cost.in', 'patient');
    otherAdmin = await t.signedIn('admin@page-other.in', 'patient');
    doctor = await t.signedIn('doctor@page-cost.in', 'doctor');
    patients = [await t.createUser('patient'), await t.createUser('patient'), await t.createUser('patient')];
    booked.push(...(await book(doctor, 32, (i) => patients[i % 3]!)));
    // Another doctor's appointments, not the institution's.
    const outsider = await t.createUser('doctor');
    await book(outsider, 4, () => patients[0]!);
    for (const id of booked.slice(0, 5)) await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it('a deep page reads its 10 appointments, with the same records, total and order as the whole list', async () => {
    const whole = await list(institutionAdmin, { range: [0, 99], sort: ['start', 'ASC'] }).expect(200);
    const all = whole.body as Row[];
    assert.deepEqual(new Set(all.map((r) => r.id)), new Set(booked), "the list is the institution's doctor's appointments, none of another doctor's");
    assert.ok(all.every((r) => r.institution_id === institutionId), 'each record names the institution');
    assert.deepEqual([...all].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id)).map((r) => r.id), all.map((r) => r.id), 'by start, then id');

    let deep: Row[] = [];
    let range = '';
    const read = await appointmentsRead(async () => {
      const res = await list(institutionAdmin, { range: [20, 29], sort: ['start', 'ASC'] }).expect(200);
      deep = res.body as Row[];
      range = res.headers['content-range'] as string;
    });
    assert.deepEqual(deep.map((r) => r.id), all.slice(20, 30).map((r) => r.id), 'the page is the records 20 to 29 of the whole list');
    assert.equal(range, 'appointments 20-29/32', 'Content-Range counts every record');
    assert.ok(read <= 10, `the page read ${read} appointments for its 10`);

    const descending = (await list(institutionAdmin, { range: [25, 31], sort: ['start', 'DESC'] }).expect(200)).body as Row[];
    assert.deepEqual(descending.map((r) => r.id), [...all].reverse().slice(25, 32).map((r) => r.id), 'newest first pages the same records backwards');
    const byId = (await list(institutionAdmin, { range: [3, 5], sort: ['id', 'ASC'] }).expect(200)).body as Row[];
    assert.deepEqual(byId.map((r) => r.id), [...booked].sort().slice(3, 6), 'by id');
  });

  it('filters (status, doctor, patient, ids, start window) and the status order answer and count in the institution', async () => {
    const confirmed = await list(institutionAdmin, { filter: { status: 'confirmed' }, range: [0, 24] }).expect(200);
    assert.deepEqual(new Set((confirmed.body as Row[]).map((r) => r.id)), new Set(booked.slice(0, 5)), 'the approved ones');
    assert.equal(confirmed.headers['content-range'], 'appointments 0-4/5');
    const theirs = await list(institutionAdmin, { filter: { patient_id: patients[1]!.user_id, doctor_id: doctor.user_id }, range: [0, 24] }).expect(200);
    assert.ok((theirs.body as Row[]).length > 0 && (theirs.body as Row[]).every((r) => r.patient_id === patients[1]!.user_id), 'one patient');
    const many = (await list(institutionAdmin, { filter: { id: booked.slice(7, 10) } }).expect(200)).body as Row[];
    assert.deepEqual(new Set(many.map((r) => r.id)), new Set(booked.slice(7, 10)), 'getMany by ids');
    const all = (await list(institutionAdmin, { range: [0, 99] }).expect(200)).body as Row[];
    // (A bound is compared as an instant with milliseconds: one second past the tenth start keeps it in.)
    const window = { start_gte: all[4]!.start, start_lte: new Date(Date.parse(all[9]!.start) + 1000).toISOString() };
    const windowed = await list(institutionAdmin, { filter: window, range: [0, 99] }).expect(200);
    assert.deepEqual((windowed.body as Row[]).map((r) => r.id), all.slice(4, 10).map((r) => r.id), 'a window of starts');
    const byStatus = (await list(institutionAdmin, { sort: ['status', 'DESC'], range: [0, 99] }).expect(200)).body as Row[];
    assert.deepEqual(byStatus.slice(0, 27).map((r) => r.status), Array(27).fill('requested'), 'requested before confirmed, descending');
    const searched = await list(institutionAdmin, { filter: { q: 'fever', start_gte: all[0]!.start, start_lte: new Date(Date.parse(all[0]!.start) + 1000).toISOString() }, range: [0, 9] }).expect(200);
    assert.deepEqual((searched.body as Row[]).map((r) => r.id), [all[0]!.id], 'a notes search within a window');
  });

  it("a member of another institution sees none of it; the page's reads of patients are audited", async () => {
    const refused = await list(otherAdmin, { filter: { institution_id: institutionId } });
    assert.equal(refused.status, 404, 'not their institution');
    const own = await list(otherAdmin, { range: [0, 9] }).expect(200);
    assert.equal(own.headers['content-range'], 'appointments */0', 'their own institution has no appointments');
    assert.equal((await list(otherAdmin, { filter: { institution_id: otherInstitutionId } }).expect(200)).body.length, 0);

    const accesses = await auditedReads(t, institutionAdmin, () => list(institutionAdmin, { range: [30, 31] }).expect(200));
    assert.equal(accesses.length, 1, 'one audit event for the page');
    const [access] = accesses;
    assert.equal(access!.purpose, 'institution_audit');
    assert.equal(access!.institution_id, institutionId, 'read through the institution');
    assert.ok(subjectIds(access!).includes(doctor.user_id), `the doctor is named (${JSON.stringify(access)})`);
    assert.ok(subjectIds(access!).some((id) => patients.some((p) => p.user_id === id)), 'the shown patients are named');

    // A platform admin's page of one institution goes the same way.
    const operator = await list(platformAdmin, { filter: { institution_id: institutionId }, range: [30, 31] }).expect(200);
    assert.equal(operator.headers['content-range'], 'appointments 30-31/32');
  });
});

type SeedItem = { appointment_id: string; doctor: { doctor_id: string }; slot: { start_at: string }; status: string };

describe("the institution's appointment list (GET /institutions/:id/appointments) pages through what it shows", () => {
  let t: TestApp;
  let institutionId: string;
  let admin: TestUser;
  let otherAdmin: TestUser;
  const booked: string[] = [];

  before(async () => {
    t = await startTestApp();
    const platformAdmin = await t.createUser('admin');
    const staff = (slug: string, doctors: number) => [
      { name: `Admin ${slug}`, email: `admin@${slug}.in`, phone: '+91 90000 10000', account_type: 'ADMIN' },
      ...Array.from({ length: doctors }, (_, i) => ({ name: `Doctor ${i}`, email: `doctor${i}@${slug}.in`, phone: `+91 90000 1000${i + 1}`, account_type: 'DOCTOR' })),
    ];
    const create = async (slug: string, doctors: number) =>
      (await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff: staff(slug, doctors) }).expect(201)).body.id as string;
    institutionId = await create('seed-list', 2);
    await create('seed-other', 0);
    await t.settle();
    admin = await t.signedIn('admin@seed-list.in', 'patient');
    otherAdmin = await t.signedIn('admin@seed-other.in', 'patient');
    const patient = await t.createUser('patient');
    for (const email of ['doctor0@seed-list.in', 'doctor1@seed-list.in']) {
      const doctor = await t.signedIn(email, 'doctor');
      const slots = await t.openSlots(doctor, Array.from({ length: 6 }, (_, i) => ({ date: indiaDate(1 + (i % 3)), time: email.startsWith('doctor0') ? `1${i}:00` : `1${i}:30` })));
      for (const slot of slots) booked.push((await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Cough' }).expect(201)).body.appointment_id as string);
    }
    await t.settle();
  });
  after(() => t.close());

  it('a page of 5 reads 5 appointments (and the cursor\'s), whatever the number of doctors; pages join into the whole list', async () => {
    const url = `/api/v1/institutions/${institutionId}/appointments`;
    const whole = (await t.http.get(url).set(admin.auth).expect(200)).body as SeedItem[];
    assert.deepEqual(new Set(whole.map((a) => a.appointment_id)), new Set(booked), "without limit: the first page, here every appointment of the institution's doctors");
    assert.deepEqual(whole.map((a) => a.slot.start_at), [...whole.map((a) => a.slot.start_at)].sort().reverse(), 'newest first');

    const pages: SeedItem[][] = [];
    const reads: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      let page: SeedItem[] = [];
      reads.push(await documentsRead(t, 'appointments', async () => {
        page = (await t.http.get(url).query({ limit: 5, ...(cursor ? { cursor } : {}) }).set(admin.auth).expect(200)).body as SeedItem[];
      }));
      if (page.length === 0) break;
      pages.push(page);
      cursor = page.at(-1)!.appointment_id;
    }
    assert.deepEqual(pages.flat().map((a) => a.appointment_id), whole.map((a) => a.appointment_id), 'newest first, each once');
    assert.deepEqual(pages.map((p) => p.length), [5, 5, 2], 'pages of 5');
    assert.ok(reads.every((n) => n <= 6), `each page read its appointments and the cursor's (read: ${reads.join(', ')})`);

    const requested = (await t.http.get(url).query({ limit: 50, appointment_status: 'requested' }).set(admin.auth).expect(200)).body as SeedItem[];
    assert.equal(requested.length, 12, 'all still requested');
    assert.equal((await t.http.get(url).query({ limit: 50, appointment_status: 'confirmed' }).set(admin.auth).expect(200)).body.length, 0, 'none confirmed');
    await t.http.get(url).set(otherAdmin.auth).expect(404);
  });
});
