import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { findUserIdByEmail } from '@telemed/command';
import { INSTITUTION_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/** The account registered under this address, signed in as the kind of account it is. */
async function accountOf(t: TestApp, email: string): Promise<TestUser> {
  const user_id = await findUserIdByEmail(t.app.eventStore, email);
  assert.ok(user_id, `an account exists for ${email}`);
  const me = await t.app.readStore.collection<{ _id: string; account_type: 'patient' | 'doctor' | 'admin' }>('users').get(user_id);
  return t.signedIn(email, me!.account_type);
}

describe('institutions API', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Sunrise Clinic's details and staff, with addresses and a slug of the case's own. */
  const sunrise = () => {
    const tag = randomUUID().slice(0, 8);
    const email = (local: string) => `${local}.${tag}@sunrise.in`;
    const staff = {
      admin: { name: 'Lata Rao', email: email('lata'), phone: '+91 90000 11111', account_type: 'ADMIN', role_title: 'Clinic manager' },
      user: { name: 'Vikram Das', email: email('vikram'), phone: '+91 90000 22222', account_type: 'USER' },
      staff: { name: 'Sita Nair', email: email('sita'), phone: '+91 90000 33333', account_type: 'STAFF' },
    };
    const body = (slug: string, members: Array<Record<string, string>>) => ({ name: 'Sunrise Clinic', slug, address: '12 MG Road, Bengaluru', phone: '+91 80 4000 1234', email: email('contact'), staff: members });
    const kiranBody = { name: 'Dr. Kiran Shah', email: email('kiran'), phone_number: '+91 90000 44444', specialty: 'Cardiology', qualification: 'MBBS, DM', consultation_fee: 700, appointment_duration_minutes: 30 };
    return { slug: `sunrise-${tag}`, email, staff, body, kiranBody };
  };
  const create = (who: TestUser | null, body: object) =>
    spec.when((http) => {
      const req = http.post('/api/v1/institutions/').send(body);
      return who ? req.set(who.auth) : req;
    });

  /**
   * Sunrise Clinic created by a platform admin with Lata (its admin), Vikram (USER) and Sita (STAFF); with Dr. Kiran Shah
   * added by Lata when `withKiran`. Everyone's accounts, a patient of no institution, and the clinic's id.
   */
  const givenSunrise = async ({ withKiran = false } = {}) => {
    const s = sunrise();
    const platformAdmin = await t.createUser('admin');
    const patient = await spec.given.patient();
    const created = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(s.body(s.slug, [s.staff.admin, s.staff.user, s.staff.staff]));
    assert.equal(created.status, 201, `given: Sunrise Clinic (${created.text})`);
    const id = created.body.id as string;
    await t.settle();
    const [lata, vikram, sita] = [await accountOf(t, s.staff.admin.email), await accountOf(t, s.staff.user.email), await accountOf(t, s.staff.staff.email)];
    let kiran: TestUser | null = null;
    if (withKiran) {
      await t.http.post(`/api/v1/institutions/${id}/doctors`).set(lata.auth).send(s.kiranBody).expect(201);
      await t.settle();
      kiran = await accountOf(t, s.kiranBody.email);
    }
    return { ...s, id, platformAdmin, patient, lata, vikram, sita, kiran: kiran! };
  };

  it('only platform admins create institutions', async () => {
    const s = sunrise();
    const body = s.body(s.slug, [s.staff.admin]);
    (await create(await spec.given.patient(), body)).expectStatus(403).expectNoEvents();
    (await create(null, body)).expectStatus(401).expectNoEvents();
  });

  it('needs at least one staff member and a valid slug', async () => {
    const s = sunrise();
    const platformAdmin = await t.createUser('admin');
    const none = (await create(platformAdmin, s.body(s.slug, []))).expectStatus(422).expectNoEvents();
    assert.equal(none.body.detail[0].msg, INSTITUTION_TEXTS.atLeastOneStaff);
    (await create(platformAdmin, s.body('Not A Slug!', [s.staff.admin]))).expectStatus(422).expectNoEvents();
    (await create(platformAdmin, s.body('-bad-', [s.staff.admin]))).expectStatus(422).expectNoEvents();
  });

  it('creates the institution with its staff, provisioning their accounts, with the seeds default hours and permissions', async () => {
    const s = sunrise();
    const res = (await create(await t.createUser('admin'), s.body(s.slug, [s.staff.admin, s.staff.user, s.staff.staff]))).expectStatus(201);
    const institution = streams.institution(res.body.id);
    // The slug claimed, the three accounts registered, then the institution and its three members recorded.
    res.expectEvents([
      { stream: streams.institutionSlug(s.slug), type: 'InstitutionSlugClaimed' },
      ...[1, 2, 3].map(() => ({ type: 'UserRegistered' })),
      { stream: institution, type: 'InstitutionCreated' },
      ...[1, 2, 3].map(() => ({ stream: institution, type: 'InstitutionStaffAdded' })),
    ]);
    assert.equal(res.body.slug, s.slug);
    assert.equal(res.body.is_active, true);
    assert.deepEqual(res.body.hours_of_operation, { MO: '09:00-17:00', TU: '09:00-17:00', WE: '09:00-17:00', TH: '09:00-17:00', FR: '09:00-17:00', SA: '09:00-13:00', SU: null });
    assert.deepEqual(res.body.role_permissions.SUPER_DOCTOR, ['read', 'write', 'delete', 'appointments', 'manage_staff', 'manage_institution']);
    assert.deepEqual(res.body.staff.map((m: { name: string; is_institution_admin: boolean }) => [m.name, m.is_institution_admin]), [
      ['Lata Rao', true],
      ['Vikram Das', false],
      ['Sita Nair', false],
    ]);
  });

  it('a slug is taken once', async () => {
    const { slug, body, staff, platformAdmin } = await givenSunrise();
    const res = (await create(platformAdmin, body(slug, [staff.admin]))).expectStatus(409).expectNoEvents();
    assert.equal(res.body.detail, INSTITUTION_TEXTS.slugTaken);
  });

  it('check-admin-status and my-institution for the institution admin, 404 text for others', async () => {
    const { id, lata, vikram, patient } = await givenSunrise();
    const get = (who: TestUser, url: string) => spec.read((http) => http.get(url).set(who.auth));
    assert.deepEqual((await get(lata, '/api/v1/institutions/check-admin-status')).body, { is_institution_admin: true, institution_id: id });
    assert.deepEqual((await get(patient, '/api/v1/institutions/check-admin-status')).body, { is_institution_admin: false, institution_id: null });
    const mine = await get(lata, '/api/v1/institutions/my-institution');
    assert.equal(mine.status, 200);
    assert.equal(mine.body.name, 'Sunrise Clinic');
    assert.deepEqual(mine.body.doctors, []);
    const notAdmin = await get(vikram, '/api/v1/institutions/my-institution');
    assert.equal(notAdmin.status, 404);
    assert.equal(notAdmin.body.detail, INSTITUTION_TEXTS.notAnAdmin);
  });

  it('the institution admin adds a doctor: the account is created and listed; roles without manage_staff are refused', async () => {
    const { id, lata, vikram, patient, kiranBody: doctor } = await givenSunrise();
    const add = (who: TestUser, body: object) => spec.when((http) => http.post(`/api/v1/institutions/${id}/doctors`).set(who.auth).send(body));
    (await add(vikram, doctor)).expectStatus(403).expectNoEvents();
    (await add(patient, doctor)).expectStatus(404).expectNoEvents();
    (await add(lata, { ...doctor, email: 'nope' })).expectStatus(422).expectNoEvents();
    const res = (await add(lata, doctor)).expectStatus(201);
    res.expectEvents([
      { stream: streams.doctorNumbers(), type: 'DoctorNumberAssigned' },
      { stream: streams.user(res.body.doctor_id), type: 'UserRegistered' },
      { stream: streams.user(res.body.doctor_id), type: 'DoctorRegistered' },
      { stream: streams.institution(id), type: 'InstitutionStaffAdded' },
    ]);
    const mine = await spec.read((http) => http.get('/api/v1/institutions/my-institution').set(lata.auth).expect(200));
    assert.deepEqual(mine.body.doctors, [
      { doctor_id: res.body.doctor_id, name: 'Dr. Kiran Shah', email: doctor.email, phone_number: '+91 90000 44444', specialty: 'Cardiology', qualification: 'MBBS, DM', consultation_fee: 700, is_active: true, is_institution_admin: false },
    ]);
    const listed = await spec.read((http) => http.get('/api/v1/doctors/').set(patient.auth).expect(200));
    assert.ok(listed.body.some((d: { doctor_id: string }) => d.doctor_id === res.body.doctor_id));
    // Looking the account up by its address is a read of it, on the admin's access log; nothing else is written.
    const lookedUp = [{ stream: streams.accessAudit(lata.user_id), type: 'PersonalDataAccessed' }];
    const again = (await add(lata, doctor)).expectStatus(201).expectEvents(lookedUp);
    assert.equal(again.body.doctor_id, res.body.doctor_id, 'adding the same doctor again links the same account');
    const patientEmail = (await spec.read((http) => http.get('/api/v1/users/me').set(patient.auth))).body.email;
    const clash = (await add(lata, { ...doctor, email: patientEmail })).expectStatus(409).expectEvents(lookedUp).expectReactions([]);
    assert.equal(clash.body.detail, INSTITUTION_TEXTS.notADoctorAccount);
  });

  it("reads the institution's appointments and their histories, for its own doctors only", async () => {
    const { id, lata, vikram, sita, patient, platformAdmin, kiran } = await givenSunrise({ withKiran: true });
    const outside = await spec.given.doctor();
    const { appointment_id } = await spec.given.appointment({ doctor: kiran, patient, at: { days: 2, time: '12:00' }, notes: 'Palpitations', confirmed: true });
    await spec.given.appointment({ doctor: outside, patient, at: { days: 2, time: '12:30' }, notes: 'Elsewhere' });
    const get = (who: TestUser, url: string) => spec.read((http) => http.get(url).set(who.auth));
    const confirmed = await get(lata, `/api/v1/institutions/${id}/appointments?appointment_status=confirmed`);
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.length, 1);
    assert.equal(confirmed.body[0].doctor.name, 'Dr. Kiran Shah');
    assert.equal(confirmed.body[0].notes, 'Palpitations');
    assert.equal(confirmed.body[0].slot.start_time, '12:00:00');
    // USER has the appointments permission by default (seeds); STAFF does not.
    assert.equal((await get(vikram, `/api/v1/institutions/${id}/appointments`)).status, 200);
    assert.equal((await get(sita, `/api/v1/institutions/${id}/appointments`)).status, 403);
    assert.equal((await get(patient, `/api/v1/institutions/${id}/appointments`)).status, 404);
    const history = await get(lata, `/api/v1/appointments/${appointment_id}/history`);
    assert.equal(history.status, 200);
    assert.ok(history.body.events.some((e: { type: string }) => e.type === 'AppointmentApproved'));
    assert.equal((await get(sita, `/api/v1/appointments/${appointment_id}/history`)).status, 404);
    assert.equal((await get(platformAdmin, `/api/v1/appointments/${appointment_id}/history`)).status, 404);
  });

  it('pages the institution appointments newest first with limit and cursor; without them the whole list by start', async () => {
    const { id, lata, patient, kiran } = await givenSunrise({ withKiran: true });
    // Five appointments: two pages of two, and the rest.
    for (const [days, time] of [[2, '12:00'], ...['14:00', '14:30', '15:00', '15:30'].map((at) => [3, at] as const)] as const) {
      await spec.given.appointment({ doctor: kiran, patient, at: { days, time }, notes: 'Paging' });
    }
    const url = `/api/v1/institutions/${id}/appointments`;
    const get = async (query: string, status = 200) => (await spec.read((http) => http.get(`${url}${query}`).set(lata.auth).expect(status))).body;
    const all = (await get('')) as Array<{ id: string; slot: { start_at: string } }>;
    assert.equal(all.length, 5);
    assert.deepEqual(all.map((a) => a.slot.start_at), [...all.map((a) => a.slot.start_at)].sort().reverse(), 'without a limit: the first page, newest first');
    const newestFirst = all.map((a) => a.id);
    const first = (await get('?limit=2')) as Array<{ id: string }>;
    assert.deepEqual(first.map((a) => a.id), newestFirst.slice(0, 2));
    const second = (await get(`?limit=2&cursor=${first[1]!.id}`)) as Array<{ id: string }>;
    assert.deepEqual(second.map((a) => a.id), newestFirst.slice(2, 4));
    const rest = (await get(`?limit=200&cursor=${second[1]!.id}`)) as Array<{ id: string }>;
    assert.deepEqual(rest.map((a) => a.id), newestFirst.slice(4));
    await get('?limit=0', 422);
    await get('?limit=201', 422);
    await get('?cursor=not-an-appointment', 422);
  });

  it('lists staff; removes staff; keeps the last admin', async () => {
    const { id, lata, vikram, sita } = await givenSunrise({ withKiran: true });
    const staff = await spec.read((http) => http.get(`/api/v1/institutions/${id}/staff`).set(lata.auth).expect(200));
    assert.deepEqual(staff.body.map((m: { name: string }) => m.name), ['Lata Rao', 'Vikram Das', 'Sita Nair', 'Dr. Kiran Shah']);
    const remove = (who: TestUser, userId: string) => spec.when((http) => http.delete(`/api/v1/institutions/${id}/staff/${userId}`).set(who.auth));
    (await remove(vikram, sita.user_id)).expectStatus(403).expectNoEvents();
    (await remove(lata, sita.user_id)).expectStatus(200).expectEvents([{ stream: streams.institution(id), type: 'InstitutionStaffRemoved', data: { user_id: sita.user_id } }]);
    await spec.read((http) => http.get(`/api/v1/institutions/${id}/staff`).set(sita.auth).expect(404));
    const last = (await remove(lata, lata.user_id)).expectStatus(409).expectNoEvents();
    assert.equal(last.body.detail, INSTITUTION_TEXTS.lastAdmin);
    (await remove(lata, 'nobody')).expectStatus(404).expectNoEvents();
  });

  it('removes a doctor from the institution; the account stays', async () => {
    const { id, lata, kiran } = await givenSunrise({ withKiran: true });
    const remove = () => spec.when((http) => http.delete(`/api/v1/institutions/${id}/doctors/${kiran.user_id}`).set(lata.auth));
    (await remove()).expectStatus(200).expectEvents([{ stream: streams.institution(id), type: 'InstitutionStaffRemoved', data: { user_id: kiran.user_id } }]);
    const mine = await spec.read((http) => http.get('/api/v1/institutions/my-institution').set(lata.auth).expect(200));
    assert.deepEqual(mine.body.doctors, []);
    await spec.read((http) => http.get('/api/v1/users/me').set(kiran.auth).expect(200));
    (await remove()).expectStatus(404).expectNoEvents();
  });

  it('lists institutions: all for platform admins, their own for staff, none for others', async () => {
    const sunriseClinic = await givenSunrise();
    const other = await givenSunrise();
    const ids = async (who: TestUser) => ((await spec.read((http) => http.get('/api/v1/institutions/').set(who.auth).expect(200))).body as Array<{ id: string }>).map((i) => i.id);
    const all = await ids(sunriseClinic.platformAdmin);
    assert.ok(all.includes(sunriseClinic.id) && all.includes(other.id), 'a platform admin sees every institution');
    assert.deepEqual(await ids(sunriseClinic.vikram), [sunriseClinic.id]);
    assert.deepEqual(await ids(sunriseClinic.patient), []);
  });

  it('disbanding is for platform admins, recorded as an event; the institution then answers 404', async () => {
    const { id, lata, platformAdmin } = await givenSunrise();
    const disband = (who: TestUser) => spec.when((http) => http.delete(`/api/v1/institutions/${id}`).set(who.auth));
    (await disband(lata)).expectStatus(403).expectNoEvents();
    (await disband(platformAdmin)).expectStatus(200).expectEvents([{ stream: streams.institution(id), type: 'InstitutionDisbanded' }]);
    const list = await spec.read((http) => http.get('/api/v1/institutions/').set(platformAdmin.auth).expect(200));
    assert.ok(!(list.body as Array<{ id: string }>).some((i) => i.id === id), 'no longer listed');
    await spec.read((http) => http.get(`/api/v1/institutions/${id}/staff`).set(lata.auth).expect(404));
    const events = await t.app.eventStore.readStream(streams.institution(id));
    assert.equal(events.at(-1)!.type, 'InstitutionDisbanded');
    assert.ok(events.length > 1, 'nothing was deleted');
    // Disbanding again answers the same and records nothing more.
    (await disband(platformAdmin)).expectStatus(200).expectNoEvents();
  });
});

