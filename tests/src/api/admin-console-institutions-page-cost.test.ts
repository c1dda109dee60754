import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';

type Row = { id: string; doctor_id: string; institution_id: string | null; status: string; start: string };

/**
 * A console user of several institutions, without an institution filter, sees each appointment of their institutions'
 * doctors once. A page merged the first `end + 1` appointments of every doctor's membership interval (each doctor of
 * each institution, every one ever): a page of 10 read 30 for each doctor. It now reads what it shows.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`a console page of several institutions' appointments reads what it shows (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let operator: TestUser;
  let lead: TestUser;
  let institutionA: string;
  let institutionB: string;
  const byDoctor = new Map<string, string[]>();
  const doctors: Record<'only_a' | 'both' | 'only_b', TestUser> = {} as Record<'only_a' | 'both' | 'only_b', TestUser>;

  const list = (params: Record<string, unknown>) =>
    t.http.get('/api/v1/admin/appointments').query(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]))).set(lead.auth);

  async function accept(user: TestUser, institutionId: string) {
    const invitations = (await t.http.get('/api/v1/institutions/invitations').set(user.auth).expect(200)).body as Array<{ id: string; institution: { id: string } }>;
    const invitation = invitations.find((i) => i.institution.id === institutionId);
    assert.ok(invitation, 'invited');
    await t.http.post(`/api/v1/institutions/${institutionId}/invitations/${invitation.id}/accept`).set(user.auth).expect(200);
  }

  async function book(doctor: TestUser, patient: TestUser, count: number, firstDay: number, firstHour: number, minute: '00' | '30') {
    const slots = await t.openSlots(doctor, Array.from({ length: count }, (_, i) => ({ date: indiaDate(firstDay + Math.floor(i / 6)), time: `${firstHour + (i % 6)}:${minute}` })));
    assert.equal(slots.length, count);
    const ids = byDoctor.get(doctor.user_id) ?? [];
    for (const slot of slots) ids.push((await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201)).body.appointment_id as string);
    byDoctor.set(doctor.user_id, ids);
  }

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    operator = await t.createUser('admin');
    const create = async (slug: string, staff: Array<{ name: string; email: string; account_type: string }>) =>
      (await t.http.post('/api/v1/institutions/').set(operator.auth).send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff: staff.map((s) => ({ phone: '+91 90000 10000', ...s })) }).expect(201)).body.id as string;
    institutionA = await create('multi-a', [
      { name: 'Lead', email: 'lead@multi.in', account_type: 'ADMIN' },
      { name: 'Dr A', email: 'a@multi.in', account_type: 'DOCTOR' },
      { name: 'Dr Both', email: 'both@multi.in', account_type: 'DOCTOR' },
    ]);
    await t.settle();
    lead = await t.signedIn('lead@multi.in', 'patient');
    doctors.only_a = await t.signedIn('a@multi.in', 'doctor');
    doctors.both = await t.signedIn('both@multi.in', 'doctor');
    const patient = await t.createUser('patient');
    // Before the second institution: Dr Both's appointments are A's alone.
    await book(doctors.both, patient, 4, 5, 10, '00');
    institutionB = await create('multi-b', [
      { name: 'Lead', email: 'lead@multi.in', account_type: 'ADMIN' },
      { name: 'Dr B', email: 'b@multi.in', account_type: 'DOCTOR' },
      { name: 'Dr Both', email: 'both@multi.in', account_type: 'DOCTOR' },
    ]);
    await t.settle();
    doctors.only_b = await t.signedIn('b@multi.in', 'doctor');
    await accept(lead, institutionB);
    await accept(doctors.both, institutionB);
    await t.settle();
    await book(doctors.only_a, patient, 12, 1, 10, '00');
    await book(doctors.both, patient, 12, 1, 10, '30');
    await book(doctors.only_b, patient, 12, 1, 16, '00');
    for (const id of byDoctor.get(doctors.only_b.user_id)!.slice(0, 3)) await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctors.only_b.auth).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it('lists each appointment once, under one of the caller institutions that reads it, and counts each once', async () => {
    const whole = await list({ range: [0, 99], sort: ['start', 'ASC'] }).expect(200);
    const all = whole.body as Row[];
    const booked = [...byDoctor.values()].flat();
    assert.equal(all.length, booked.length, 'each once');
    assert.deepEqual(new Set(all.map((r) => r.id)), new Set(booked));
    assert.equal(whole.headers['content-range'], `appointments 0-${booked.length - 1}/${booked.length}`, 'the total counts each once');
    assert.deepEqual([...all].sort((a, b) => a.start.localeCompare(b.start) || a.id.localeCompare(b.id)).map((r) => r.id), all.map((r) => r.id), 'by start, then id');
    const institutionOf = new Map(all.map((r) => [r.id, r.institution_id]));
    assert.ok(byDoctor.get(doctors.only_a.user_id)!.every((id) => institutionOf.get(id) === institutionA), "A's doctor's are A's");
    assert.ok(byDoctor.get(doctors.only_b.user_id)!.every((id) => institutionOf.get(id) === institutionB), "B's doctor's are B's");
    assert.ok(byDoctor.get(doctors.both.user_id)!.slice(0, 4).every((id) => institutionOf.get(id) === institutionA), 'booked before B: A alone reads them');
    assert.ok(byDoctor.get(doctors.both.user_id)!.every((id) => [institutionA, institutionB].includes(institutionOf.get(id)!)));

    let deep: Row[] = [];
    let range = '';
    const read = await documentsRead(t, 'appointments', async () => {
      const res = await list({ range: [20, 29], sort: ['start', 'ASC'] }).expect(200);
      deep = res.body as Row[];
      range = res.headers['content-range'] as string;
    });
    assert.deepEqual(deep.map((r) => r.id), all.slice(20, 30).map((r) => r.id), 'the page is the records 20 to 29 of the whole list');
    assert.equal(range, `appointments 20-29/${booked.length}`);
    assert.ok(read <= 10, `the page read ${read} appointments for its 10`);

    const descending = (await list({ range: [30, 39], sort: ['start', 'DESC'] }).expect(200)).body as Row[];
    assert.deepEqual(descending.map((r) => r.id), [...all].reverse().slice(30, 40).map((r) => r.id), 'newest first');
    const byId = (await list({ range: [5, 12], sort: ['id', 'ASC'] }).expect(200)).body as Row[];
    assert.deepEqual(byId.map((r) => r.id), [...booked].sort().slice(5, 13), 'by id');
    const byStatus = await list({ range: [0, 4], sort: ['status', 'ASC'] }).expect(200);
    assert.deepEqual((byStatus.body as Row[]).slice(0, 3).map((r) => r.status), ['confirmed', 'confirmed', 'confirmed'], 'confirmed before requested');
    const theirs = await list({ filter: { doctor_id: doctors.both.user_id }, range: [0, 99] }).expect(200);
    assert.deepEqual(new Set((theirs.body as Row[]).map((r) => r.id)), new Set(byDoctor.get(doctors.both.user_id)), "one doctor's, each once");
    assert.equal(theirs.headers['content-range'], 'appointments 0-15/16');
    const confirmed = await list({ filter: { status: 'confirmed' }, range: [0, 99] }).expect(200);
    assert.equal(confirmed.headers['content-range'], 'appointments 0-2/3');
    const window = { q: 'fever', start_gte: all[0]!.start, start_lte: new Date(Date.parse(all[0]!.start) + 1000).toISOString() };
    const searched = (await list({ filter: window, range: [0, 9] }).expect(200)).body as Row[];
    assert.deepEqual(searched.map((r) => r.id), all.filter((r) => r.start === all[0]!.start).map((r) => r.id), 'a notes search within a window');
  });
});
