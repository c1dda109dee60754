import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { DateTime } from 'luxon';
import { DEFAULT_ROLE_PERMISSIONS, DEFAULT_TIMEZONE } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';
import { findUserIdByEmail } from '@telemed/command';

/**
 * The react-admin console's API (issue 15), driven by ra-data-simple-rest itself: every call below is the provider's
 * own request (sort, range, filter as JSON; Range header; Content-Range totals), with the bearer token and
 * read-your-writes (X-Min-Position after a write) added by wrapping its httpClient, as the frontend does.
 */

type HistoryBody = { events: Array<{ description: string; correlation_id: string; actor: { role: string }; occurred_at: string }> };
describe('admin console API through ra-data-simple-rest', () => {
  let t: TestApp;
  let base: string;
  let platformAdmin: TestUser;
  let patient: TestUser;
  let doctor: TestUser;
  let institutionId: string;
  let otherInstitutionId: string;
  let appointmentId: string;
  let lastPosition = 0;
  const ORIGIN = 'http://console.example.in';

  /** The provider for one caller: the unmodified ra-data-simple-rest over a wrapped fetchJson. */
  function providerFor(user: { token: string }): DataProvider {
    const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
      const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
      headers.set('Authorization', `Bearer ${user.token}`);
      if (lastPosition > 0 && (!options.method || options.method === 'GET')) headers.set('X-Min-Position', String(lastPosition));
      const result = await fetchUtils.fetchJson(url, { ...options, headers });
      const position = Number(result.headers.get('X-Event-Position'));
      if (position > lastPosition) lastPosition = position;
      return result;
    };
    return simpleRestProvider(`${base}/api/v1/admin`, httpClient);
  }


  const staff = [
    { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
    { name: 'Ananya Sharma', email: 'ananya@sunrise.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
  ];

  before(async () => {
    const port = await freePort();
    t = await startTestApp({ env: { CORS_ORIGINS: ORIGIN } });
    await t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    platformAdmin = await t.createUser('admin', { name: 'Operator' });
    patient = await t.createUser('patient', { name: 'Meera Iyer' });
  });
  after(() => t.close());

  it('institutions: create derives the slug and answers the record; list, show, getMany, edit', async () => {
    const admin = providerFor(platformAdmin);
    const created = await admin.create('institutions', {
      data: { name: 'Sunrise Clinic, Bengaluru', address: '12 MG Road', phone: '+91 80 4000 1234', email: 'Contact@Sunrise.in', staff },
    });
    institutionId = String(created.data.id);
    assert.equal(created.data.slug, 'sunrise-clinic-bengaluru');
    assert.equal(created.data.email, 'contact@sunrise.in');
    const other = await admin.create('institutions', {
      data: { name: 'Moonlight Care', address: '1 Park St', phone: '+91 33 4000 1234', email: 'm@moon.in', staff: [{ name: 'Ravi', email: 'ravi@moon.in', phone: '+91 90000 33333', account_type: 'ADMIN' }] },
    });
    otherInstitutionId = String(other.data.id);

    const list = await admin.getList('institutions', { pagination: { page: 1, perPage: 1 }, sort: { field: 'name', order: 'DESC' }, filter: {} });
    assert.equal(list.total, 2);
    assert.deepEqual(list.data.map((i) => i.name), ['Sunrise Clinic, Bengaluru']);
    const second = await admin.getList('institutions', { pagination: { page: 2, perPage: 1 }, sort: { field: 'name', order: 'DESC' }, filter: { is_active: true } });
    assert.deepEqual(second.data.map((i) => i.name), ['Moonlight Care']);
    const searched = await admin.getList('institutions', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { q: 'moon' } });
    assert.deepEqual(searched.data.map((i) => i.id), [otherInstitutionId]);
    assert.equal((await admin.getOne('institutions', { id: institutionId })).data.name, 'Sunrise Clinic, Bengaluru');
    const many = await admin.getMany('institutions', { ids: [institutionId, otherInstitutionId] });
    assert.deepEqual(new Set(many.data.map((i) => i.id)), new Set([institutionId, otherInstitutionId]));

    // The institution's admin edits it (the seeds' 'coming soon' edit), sending the whole record back as react-admin does.
    const lata = await t.signedIn('lata@sunrise.in', 'patient');
    const mine = providerFor(lata);
    const previous = (await mine.getOne('institutions', { id: institutionId })).data;
    const updated = await mine.update('institutions', { id: institutionId, data: { ...previous, address: '14 MG Road, Bengaluru' }, previousData: previous });
    assert.equal(updated.data.address, '14 MG Road, Bengaluru');
    assert.equal(updated.data.slug, 'sunrise-clinic-bengaluru', 'the slug stays');
    assert.equal((await mine.getOne('institutions', { id: institutionId })).data.address, '14 MG Road, Bengaluru', 'read your write');
    // ...and sees only its own institution.
    const hers = await mine.getList('institutions', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} });
    assert.deepEqual(hers.data.map((i) => i.id), [institutionId]);
    await assert.rejects(mine.getOne('institutions', { id: otherInstitutionId }), (e: { status: number }) => e.status === 404);
    await assert.rejects(mine.delete('institutions', { id: institutionId }), (e: { status: number }) => e.status === 403);
  });

  it('staff: getManyReference by institution, create in a role with the default permissions, getOne, getMany, delete', async () => {
    const lata = providerFor(await t.signedIn('lata@sunrise.in', 'patient'));
    const ref = await lata.getManyReference('staff', { target: 'institution_id', id: institutionId, pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} });
    assert.deepEqual(ref.data.map((s) => [s.name, s.role]), [['Ananya Sharma', 'DOCTOR'], ['Lata Rao', 'ADMIN']]);
    assert.equal(ref.total, 2);
    const created = await lata.create('staff', { data: { institution_id: institutionId, name: 'Sita Nair', email: 'sita@sunrise.in', phone: '+91 90000 44444', account_type: 'STAFF' } });
    assert.equal(created.data.role, 'STAFF');
    assert.equal(created.data.id, `${institutionId}~${created.data.user_id}`);
    const one = await lata.getOne('staff', { id: created.data.id });
    assert.equal(one.data.name, 'Sita Nair');
    const institution = (await lata.getOne('institutions', { id: institutionId })).data;
    assert.deepEqual(institution.role_permissions.STAFF, DEFAULT_ROLE_PERMISSIONS.STAFF);
    const many = await lata.getMany('staff', { ids: [one.data.id, ref.data[0]!.id] });
    assert.equal(many.data.length, 2);
    // A STAFF member may read but not manage staff: the server refuses, whatever the screen shows.
    const sita = providerFor(await t.signedIn('sita@sunrise.in', 'patient'));
    await assert.rejects(sita.delete('staff', { id: ref.data[0]!.id }), (e: { status: number; message: string }) => e.status === 403 && e.message.length > 0);
    const permissions = await fetch(`${base}/api/v1/admin/permissions`, { headers: { Authorization: `Bearer ${(await t.signedIn('sita@sunrise.in', 'patient')).token}` } }).then((r) => r.json() as Promise<{ resources: Record<string, string[] | undefined> }>);
    assert.deepEqual(permissions.resources.staff, ['list', 'show']);
    assert.equal(permissions.resources.appointments, undefined, 'STAFF has no appointments permission');
    const removed = await lata.delete('staff', { id: one.data.id });
    assert.equal(removed.data.is_active, false);
    const after = await lata.getManyReference('staff', { target: 'institution_id', id: institutionId, pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} });
    assert.equal(after.total, 2);
  });

  it('doctors: list, add with the seeds defaults, getOne, getMany, getManyReference, remove', async () => {
    const lata = providerFor(await t.signedIn('lata@sunrise.in', 'patient'));
    const added = await lata.create('doctors', { data: { institution_id: institutionId, name: 'Dr. Kiran Rao', email: 'kiran@sunrise.in', phone_number: '+91 90000 55555' } });
    assert.equal(added.data.specialty, 'General Medicine');
    assert.equal(added.data.consultation_fee, 100);
    const list = await lata.getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } });
    assert.deepEqual(list.data.map((d) => d.name), ['Ananya Sharma', 'Dr. Kiran Rao']);
    assert.equal((await lata.getOne('doctors', { id: added.data.id })).data.qualification, 'MD');
    assert.equal((await lata.getMany('doctors', { ids: [added.data.id] })).data.length, 1);
    const ref = await lata.getManyReference('doctors', { target: 'institution_id', id: institutionId, pagination: { page: 1, perPage: 1 }, sort: { field: 'name', order: 'DESC' }, filter: {} });
    assert.equal(ref.total, 2);
    assert.deepEqual(ref.data.map((d) => d.name), ['Dr. Kiran Rao']);
    const removed = await lata.delete('doctors', { id: added.data.id });
    assert.equal(removed.data.is_active, false);
    // Another institution's admin is told it does not exist.
    const ravi = providerFor(await t.signedIn('ravi@moon.in', 'patient'));
    await assert.rejects(ravi.getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } }), (e: { status: number }) => e.status === 404);
  });

  it("doctors: activate and deactivate through the institution's stream; shown as inactive everywhere; only roles that manage staff", async () => {
    const lataUser = await t.signedIn('lata@sunrise.in', 'patient');
    const lata = providerFor(lataUser);
    const ananya = await t.signedIn('ananya@sunrise.in', 'doctor');
    const id = `${institutionId}~${ananya.user_id}`;
    const before = (await lata.getOne('doctors', { id })).data;
    assert.equal(before.is_active, true);
    const off = await lata.update('doctors', { id, data: { ...before, is_active: false }, previousData: before });
    assert.equal(off.data.is_active, false);
    assert.equal(off.data.deactivated, true);
    assert.equal(off.data.name, 'Ananya Sharma');
    assert.equal(off.data.qualification, before.qualification, 'answers the whole record');
    // Read your write, in the console and on the seeds' screen.
    assert.equal((await lata.getOne('doctors', { id })).data.is_active, false);
    const listed = await lata.getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } });
    assert.deepEqual(listed.data.map((d) => [d.name, d.is_active]), [['Ananya Sharma', false]], 'still on the staff, shown as inactive');
    const mine = await t.http.get('/api/v1/institutions/my-institution').set(lataUser.auth).set('X-Min-Position', String(lastPosition)).expect(200);
    assert.deepEqual(mine.body.doctors.map((d: { name: string; is_active: boolean }) => [d.name, d.is_active]), [['Ananya Sharma', false]]);
    // A deactivated doctor has no rights in the institution until activated again.
    await assert.rejects(
      providerFor(ananya).getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } }),
      (e: { status: number }) => e.status === 403,
    );
    const history = await t.app.eventStore.readStream(`institution-${institutionId}`);
    const last = history[history.length - 1]!;
    assert.equal(last.type, 'InstitutionDoctorDeactivated');
    assert.equal((last.metadata as { actor: { user_id: string } }).actor.user_id, lataUser.user_id);

    // A STAFF member (read, basic_operations) may not; another institution's admin is told it does not exist.
    const created = await lata.create('staff', { data: { institution_id: institutionId, name: 'Farah Khan', email: 'farah@sunrise.in', phone: '+91 90000 66666', account_type: 'STAFF' } });
    assert.equal(created.data.role, 'STAFF');
    const farah = providerFor(await t.signedIn('farah@sunrise.in', 'patient'));
    await assert.rejects(farah.update('doctors', { id, data: { is_active: true }, previousData: { id } }), (e: { status: number }) => e.status === 403);
    const ravi = providerFor(await t.signedIn('ravi@moon.in', 'patient'));
    await assert.rejects(ravi.update('doctors', { id, data: { is_active: true }, previousData: { id } }), (e: { status: number }) => e.status === 404);
    // Only doctors are activated or deactivated; a stranger is not found.
    await assert.rejects(lata.update('doctors', { id: `${institutionId}~${lataUser.user_id}`, data: { is_active: false }, previousData: { id } }), (e: { status: number }) => e.status === 409);
    await assert.rejects(lata.update('doctors', { id: `${institutionId}~nobody`, data: { is_active: false }, previousData: { id } }), (e: { status: number }) => e.status === 404);

    // The platform admin activates her again: active everywhere, and her rights are back.
    const on = await providerFor(platformAdmin).update('doctors', { id, data: { is_active: true }, previousData: { id } });
    assert.equal(on.data.is_active, true);
    assert.equal((await lata.getOne('doctors', { id })).data.is_active, true);
    const back = await providerFor(ananya).getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } });
    assert.deepEqual(back.data.map((d) => d.is_active), [true]);
  });

  it("staff: edit a member's role with the role's default permissions; an ADMIN stays; nobody raises themselves", async () => {
    const lataUser = await t.signedIn('lata@sunrise.in', 'patient');
    const lata = providerFor(lataUser);
    const farahUser = await t.signedIn('farah@sunrise.in', 'patient');
    const farah = providerFor(farahUser);
    const farahId = `${institutionId}~${farahUser.user_id}`;
    const rolesOf = async (user: TestUser) =>
      (await fetch(`${base}/api/v1/admin/permissions`, { headers: { ...user.auth, 'X-Min-Position': String(lastPosition) } }).then((r) => r.json())) as {
        resources: Record<string, string[] | undefined>;
        institutions: Array<{ role: string; permissions: string[] }>;
      };
    // A STAFF member may not change roles, not even their own.
    const own = (await farah.getOne('staff', { id: farahId })).data;
    await assert.rejects(farah.update('staff', { id: farahId, data: { ...own, role: 'ADMIN' }, previousData: own }), (e: { status: number }) => e.status === 403);
    // The admin makes her an ADMIN (react-admin sends the whole record): she now has the ADMIN's permissions and may edit staff.
    const promoted = await lata.update('staff', { id: farahId, data: { ...own, role: 'ADMIN' }, previousData: own });
    assert.deepEqual([promoted.data.role, promoted.data.is_institution_admin], ['ADMIN', true]);
    assert.equal((await lata.getOne('staff', { id: farahId })).data.role, 'ADMIN');
    const hers = await rolesOf(farahUser);
    assert.deepEqual(hers.institutions.map((i) => [i.role, i.permissions]), [['ADMIN', DEFAULT_ROLE_PERMISSIONS.ADMIN]]);
    assert.ok(hers.resources.staff?.includes('edit'));
    // She steps down herself (taking rights away is allowed) ...
    const down = await farah.update('staff', { id: farahId, data: { role: 'STAFF' }, previousData: { id: farahId } });
    assert.equal(down.data.role, 'STAFF');
    assert.deepEqual((await rolesOf(farahUser)).resources.staff, ['list', 'show']);
    // ... but the institution's last ADMIN may not, even at a platform admin's hand.
    const lataId = `${institutionId}~${lataUser.user_id}`;
    for (const who of [lata, providerFor(platformAdmin)]) {
      await assert.rejects(who.update('staff', { id: lataId, data: { role: 'STAFF' }, previousData: { id: lataId } }), (e: { status: number; message: string }) => e.status === 409 && /at least one admin/.test(e.message));
    }
    // A doctor role needs a doctor's account.
    await assert.rejects(lata.update('staff', { id: farahId, data: { role: 'DOCTOR' }, previousData: { id: farahId } }), (e: { status: number }) => e.status === 409);
    // A SUPER_DOCTOR manages staff but may not make themselves ADMIN, nor give the ADMIN role.
    const ananya = await t.signedIn('ananya@sunrise.in', 'doctor');
    const ananyaId = `${institutionId}~${ananya.user_id}`;
    assert.equal((await lata.update('staff', { id: ananyaId, data: { role: 'SUPER_DOCTOR' }, previousData: { id: ananyaId } })).data.role, 'SUPER_DOCTOR');
    const superDoctor = providerFor(ananya);
    await assert.rejects(superDoctor.update('staff', { id: ananyaId, data: { role: 'ADMIN' }, previousData: { id: ananyaId } }), (e: { status: number }) => e.status === 403);
    await assert.rejects(superDoctor.update('staff', { id: farahId, data: { role: 'ADMIN' }, previousData: { id: farahId } }), (e: { status: number }) => e.status === 403);
    assert.equal((await superDoctor.update('staff', { id: farahId, data: { role: 'USER' }, previousData: { id: farahId } })).data.role, 'USER');
    // Nor by adding or inviting an ADMIN (a second address of theirs, who would then remove the others), nor by
    // removing one: refused before any account is made for the address.
    for (const email of ['second-self@sunrise.in', 'ravi@moon.in']) {
      await assert.rejects(
        superDoctor.create('staff', { data: { institution_id: institutionId, name: 'Second Self', email, phone: '+91 90000 55555', account_type: 'ADMIN' } }),
        (e: { status: number }) => e.status === 403,
      );
    }
    assert.equal(await findUserIdByEmail(t.app.eventStore, 'second-self@sunrise.in'), null, 'no account made');
    await assert.rejects(superDoctor.delete('staff', { id: lataId }), (e: { status: number }) => e.status === 403);
    assert.equal((await lata.getOne('staff', { id: lataId })).data.role, 'ADMIN');
    // Another institution's admin is told it does not exist; a bad role is 422.
    const ravi = providerFor(await t.signedIn('ravi@moon.in', 'patient'));
    await assert.rejects(ravi.update('staff', { id: farahId, data: { role: 'STAFF' }, previousData: { id: farahId } }), (e: { status: number }) => e.status === 404);
    await assert.rejects(lata.update('staff', { id: farahId, data: { role: 'OWNER' }, previousData: { id: farahId } }), (e: { status: number }) => e.status === 422);
    // Back as she was: a DOCTOR (the appointments below are read through her membership).
    assert.equal((await lata.update('staff', { id: ananyaId, data: { role: 'DOCTOR' }, previousData: { id: ananyaId } })).data.role, 'DOCTOR');
    const events = (await t.app.eventStore.readStream(`institution-${institutionId}`)).filter((e) => e.type === 'InstitutionStaffRoleChanged');
    assert.deepEqual(
      events.map((e) => [(e.data as { previous_role: string }).previous_role, (e.data as { role: string }).role]),
      [['STAFF', 'ADMIN'], ['ADMIN', 'STAFF'], ['DOCTOR', 'SUPER_DOCTOR'], ['STAFF', 'USER'], ['SUPER_DOCTOR', 'DOCTOR']],
    );
  });

  it('appointments: filters by status, doctor, patient, dates and notes; show; history with readable lines, CSV, and every read audited', async () => {
    doctor = await t.signedIn('ananya@sunrise.in', 'doctor');
    const date = indiaDate(3);
    const [slot, slot2] = await t.openSlots(doctor, [{ date, time: '10:30' }, { date, time: '11:00' }]);
    const booked = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever for three days' }).expect(201);
    appointmentId = booked.body.appointment_id;
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot2, notes: 'Follow-up' }).expect(201);
    const approved = await t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(doctor.auth).expect(200);
    lastPosition = Math.max(lastPosition, Number(approved.headers['x-event-position']));

    const lata = providerFor(await t.signedIn('lata@sunrise.in', 'patient'));
    const all = await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: {} });
    assert.equal(all.total, 2);
    assert.equal(all.data[0]!.id, appointmentId);
    assert.equal(all.data[0]!.notes, 'Fever for three days');
    const confirmed = await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'DESC' }, filter: { status: 'confirmed', doctor_id: doctor.user_id, patient_id: patient.user_id } });
    assert.deepEqual(confirmed.data.map((a) => a.id), [appointmentId]);
    const paged = await lata.getList('appointments', { pagination: { page: 2, perPage: 1 }, sort: { field: 'start', order: 'ASC' }, filter: {} });
    assert.equal(paged.total, 2);
    assert.equal(paged.data.length, 1);
    assert.notEqual(paged.data[0]!.id, appointmentId);
    const dated = await lata.getList('appointments', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'start', order: 'ASC' },
      filter: { start_gte: `${date}T05:00:00Z`, start_lte: `${date}T05:15:00Z` },
    });
    assert.deepEqual(dated.data.map((a) => a.id), [appointmentId], '10:30 India is 05:00 UTC');
    const searched = await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: { q: 'fever', start_gte: `${date}T00:00:00Z`, start_lte: `${date}T23:59:59Z` } });
    assert.deepEqual(searched.data.map((a) => a.id), [appointmentId]);
    // Notes have no index: a search reads a window of starts (a month at most), never the institution's whole history.
    for (const filter of [{ q: 'fever' }, { q: 'fever', start_gte: '2020-01-01T00:00:00Z', start_lte: `${date}T23:59:59Z` }]) {
      await assert.rejects(
        lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter }),
        (e: { status: number; message: string }) => e.status === 422 && /at most 31 days apart/.test(e.message),
        `a search of notes without a window of a month is refused: ${JSON.stringify(filter)}`,
      );
    }
    const ref = await lata.getManyReference('appointments', { target: 'doctor_id', id: doctor.user_id, pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: {} });
    assert.equal(ref.total, 2);
    assert.equal((await lata.getOne('appointments', { id: appointmentId })).data.status, 'confirmed');
    assert.equal((await lata.getMany('appointments', { ids: [appointmentId] })).data.length, 1);

    // The platform admin sees every appointment but not the patient's notes, and may not search them.
    const admin = providerFor(platformAdmin);
    const operators = await admin.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: {} });
    assert.equal(operators.total, 2);
    assert.equal(operators.data[0]!.notes, null);
    await assert.rejects(admin.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: { q: 'fever' } }), (e: { status: number }) => e.status === 403);
    // The other institution sees none of them.
    const ravi = providerFor(await t.signedIn('ravi@moon.in', 'patient'));
    assert.equal((await ravi.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: {} })).total, 0);
    await assert.rejects(ravi.getOne('appointments', { id: appointmentId }), (e: { status: number }) => e.status === 404);

    const latsToken = (await t.signedIn('lata@sunrise.in', 'patient')).token;
    const history = await fetch(`${base}/api/v1/admin/appointments/${appointmentId}/history`, { headers: { Authorization: `Bearer ${latsToken}` } }).then((r) => r.json() as Promise<HistoryBody>);
    const lines = history.events.map((e: { description: string }) => e.description);
    assert.ok(lines.some((l: string) => /^Requested by Meera Iyer for \w{3} \d{1,2} \w{3}, 10:30 — reason: Fever for three days$/.test(l)), lines.join(' | '));
    assert.ok(lines.includes('Approved by Dr. Ananya Sharma'), lines.join(' | '));
    for (const e of history.events) {
      assert.ok(e.correlation_id, 'each entry has its correlation id');
      assert.ok(e.actor.role && e.occurred_at);
    }
    const csv = await fetch(`${base}/api/v1/admin/appointments/${appointmentId}/history.csv`, { headers: { Authorization: `Bearer ${latsToken}` } });
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(csv.headers.get('content-disposition')!, /attachment/);
    const text = await csv.text();
    assert.match(text.split('\r\n')[0]!, /^time,actor,role,event,description,correlation_id,event_id$/);
    assert.match(text, /"Approved by Dr\. Ananya Sharma"/);
    const viaFormat = await fetch(`${base}/api/v1/admin/appointments/${appointmentId}/history?format=csv`, { headers: { Authorization: `Bearer ${latsToken}` } });
    assert.equal(await viaFormat.text(), text);
    // The operator's timeline leaves the reason out.
    const operatorHistory = await fetch(`${base}/api/v1/admin/appointments/${appointmentId}/history`, { headers: platformAdmin.auth }).then((r) => r.json() as Promise<HistoryBody>);
    assert.ok(operatorHistory.events.some((e: { description: string }) => /^Requested by Meera Iyer for .*10:30$/.test(e.description)));

    // Each history read is on the patient's access log.
    await t.settle();
    const log = await t.http.get('/api/v1/users/me/access-log').set(patient.auth).expect(200);
    const historyReads = (log.body.entries ?? log.body).filter((e: { route?: string; what?: { route: string } }) => JSON.stringify(e).includes('/admin/appointments/:id/history'));
    assert.ok(historyReads.length >= 4, `history reads recorded: ${historyReads.length}`);
  });

  it("a role change out of and back into a doctor role: the institution reads its doctors' appointments only from while they were its doctors", async () => {
    const lata = providerFor(await t.signedIn('lata@sunrise.in', 'patient'));
    const ananyaId = `${institutionId}~${doctor.user_id}`;
    const listed = async () =>
      (await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'ASC' }, filter: {} })).data.map((a) => a.id);
    assert.ok((await listed()).includes(appointmentId));
    assert.equal((await lata.update('staff', { id: ananyaId, data: { role: 'STAFF' }, previousData: { id: ananyaId } })).data.role, 'STAFF');
    const doctors = await lata.getList('doctors', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId } });
    assert.ok(!doctors.data.some((d) => d.doctor_id === doctor.user_id), 'no longer among its doctors');
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(5), time: '10:00' }]);
    const whileStaff = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Not through the clinic' }).expect(201)).body.appointment_id as string;
    lastPosition = Math.max(lastPosition, await t.app.eventStore.headPosition());
    await t.settle();
    const asStaff = await listed();
    assert.ok(asStaff.includes(appointmentId), 'what was made while a doctor there stays readable (audit)');
    assert.ok(!asStaff.includes(whileStaff), 'nothing made while not its doctor');
    assert.equal((await lata.update('staff', { id: ananyaId, data: { role: 'DOCTOR' }, previousData: { id: ananyaId } })).data.role, 'DOCTOR');
    const again = await listed();
    assert.ok(again.includes(appointmentId));
    assert.ok(!again.includes(whileStaff), 'becoming a doctor again opens nothing from before');
    await assert.rejects(lata.getOne('appointments', { id: whileStaff }), (e: { status: number }) => e.status === 404);
    assert.equal((await lata.getOne('staff', { id: ananyaId })).data.role, 'DOCTOR');
    const removed = await lata.getList('staff', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId, is_active: false } });
    assert.ok(removed.data.length > 0 && !removed.data.some((m) => m.id === ananyaId), 'her earlier roles are not listed as a removed member');
  });

  it('users (platform admins): list by account type, show, getMany, deactivate and reactivate', async () => {
    const admin = providerFor(platformAdmin);
    const patients = await admin.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'registered_at', order: 'DESC' }, filter: { account_type: 'patient' } });
    assert.ok(patients.data.every((u) => u.account_type === 'patient'));
    assert.ok(patients.data.some((u) => u.id === patient.user_id));
    assert.equal((await admin.getOne('users', { id: patient.user_id })).data.name, 'Meera Iyer');
    assert.equal((await admin.getMany('users', { ids: [patient.user_id, doctor.user_id] })).data.length, 2);
    const off = await admin.update('users', { id: patient.user_id, data: { is_active: false }, previousData: { id: patient.user_id } });
    assert.equal(off.data.is_active, false);
    await t.settle();
    await t.http.get('/api/v1/users/me').set(patient.auth).expect(401);
    const on = await admin.update('users', { id: patient.user_id, data: { is_active: true }, previousData: { id: patient.user_id } });
    assert.equal(on.data.is_active, true);
    await t.settle();
    // The account is back, not what was signed in before its deactivation: a new sign-in.
    await t.http.get('/api/v1/users/me').set(patient.auth).expect(401);
    const signedInAgain = await t.signInAgain(patient, 'patient');
    await t.http.get('/api/v1/users/me').set(signedInAgain.auth).expect(200);
    await assert.rejects(providerFor(signedInAgain).getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' }, filter: {} }), (e: { status: number }) => e.status === 403);
  });

  it('projections: listed with Content-Range for the operators', async () => {
    const list = await providerFor(platformAdmin).getList('projections', { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: {} });
    assert.ok((list.total ?? 0) > 5);
    assert.ok(list.data.some((p) => p.id === 'appointment_history'));
  });

  it('institutions: disband answers the record, inactive', async () => {
    const gone = await providerFor(platformAdmin).delete('institutions', { id: otherInstitutionId });
    assert.equal(gone.data.is_active, false);
  });

  it('bad sort, range or filter: 422 with detail and the message the provider shows; never a 500', async () => {
    const bad = ['sort=notjson', 'range=[5,1]', 'range=[0,500]', 'filter={"nope":1}', 'sort=["password","ASC"]', 'filter={"start_gte":"yesterday"}', 'range=[0'];
    for (const query of bad) {
      const res = await fetch(`${base}/api/v1/admin/appointments?${query}`, { headers: platformAdmin.auth });
      assert.equal(res.status, 422, query);
      const body = (await res.json()) as { detail: unknown; message: unknown };
      assert.ok(Array.isArray(body.detail) && typeof body.message === 'string' && body.message.length > 0, `${query}: ${JSON.stringify(body)}`);
    }
    await assert.rejects(
      providerFor(platformAdmin).getOne('appointments', { id: 'no-such-appointment' }),
      (e: { status: number; message: string; body: { detail: string } }) => e.status === 404 && e.message === e.body.detail,
    );
  });

  it('CORS for a configured origin: Range allowed, Content-Range exposed; other origins get nothing', async () => {
    const preflight = await fetch(`${base}/api/v1/admin/institutions`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,range' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), ORIGIN);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /\bRange\b/);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /\bAuthorization\b/);
    const list = await fetch(`${base}/api/v1/admin/institutions?range=[0,24]`, { headers: { ...platformAdmin.auth, Origin: ORIGIN, Range: 'institutions=0-24' } });
    assert.equal(list.headers.get('access-control-allow-origin'), ORIGIN);
    assert.match(list.headers.get('access-control-expose-headers')!, /\bContent-Range\b/);
    assert.match(list.headers.get('content-range')!, /^institutions 0-\d+\/\d+$/);
    const stranger = await fetch(`${base}/api/v1/admin/institutions`, { method: 'OPTIONS', headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(stranger.headers.get('access-control-allow-origin'), null);
  });
});

describe("the console's appointment history: the consultation and its clinical records, without their content", () => {
  let t: TestApp;
  let now = new Date();
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
  });
  after(() => t.close());

  it('joined, left, ended; draft and final notes; prescription issued; prescription file uploaded; report attached: who and when, nothing of what', async () => {
    const operator = await t.createUser('admin', { name: 'Operator' });
    const doctor = await t.createUser('doctor', { name: 'Ananya Sharma', doctor: { registration_number: 'KMC-2015-11111', medical_council: 'Karnataka Medical Council', qualification: 'MBBS, MD' } });
    const patient = await t.createUser('patient', { name: 'Meera Iyer' });
    const date = indiaDate(2);
    const [slot] = await t.openSlots(doctor, [{ date, time: '10:00' }]);
    const booked = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201);
    const id = booked.body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    now = DateTime.fromISO(`${date}T10:00`, { zone: DEFAULT_TIMEZONE }).minus({ minutes: 2 }).toJSDate();
    await t.http.post(`/api/v1/consultations/${id}/join`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/leave`).set(patient.auth).expect(200);
    const secrets = ['Migraine with aura', 'Paracetamol', 'Viral fever, draft', 'rx-scan.pdf', 'City Scans', 'Dolo 650 twice'];
    const notes = `/api/v1/consultations/${id}/notes`;
    await t.http.put(notes).set(doctor.auth).send({ is_draft: true, clinical_assessment: 'Viral fever, draft' }).expect(200);
    await t.http.put(notes).set(doctor.auth).send({ is_draft: false, patient_name: 'Meera Iyer', chief_complaint: 'Migraine with aura', template: 'general_consultation' }).expect(200);
    await t.settle();
    const medicine = ((await t.http.get('/api/v1/medicines/search?q=parac').set(doctor.auth).expect(200)).body as Array<{ id: string; dosage_form: string; strengths: string[] }>).find((m) => m.dosage_form === 'Tablet')!;
    await t.http
      .post(`/api/v1/consultations/${id}/prescriptions`)
      .set(doctor.auth)
      .send({ lines: [{ medicine: 'Paracetamol', medicine_id: medicine.id, strength: medicine.strengths[0], dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' }], diagnosis: 'Migraine with aura' })
      .expect(201);
    const rx = await t.http.post(`/api/v1/consultations/${id}/prescription-files`).set(doctor.auth).field('patient_name', 'Meera Iyer').field('medication_summary', 'Dolo 650 twice').attach('file', PDF, 'rx-scan.pdf');
    assert.equal(rx.status, 201, JSON.stringify(rx.body));
    const report = await t.http
      .post('/api/v1/records/reports')
      .set(patient.auth)
      .field('report_type', 'lab')
      .field('report_date', indiaDate(0))
      .field('medical_facility', 'City Scans')
      .field('appointment_id', id)
      .attach('files', PDF, 'blood.pdf');
    assert.equal(report.status, 201, JSON.stringify(report.body));
    // A report for no appointment is in no history.
    await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', PDF, 'other.pdf').expect(201);
    await t.http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth).expect(200);
    await t.settle();

    const history = (await t.http.get(`/api/v1/admin/appointments/${id}/history`).set(operator.auth).expect(200)).body as {
      events: Array<{ type: string; description: string; actor: { user_id: string; role: string; name: string | null }; occurred_at: string; correlation_id: string }>;
    };
    const lines = history.events.map((e) => e.description);
    const expected = [
      'Consultation started',
      'Dr. Ananya Sharma joined the consultation',
      'Meera Iyer joined the consultation',
      'Meera Iyer left the consultation',
      'Draft consultation notes saved by Dr. Ananya Sharma',
      'Consultation notes saved by Dr. Ananya Sharma (final: the patient may read them)',
      'Prescription issued by Dr. Ananya Sharma',
      'Prescription file uploaded by Dr. Ananya Sharma',
      'Report attached by Meera Iyer',
      'Consultation ended by Dr. Ananya Sharma',
    ];
    const from = lines.indexOf('Consultation started');
    assert.ok(from > 0, lines.join(' | '));
    assert.deepEqual(
      lines.slice(from).filter((l) => expected.includes(l)),
      expected,
      `in log order: ${lines.join(' | ')}`,
    );
    for (const e of history.events.filter((e) => ['ConsultationNotesSaved', 'PrescriptionIssued', 'PrescriptionFileUploaded', 'MedicalReportUploaded'].includes(e.type))) {
      assert.ok(e.actor.name && e.occurred_at && e.correlation_id, JSON.stringify(e));
    }
    // Nothing of what they say: not in the lines, the CSV, nor the history's read model.
    const csv = (await t.http.get(`/api/v1/admin/appointments/${id}/history.csv`).set(operator.auth).expect(200)).text;
    const stored = JSON.stringify(await t.app.readStore.collection('appointment_history').find({ appointment_id: id }));
    for (const secret of secrets) {
      assert.ok(!JSON.stringify(history).includes(secret), `the timeline holds no "${secret}"`);
      assert.ok(!csv.includes(secret), `the CSV holds no "${secret}"`);
      assert.ok(!stored.includes(secret), `the history's read model holds no "${secret}"`);
    }
    assert.equal(history.events.filter((e) => e.type === 'MedicalReportUploaded').length, 1, 'only the report attached to this appointment');
  });
});