/**
 * Finding 2: an institution admin added an existing doctor by e-mail and, from then on, read the appointments and
 * histories of that doctor's patients. An existing account now only joins by accepting an invitation, and an
 * institution only sees appointments requested while the doctor was its member.
 */
describe('institution invitations across two institutions', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const doctorBody = (email: string) => ({ name: 'Dr. Dev Menon', email, phone_number: '+91 90000 70000', specialty: 'ENT', qualification: 'MS', consultation_fee: 300 });

  /**
   * Clinic A (Asha, its admin) and clinic B (Bina, its admin, and Dr. Dev Menon, its doctor, whose account B's creation
   * made), with a confirmed appointment of Dev's; then, as far as `until` says, A invites Dev, Dev accepts (and has an
   * appointment while a member), and A removes him (and he has one after).
   */
  const givenClinics = async (until: 'created' | 'invited' | 'accepted' | 'removed' = 'created') => {
    const tag = randomUUID().slice(0, 8);
    const clinic = (name: string, staff: Array<Record<string, string>>) => ({ name: `Clinic ${name}`, slug: `${name}-${tag}`, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${name}.${tag}@clinic.in`, staff });
    const emails = { asha: `asha.${tag}@a.in`, bina: `bina.${tag}@b.in`, dev: `dev.${tag}@b.in` };
    const platformAdmin = await t.createUser('admin');
    const patient = await spec.given.patient();
    const a = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(clinic('clinic-a', [{ name: 'Asha', email: emails.asha, phone: '+91 90000 10000', account_type: 'ADMIN' }]));
    assert.equal(a.status, 201, `given: clinic A (${a.text})`);
    const b = await t.http
      .post('/api/v1/institutions/')
      .set(platformAdmin.auth)
      .send(
        clinic('clinic-b', [
          { name: 'Bina', email: emails.bina, phone: '+91 90000 20000', account_type: 'ADMIN' },
          { name: 'Dr. Dev Menon', email: emails.dev, phone: '+91 90000 70000', account_type: 'DOCTOR' },
        ]),
      );
    assert.equal(b.status, 201, `given: clinic B (${b.text})`);
    assert.equal(b.body.staff.length, 2, 'accounts that did not exist yet are created and join directly');
    await t.settle();
    const [asha, bina, dev] = [await accountOf(t, emails.asha), await accountOf(t, emails.bina), await accountOf(t, emails.dev)];
    const given = { platformAdmin, patient, asha, bina, dev, emails, clinic, clinicA: a.body.id as string, clinicB: b.body.id as string };
    /** A confirmed appointment of Dev's with the patient, requested now. */
    const appointmentWithDev = async () => (await spec.given.appointment({ doctor: dev, patient, notes: 'Private clinical note', confirmed: true })).appointment_id;
    const appointments = { beforeInvitation: await appointmentWithDev(), whileMember: '', afterRemoval: '' };
    let invitationId = '';
    if (until !== 'created') {
      invitationId = (await t.http.post(`/api/v1/institutions/${given.clinicA}/doctors`).set(asha.auth).send(doctorBody(emails.dev)).expect(201)).body.invitation_id as string;
    }
    if (until === 'accepted' || until === 'removed') {
      await t.http.post(`/api/v1/institutions/${given.clinicA}/invitations/${invitationId}/accept`).set(dev.auth).expect(200);
      appointments.whileMember = await appointmentWithDev();
    }
    if (until === 'removed') {
      await t.http.delete(`/api/v1/institutions/${given.clinicA}/doctors/${dev.user_id}`).set(asha.auth).expect(200);
      appointments.afterRemoval = await appointmentWithDev();
    }
    await t.settle();
    return { ...given, appointments, invitationId };
  };
  const listed = async (institutionId: string, who: TestUser) =>
    ((await spec.read((http) => http.get(`/api/v1/institutions/${institutionId}/appointments`).set(who.auth).expect(200))).body as Array<{ id: string }>).map((a) => a.id);
  const status = async (who: TestUser, url: string) => (await spec.read((http) => http.get(url).set(who.auth))).status;

  it('adding an existing doctor by e-mail only sends an invitation: nothing of theirs is open to the institution', async () => {
    const { clinicA, clinicB, asha, bina, dev, emails, appointments } = await givenClinics('created');
    const invite = (email: string) => spec.when((http) => http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody(email)));
    // Looking the account up by its address is a read of it, on Asha's access log.
    const lookedUp = { stream: streams.accessAudit(asha.user_id), type: 'PersonalDataAccessed' };
    const res = (await invite(emails.dev.toUpperCase())).expectStatus(201).expectEvents([lookedUp, { stream: streams.institution(clinicA), type: 'InstitutionStaffInvited' }]);
    assert.equal(res.body.status, 'invited');
    assert.equal(res.body.doctor_id, dev.user_id);
    assert.equal(typeof res.body.invitation_id, 'string');
    const invitationId = res.body.invitation_id as string;
    const again = (await invite(emails.dev)).expectStatus(201).expectEvents([lookedUp]);
    assert.deepEqual([again.body.status, again.body.invitation_id], ['invited', invitationId], 'adding again keeps the one invitation');

    const mine = await spec.read((http) => http.get('/api/v1/institutions/my-institution').set(asha.auth).expect(200));
    assert.deepEqual(mine.body.doctors, [], 'a pending invitation is not an active doctor');
    assert.deepEqual(
      mine.body.pending_invitations.map((i: { id: string; email: string; status: string }) => [i.id, i.email, i.status]),
      [[invitationId, emails.dev, 'pending']],
    );
    assert.deepEqual(await listed(clinicA, asha), []);
    assert.equal(await status(asha, `/api/v1/appointments/${appointments.beforeInvitation}/history`), 404);
    assert.equal(await status(dev, `/api/v1/institutions/${clinicA}/staff`), 404);
    assert.deepEqual(await listed(clinicB, bina), [appointments.beforeInvitation]);
  });

  it('only the invitee sees, accepts or declines the invitation; others get 404', async () => {
    const { clinicA, clinicB, asha, bina, dev, patient, platformAdmin, invitationId } = await givenClinics('invited');
    const list = await spec.read((http) => http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200));
    assert.deepEqual(
      list.body.map((i: { id: string; institution: { id: string; name: string }; status: string; account_type: string }) => [i.id, i.institution.id, i.institution.name, i.status, i.account_type]),
      [[invitationId, clinicA, 'Clinic clinic-a', 'pending', 'DOCTOR']],
    );
    assert.equal(await status(dev, `/api/v1/institutions/invitations/${invitationId}`), 200);
    const answer = (who: TestUser | null, institutionId: string, action: 'accept' | 'decline') =>
      spec.when((http) => {
        const req = http.post(`/api/v1/institutions/${institutionId}/invitations/${invitationId}/${action}`);
        return who ? req.set(who.auth) : req;
      });
    for (const other of [asha, bina, patient, platformAdmin]) {
      assert.deepEqual((await spec.read((http) => http.get('/api/v1/institutions/invitations').set(other.auth).expect(200))).body, []);
      assert.equal(await status(other, `/api/v1/institutions/invitations/${invitationId}`), 404);
      (await answer(other, clinicA, 'accept')).expectStatus(404).expectNoEvents();
      (await answer(other, clinicA, 'decline')).expectStatus(404).expectNoEvents();
    }
    (await answer(null, clinicA, 'accept')).expectStatus(401).expectNoEvents();
    (await answer(dev, clinicB, 'accept')).expectStatus(404).expectNoEvents();
  });

  it('once accepted the doctor is a member; the institution sees only appointments requested while they are', async () => {
    const { clinicA, clinicB, asha, bina, dev, patient, appointments, invitationId } = await givenClinics('invited');
    const accept = () => spec.when((http) => http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/accept`).set(dev.auth));
    const accepted = (await accept())
      .expectStatus(200)
      .expectEvents([
        { stream: streams.institution(clinicA), type: 'InstitutionInvitationAccepted', data: { invitation_id: invitationId, user_id: dev.user_id } },
        { stream: streams.institution(clinicA), type: 'InstitutionStaffAdded', data: { user_id: dev.user_id } },
      ]);
    assert.equal(accepted.body.institution_id, clinicA);
    (await accept()).expectStatus(404).expectNoEvents();
    const mine = await spec.read((http) => http.get('/api/v1/institutions/my-institution').set(asha.auth).expect(200));
    assert.deepEqual(mine.body.doctors.map((d: { doctor_id: string }) => d.doctor_id), [dev.user_id]);
    assert.deepEqual(mine.body.pending_invitations, []);
    assert.deepEqual((await spec.read((http) => http.get(`/api/v1/institutions/invitations/${invitationId}`).set(dev.auth).expect(200))).body.status, 'accepted');

    assert.deepEqual(await listed(clinicA, asha), [], 'appointments from before the doctor joined stay private');
    assert.equal(await status(asha, `/api/v1/appointments/${appointments.beforeInvitation}/history`), 404);
    const whileMember = (await spec.given.appointment({ doctor: dev, patient, notes: 'Private clinical note', confirmed: true })).appointment_id;
    assert.deepEqual(await listed(clinicA, asha), [whileMember]);
    assert.equal(await status(asha, `/api/v1/appointments/${whileMember}/history`), 200);
    assert.deepEqual((await listed(clinicB, bina)).sort(), [appointments.beforeInvitation, whileMember].sort(), 'B keeps its own view');
  });

  it('removing the doctor ends access to later appointments; those made while a member stay visible for audit', async () => {
    const { clinicA, asha, bina, dev, patient, appointments } = await givenClinics('accepted');
    const removed = (await spec.when((http) => http.delete(`/api/v1/institutions/${clinicA}/doctors/${dev.user_id}`).set(asha.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinicA), type: 'InstitutionStaffRemoved', data: { user_id: dev.user_id } }]);
    assert.ok(removed.headers['x-event-position']);
    const afterRemoval = (await spec.given.appointment({ doctor: dev, patient, notes: 'Private clinical note', confirmed: true })).appointment_id;
    assert.deepEqual(await listed(clinicA, asha), [appointments.whileMember]);
    assert.equal(await status(asha, `/api/v1/appointments/${appointments.whileMember}/history`), 200);
    assert.equal(await status(asha, `/api/v1/appointments/${afterRemoval}/history`), 404);
    assert.equal(await status(asha, `/api/v1/appointments/${appointments.beforeInvitation}/history`), 404);
    assert.equal(await status(bina, `/api/v1/appointments/${afterRemoval}/history`), 200);
  });

  it('the invitee declines; the institution withdraws an invitation; nobody can accept either afterwards', async () => {
    const { clinicA, asha, bina, dev, emails, appointments, invitationId } = await givenClinics('removed');
    const invite = () => spec.when((http) => http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody(emails.dev)));
    const act = (who: TestUser, id: string, action: 'accept' | 'decline') => spec.when((http) => http.post(`/api/v1/institutions/${clinicA}/invitations/${id}/${action}`).set(who.auth));
    const invitedAgain = (await invite()).expectStatus(201).expectEvents([{ type: 'PersonalDataAccessed' }, { stream: streams.institution(clinicA), type: 'InstitutionStaffInvited' }]);
    const declined = invitedAgain.body.invitation_id as string;
    assert.notEqual(declined, invitationId, 'a former member is invited anew');
    (await act(dev, declined, 'decline')).expectStatus(200).expectEvents([{ stream: streams.institution(clinicA), type: 'InstitutionInvitationDeclined', data: { invitation_id: declined } }]);
    (await act(dev, declined, 'accept')).expectStatus(404).expectNoEvents();

    const withdrawn = (await invite()).expectStatus(201).body.invitation_id as string;
    const revoke = (who: TestUser) => spec.when((http) => http.delete(`/api/v1/institutions/${clinicA}/invitations/${withdrawn}`).set(who.auth));
    (await revoke(bina)).expectStatus(404).expectNoEvents();
    (await revoke(asha)).expectStatus(200).expectEvents([{ stream: streams.institution(clinicA), type: 'InstitutionInvitationRevoked' }]);
    (await act(dev, withdrawn, 'accept')).expectStatus(404).expectNoEvents();
    assert.deepEqual((await spec.read((http) => http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200))).body, []);
    const statuses = await Promise.all([declined, withdrawn].map(async (id) => (await spec.read((http) => http.get(`/api/v1/institutions/invitations/${id}`).set(dev.auth).expect(200))).body.status));
    assert.deepEqual(statuses, ['declined', 'revoked']);
    assert.deepEqual(await listed(clinicA, asha), [appointments.whileMember]);
  });

  it('creating an institution with an existing account invites it; disbanding revokes the invitation', async () => {
    const { platformAdmin, dev, emails, clinic } = await givenClinics('created');
    const chitra = `chitra.${randomUUID().slice(0, 8)}@c.in`;
    const res = (
      await spec.when((http) =>
        http
          .post('/api/v1/institutions/')
          .set(platformAdmin.auth)
          .send(clinic('clinic-c', [{ name: 'Chitra', email: chitra, phone: '+91 90000 30000', account_type: 'ADMIN' }, { name: 'Dev', email: emails.dev, phone: '+91 90000 70000', account_type: 'SUPER_DOCTOR' }])),
      )
    ).expectStatus(201);
    const clinicC = streams.institution(res.body.id);
    // Dev's account looked up (on the operator's access log); Chitra's made; Dev invited, not added.
    res.expectEvents([
      { stream: streams.accessAudit(platformAdmin.user_id), type: 'PersonalDataAccessed' },
      { type: 'InstitutionSlugClaimed' },
      { type: 'UserRegistered' },
      { stream: clinicC, type: 'InstitutionCreated' },
      { stream: clinicC, type: 'InstitutionStaffAdded' },
      { stream: clinicC, type: 'InstitutionStaffInvited' },
    ]);
    assert.deepEqual(res.body.staff.map((m: { email: string }) => m.email), [chitra]);
    assert.deepEqual(res.body.invitations.map((i: { email: string; account_type: string }) => [i.email, i.account_type]), [[emails.dev, 'SUPER_DOCTOR']]);
    const [pending] = (await spec.read((http) => http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200))).body;
    assert.equal(pending.institution.id, res.body.id);
    assert.equal(await status(dev, `/api/v1/institutions/${res.body.id}/staff`), 404);
    (await spec.when((http) => http.delete(`/api/v1/institutions/${res.body.id}`).set(platformAdmin.auth)))
      .expectStatus(200)
      .expectEvents([
        { stream: clinicC, type: 'InstitutionInvitationRevoked' },
        { stream: clinicC, type: 'InstitutionDisbanded' },
      ]);
    (await spec.when((http) => http.post(`/api/v1/institutions/${res.body.id}/invitations/${pending.id}/accept`).set(dev.auth))).expectStatus(404).expectNoEvents();
    assert.deepEqual((await spec.read((http) => http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200))).body, []);
  });
});
