import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INSTITUTION_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

describe('institutions API', () => {
  let t: TestApp;
  let platformAdmin: TestUser;
  let patient: TestUser;
  let institutionId: string;
  const staffAuth = new Map<string, { Authorization: string }>();

  const body = (slug: string, staff: Array<Record<string, string>>) => ({
    name: 'Sunrise Clinic',
    slug,
    address: '12 MG Road, Bengaluru',
    phone: '+91 80 4000 1234',
    email: 'contact@sunrise.in',
    staff,
  });
  const adminStaff = { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN', role_title: 'Clinic manager' };
  const userStaff = { name: 'Vikram Das', email: 'vikram@sunrise.in', phone: '+91 90000 22222', account_type: 'USER' };
  const staffStaff = { name: 'Sita Nair', email: 'sita@sunrise.in', phone: '+91 90000 33333', account_type: 'STAFF' };

  async function tokenFor(email: string): Promise<{ Authorization: string }> {
    const cached = staffAuth.get(email);
    if (cached) return cached;
    const { findUserIdByEmail } = await import('@telemed/command');
    const userId = await findUserIdByEmail(t.app.eventStore, email);
    assert.ok(userId, `an account exists for ${email}`);
    const me = await t.app.readStore.collection<{ _id: string; account_type: 'patient' | 'doctor' | 'admin' }>('users').get(userId);
    const token = await t.app.tokens.issue({ user_id: userId, account_type: me!.account_type });
    const auth = { Authorization: `Bearer ${token}` };
    staffAuth.set(email, auth);
    return auth;
  }

  before(async () => {
    t = await startTestApp();
    platformAdmin = await t.createUser('admin');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  it('only platform admins create institutions', async () => {
    await t.http.post('/api/v1/institutions/').set(patient.auth).send(body('sunrise', [adminStaff])).expect(403);
    await t.http.post('/api/v1/institutions/').send(body('sunrise', [adminStaff])).expect(401);
  });

  it('needs at least one staff member and a valid slug', async () => {
    const none = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(body('sunrise', [])).expect(422);
    assert.equal(none.body.detail[0].msg, INSTITUTION_TEXTS.atLeastOneStaff);
    await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(body('Not A Slug!', [adminStaff])).expect(422);
    await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(body('-bad-', [adminStaff])).expect(422);
  });

  it('creates the institution with its staff, provisioning their accounts, with the seeds default hours and permissions', async () => {
    const res = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(body('sunrise', [adminStaff, userStaff, staffStaff])).expect(201);
    institutionId = res.body.id;
    assert.equal(res.body.slug, 'sunrise');
    assert.equal(res.body.is_active, true);
    assert.deepEqual(res.body.hours_of_operation, { MO: '09:00-17:00', TU: '09:00-17:00', WE: '09:00-17:00', TH: '09:00-17:00', FR: '09:00-17:00', SA: '09:00-13:00', SU: null });
    assert.deepEqual(res.body.role_permissions.SUPER_DOCTOR, ['read', 'write', 'delete', 'appointments', 'manage_staff', 'manage_institution']);
    assert.deepEqual(res.body.staff.map((s: { name: string; is_institution_admin: boolean }) => [s.name, s.is_institution_admin]), [
      ['Lata Rao', true],
      ['Vikram Das', false],
      ['Sita Nair', false],
    ]);
    await t.settle();
  });

  it('a slug is taken once', async () => {
    const res = await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(body('sunrise', [adminStaff])).expect(409);
    assert.equal(res.body.detail, INSTITUTION_TEXTS.slugTaken);
  });

  it('check-admin-status and my-institution for the institution admin, 404 text for others', async () => {
    const lata = await tokenFor('lata@sunrise.in');
    assert.deepEqual((await t.http.get('/api/v1/institutions/check-admin-status').set(lata).expect(200)).body, { is_institution_admin: true, institution_id: institutionId });
    assert.deepEqual((await t.http.get('/api/v1/institutions/check-admin-status').set(patient.auth).expect(200)).body, { is_institution_admin: false, institution_id: null });
    const mine = await t.http.get('/api/v1/institutions/my-institution').set(lata).expect(200);
    assert.equal(mine.body.name, 'Sunrise Clinic');
    assert.deepEqual(mine.body.doctors, []);
    const notAdmin = await t.http.get('/api/v1/institutions/my-institution').set(await tokenFor('vikram@sunrise.in')).expect(404);
    assert.equal(notAdmin.body.detail, INSTITUTION_TEXTS.notAnAdmin);
  });

  it('the institution admin adds a doctor: the account is created and listed; roles without manage_staff are refused', async () => {
    const doctor = { name: 'Dr. Kiran Shah', email: 'kiran@sunrise.in', phone_number: '+91 90000 44444', specialty: 'Cardiology', qualification: 'MBBS, DM', consultation_fee: 700, appointment_duration_minutes: 30 };
    await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(await tokenFor('vikram@sunrise.in')).send(doctor).expect(403);
    await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(patient.auth).send(doctor).expect(404);
    await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(await tokenFor('lata@sunrise.in')).send({ ...doctor, email: 'nope' }).expect(422);
    const res = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(await tokenFor('lata@sunrise.in')).send(doctor).expect(201);
    const mine = await t.http
      .get('/api/v1/institutions/my-institution')
      .set(await tokenFor('lata@sunrise.in'))
      .set('X-Min-Position', String(res.headers['x-event-position']))
      .expect(200);
    assert.deepEqual(mine.body.doctors, [
      { doctor_id: res.body.doctor_id, name: 'Dr. Kiran Shah', email: 'kiran@sunrise.in', phone_number: '+91 90000 44444', specialty: 'Cardiology', qualification: 'MBBS, DM', consultation_fee: 700, is_active: true, is_institution_admin: false },
    ]);
    const listed = await t.http.get('/api/v1/doctors/').set(patient.auth).expect(200);
    assert.ok(listed.body.some((d: { doctor_id: string }) => d.doctor_id === res.body.doctor_id));
    const again = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(await tokenFor('lata@sunrise.in')).send(doctor).expect(201);
    assert.equal(again.body.doctor_id, res.body.doctor_id, 'adding the same doctor again links the same account');
    const patientEmail = (await t.http.get('/api/v1/users/me').set(patient.auth)).body.email;
    const clash = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(await tokenFor('lata@sunrise.in')).send({ ...doctor, email: patientEmail }).expect(409);
    assert.equal(clash.body.detail, INSTITUTION_TEXTS.notADoctorAccount);
  });

  it("reads the institution's appointments and their histories, for its own doctors only", async () => {
    const kiran = await tokenFor('kiran@sunrise.in');
    const kiranId = (await t.http.get('/api/v1/users/me').set(kiran).expect(200)).body.id as string;
    const outside = await t.createUser('doctor');
    const [inSlot] = await t.openSlots({ user_id: kiranId, token: '', auth: kiran }, [{ date: indiaDate(2), time: '12:00' }]);
    const [outSlot] = await t.openSlots(outside, [{ date: indiaDate(2), time: '12:30' }]);
    const a = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: inSlot, notes: 'Palpitations' }).expect(201);
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: outSlot, notes: 'Elsewhere' }).expect(201);
    await t.http.post(`/api/v1/appointments/${a.body.appointment_id}/approve`).set(kiran).expect(200);
    await t.settle();
    const lata = await tokenFor('lata@sunrise.in');
    const confirmed = await t.http.get(`/api/v1/institutions/${institutionId}/appointments?appointment_status=confirmed`).set(lata).expect(200);
    assert.equal(confirmed.body.length, 1);
    assert.equal(confirmed.body[0].doctor.name, 'Dr. Kiran Shah');
    assert.equal(confirmed.body[0].notes, 'Palpitations');
    assert.equal(confirmed.body[0].slot.start_time, '12:00:00');
    // USER has the appointments permission by default (seeds); STAFF does not.
    await t.http.get(`/api/v1/institutions/${institutionId}/appointments`).set(await tokenFor('vikram@sunrise.in')).expect(200);
    await t.http.get(`/api/v1/institutions/${institutionId}/appointments`).set(await tokenFor('sita@sunrise.in')).expect(403);
    await t.http.get(`/api/v1/institutions/${institutionId}/appointments`).set(patient.auth).expect(404);
    const history = await t.http.get(`/api/v1/appointments/${a.body.appointment_id}/history`).set(lata).expect(200);
    assert.ok(history.body.events.some((e: { type: string }) => e.type === 'AppointmentApproved'));
    await t.http.get(`/api/v1/appointments/${a.body.appointment_id}/history`).set(await tokenFor('sita@sunrise.in')).expect(404);
    await t.http.get(`/api/v1/appointments/${a.body.appointment_id}/history`).set(platformAdmin.auth).expect(404);
  });

  it('pages the institution appointments newest first with limit and cursor; without them the whole list by start', async () => {
    const kiran = await tokenFor('kiran@sunrise.in');
    const kiranId = (await t.http.get('/api/v1/users/me').set(kiran).expect(200)).body.id as string;
    const slotIds = await t.openSlots({ user_id: kiranId, token: '', auth: kiran }, ['14:00', '14:30', '15:00', '15:30'].map((time) => ({ date: indiaDate(3), time })));
    for (const slot_id of slotIds) await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Paging' }).expect(201);
    await t.settle();
    const lata = await tokenFor('lata@sunrise.in');
    const url = `/api/v1/institutions/${institutionId}/appointments`;
    const all = (await t.http.get(url).set(lata).expect(200)).body as Array<{ id: string; slot: { start_at: string } }>;
    assert.deepEqual(all.map((a) => a.slot.start_at), [...all.map((a) => a.slot.start_at)].sort().reverse(), 'without a limit: the first page, newest first');
    const newestFirst = all.map((a) => a.id);
    const first = (await t.http.get(`${url}?limit=2`).set(lata).expect(200)).body as Array<{ id: string }>;
    assert.deepEqual(first.map((a) => a.id), newestFirst.slice(0, 2));
    const second = (await t.http.get(`${url}?limit=2&cursor=${first[1]!.id}`).set(lata).expect(200)).body as Array<{ id: string }>;
    assert.deepEqual(second.map((a) => a.id), newestFirst.slice(2, 4));
    const rest = (await t.http.get(`${url}?limit=200&cursor=${second[1]!.id}`).set(lata).expect(200)).body as Array<{ id: string }>;
    assert.deepEqual(rest.map((a) => a.id), newestFirst.slice(4));
    await t.http.get(`${url}?limit=0`).set(lata).expect(422);
    await t.http.get(`${url}?limit=201`).set(lata).expect(422);
    await t.http.get(`${url}?cursor=not-an-appointment`).set(lata).expect(422);
  });

  it('lists staff; removes staff; keeps the last admin', async () => {
    const lata = await tokenFor('lata@sunrise.in');
    const staff = await t.http.get(`/api/v1/institutions/${institutionId}/staff`).set(lata).expect(200);
    assert.deepEqual(staff.body.map((s: { name: string }) => s.name), ['Lata Rao', 'Vikram Das', 'Sita Nair', 'Dr. Kiran Shah']);
    const sita = staff.body.find((s: { name: string }) => s.name === 'Sita Nair');
    const lataEntry = staff.body.find((s: { name: string }) => s.name === 'Lata Rao');
    await t.http.delete(`/api/v1/institutions/${institutionId}/staff/${sita.user_id}`).set(await tokenFor('vikram@sunrise.in')).expect(403);
    const removed = await t.http.delete(`/api/v1/institutions/${institutionId}/staff/${sita.user_id}`).set(lata).expect(200);
    await t.http.get(`/api/v1/institutions/${institutionId}/staff`).set(await tokenFor('sita@sunrise.in')).set('X-Min-Position', String(removed.headers['x-event-position'])).expect(404);
    const last = await t.http.delete(`/api/v1/institutions/${institutionId}/staff/${lataEntry.user_id}`).set(lata).expect(409);
    assert.equal(last.body.detail, INSTITUTION_TEXTS.lastAdmin);
    await t.http.delete(`/api/v1/institutions/${institutionId}/staff/nobody`).set(lata).expect(404);
  });

  it('removes a doctor from the institution; the account stays', async () => {
    const lata = await tokenFor('lata@sunrise.in');
    const kiranId = (await t.http.get('/api/v1/users/me').set(await tokenFor('kiran@sunrise.in'))).body.id;
    const res = await t.http.delete(`/api/v1/institutions/${institutionId}/doctors/${kiranId}`).set(lata).expect(200);
    const mine = await t.http.get('/api/v1/institutions/my-institution').set(lata).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200);
    assert.deepEqual(mine.body.doctors, []);
    await t.http.get('/api/v1/users/me').set(await tokenFor('kiran@sunrise.in')).expect(200);
    await t.http.delete(`/api/v1/institutions/${institutionId}/doctors/${kiranId}`).set(lata).expect(404);
  });

  it('lists institutions: all for platform admins, their own for staff, none for others', async () => {
    assert.equal((await t.http.get('/api/v1/institutions/').set(platformAdmin.auth).expect(200)).body.length, 1);
    assert.equal((await t.http.get('/api/v1/institutions/').set(await tokenFor('vikram@sunrise.in')).expect(200)).body.length, 1);
    assert.deepEqual((await t.http.get('/api/v1/institutions/').set(patient.auth).expect(200)).body, []);
  });

  it('disbanding is for platform admins, recorded as an event; the institution then answers 404', async () => {
    await t.http.delete(`/api/v1/institutions/${institutionId}`).set(await tokenFor('lata@sunrise.in')).expect(403);
    const res = await t.http.delete(`/api/v1/institutions/${institutionId}`).set(platformAdmin.auth).expect(200);
    const list = await t.http.get('/api/v1/institutions/').set(platformAdmin.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200);
    assert.deepEqual(list.body, []);
    await t.http.get(`/api/v1/institutions/${institutionId}/staff`).set(await tokenFor('lata@sunrise.in')).expect(404);
    const events = await t.app.eventStore.readStream(`institution-${institutionId}`);
    assert.equal(events.at(-1)!.type, 'InstitutionDisbanded');
    assert.ok(events.length > 1, 'nothing was deleted');
    await t.http.delete(`/api/v1/institutions/${institutionId}`).set(platformAdmin.auth).expect(200);
  });
});

/**
 * Finding 2: an institution admin added an existing doctor by e-mail and, from then on, read the appointments and
 * histories of that doctor's patients. An existing account now only joins by accepting an invitation, and an
 * institution only sees appointments requested while the doctor was its member.
 */
describe('institution invitations across two institutions', () => {
  let t: TestApp;
  let platformAdmin: TestUser;
  let patient: TestUser;
  let clinicA: string;
  let clinicB: string;
  let asha: TestUser; // admin of A
  let bina: TestUser; // admin of B
  let dev: TestUser; // B's doctor, an existing account when A adds him
  let invitationId: string;
  const appointments: Record<string, string> = {};
  let slotHour = 8;

  const userFor = async (email: string): Promise<TestUser> => {
    const { findUserIdByEmail } = await import('@telemed/command');
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const me = await t.app.readStore.collection<{ _id: string; account_type: 'patient' | 'doctor' | 'admin' }>('users').get(user_id);
    const token = await t.app.tokens.issue({ user_id, account_type: me!.account_type });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  };
  const clinic = (slug: string, staff: Array<Record<string, string>>) => ({
    name: `Clinic ${slug}`,
    slug,
    address: 'Somewhere',
    phone: '+91 80 1234 5678',
    email: `${slug}@clinic.in`,
    staff,
  });
  const doctorBody = (email: string) => ({ name: 'Dr. Dev Menon', email, phone_number: '+91 90000 70000', specialty: 'ENT', qualification: 'MS', consultation_fee: 300 });
  /** A confirmed appointment of the doctor with the patient, requested now. */
  const appointmentWith = async (doctor: TestUser): Promise<string> => {
    slotHour += 1;
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(3), time: `${String(slotHour).padStart(2, '0')}:00` }]);
    const res = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Private clinical note' }).expect(201);
    await t.http.post(`/api/v1/appointments/${res.body.appointment_id}/approve`).set(doctor.auth).expect(200);
    await t.settle();
    return res.body.appointment_id as string;
  };
  const listed = async (institutionId: string, who: TestUser) =>
    ((await t.http.get(`/api/v1/institutions/${institutionId}/appointments`).set(who.auth).expect(200)).body as Array<{ id: string }>).map((a) => a.id);

  before(async () => {
    t = await startTestApp();
    platformAdmin = await t.createUser('admin');
    patient = await t.createUser('patient');
    clinicA = (await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send(clinic('clinic-a', [{ name: 'Asha', email: 'asha@a.in', phone: '+91 90000 10000', account_type: 'ADMIN' }])).expect(201)).body.id;
    const b = await t.http
      .post('/api/v1/institutions/')
      .set(platformAdmin.auth)
      .send(
        clinic('clinic-b', [
          { name: 'Bina', email: 'bina@b.in', phone: '+91 90000 20000', account_type: 'ADMIN' },
          { name: 'Dr. Dev Menon', email: 'dev@b.in', phone: '+91 90000 70000', account_type: 'DOCTOR' },
        ]),
      )
      .expect(201);
    clinicB = b.body.id;
    assert.equal(b.body.staff.length, 2, 'accounts that did not exist yet are created and join directly');
    await t.settle();
    asha = await userFor('asha@a.in');
    bina = await userFor('bina@b.in');
    dev = await userFor('dev@b.in');
    appointments.beforeInvitation = await appointmentWith(dev);
  });
  after(() => t.close());

  it('adding an existing doctor by e-mail only sends an invitation: nothing of theirs is open to the institution', async () => {
    const res = await t.http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody('DEV@b.in')).expect(201);
    assert.equal(res.body.status, 'invited');
    assert.equal(res.body.doctor_id, dev.user_id);
    assert.equal(typeof res.body.invitation_id, 'string');
    invitationId = res.body.invitation_id;
    const again = await t.http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody('dev@b.in')).expect(201);
    assert.deepEqual([again.body.status, again.body.invitation_id], ['invited', invitationId], 'adding again keeps the one invitation');
    await t.settle();

    const mine = await t.http.get('/api/v1/institutions/my-institution').set(asha.auth).expect(200);
    assert.deepEqual(mine.body.doctors, [], 'a pending invitation is not an active doctor');
    assert.deepEqual(
      mine.body.pending_invitations.map((i: { id: string; email: string; status: string }) => [i.id, i.email, i.status]),
      [[invitationId, 'dev@b.in', 'pending']],
    );
    assert.deepEqual(await listed(clinicA, asha), []);
    await t.http.get(`/api/v1/appointments/${appointments.beforeInvitation}/history`).set(asha.auth).expect(404);
    await t.http.get(`/api/v1/institutions/${clinicA}/staff`).set(dev.auth).expect(404);
    assert.deepEqual(await listed(clinicB, bina), [appointments.beforeInvitation]);
  });

  it('only the invitee sees, accepts or declines the invitation; others get 404', async () => {
    const list = await t.http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200);
    assert.deepEqual(
      list.body.map((i: { id: string; institution: { id: string; name: string }; status: string; account_type: string }) => [i.id, i.institution.id, i.institution.name, i.status, i.account_type]),
      [[invitationId, clinicA, 'Clinic clinic-a', 'pending', 'DOCTOR']],
    );
    await t.http.get(`/api/v1/institutions/invitations/${invitationId}`).set(dev.auth).expect(200);
    for (const other of [asha, bina, patient, platformAdmin]) {
      assert.deepEqual((await t.http.get('/api/v1/institutions/invitations').set(other.auth).expect(200)).body, []);
      await t.http.get(`/api/v1/institutions/invitations/${invitationId}`).set(other.auth).expect(404);
      await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/accept`).set(other.auth).expect(404);
      await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/decline`).set(other.auth).expect(404);
    }
    await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/accept`).expect(401);
    await t.http.post(`/api/v1/institutions/${clinicB}/invitations/${invitationId}/accept`).set(dev.auth).expect(404);
  });

  it('once accepted the doctor is a member; the institution sees only appointments requested while they are', async () => {
    const accepted = await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/accept`).set(dev.auth).expect(200);
    assert.equal(accepted.body.institution_id, clinicA);
    await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${invitationId}/accept`).set(dev.auth).expect(404);
    const mine = await t.http.get('/api/v1/institutions/my-institution').set(asha.auth).set('X-Min-Position', String(accepted.headers['x-event-position'])).expect(200);
    assert.deepEqual(mine.body.doctors.map((d: { doctor_id: string }) => d.doctor_id), [dev.user_id]);
    assert.deepEqual(mine.body.pending_invitations, []);
    assert.deepEqual((await t.http.get(`/api/v1/institutions/invitations/${invitationId}`).set(dev.auth).expect(200)).body.status, 'accepted');

    assert.deepEqual(await listed(clinicA, asha), [], 'appointments from before the doctor joined stay private');
    await t.http.get(`/api/v1/appointments/${appointments.beforeInvitation}/history`).set(asha.auth).expect(404);
    appointments.whileMember = await appointmentWith(dev);
    assert.deepEqual(await listed(clinicA, asha), [appointments.whileMember]);
    await t.http.get(`/api/v1/appointments/${appointments.whileMember}/history`).set(asha.auth).expect(200);
    assert.deepEqual((await listed(clinicB, bina)).sort(), [appointments.beforeInvitation, appointments.whileMember].sort(), 'B keeps its own view');
  });

  it('removing the doctor ends access to later appointments; those made while a member stay visible for audit', async () => {
    const removed = await t.http.delete(`/api/v1/institutions/${clinicA}/doctors/${dev.user_id}`).set(asha.auth).expect(200);
    assert.ok(removed.headers['x-event-position']);
    appointments.afterRemoval = await appointmentWith(dev);
    assert.deepEqual(await listed(clinicA, asha), [appointments.whileMember]);
    await t.http.get(`/api/v1/appointments/${appointments.whileMember}/history`).set(asha.auth).expect(200);
    await t.http.get(`/api/v1/appointments/${appointments.afterRemoval}/history`).set(asha.auth).expect(404);
    await t.http.get(`/api/v1/appointments/${appointments.beforeInvitation}/history`).set(asha.auth).expect(404);
    await t.http.get(`/api/v1/appointments/${appointments.afterRemoval}/history`).set(bina.auth).expect(200);
  });

  it('the invitee declines; the institution withdraws an invitation; nobody can accept either afterwards', async () => {
    const declined = (await t.http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody('dev@b.in')).expect(201)).body.invitation_id as string;
    assert.notEqual(declined, invitationId, 'a former member is invited anew');
    await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${declined}/decline`).set(dev.auth).expect(200);
    await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${declined}/accept`).set(dev.auth).expect(404);

    const withdrawn = (await t.http.post(`/api/v1/institutions/${clinicA}/doctors`).set(asha.auth).send(doctorBody('dev@b.in')).expect(201)).body.invitation_id as string;
    await t.http.delete(`/api/v1/institutions/${clinicA}/invitations/${withdrawn}`).set(bina.auth).expect(404);
    await t.http.delete(`/api/v1/institutions/${clinicA}/invitations/${withdrawn}`).set(asha.auth).expect(200);
    await t.http.post(`/api/v1/institutions/${clinicA}/invitations/${withdrawn}/accept`).set(dev.auth).expect(404);
    await t.settle();
    assert.deepEqual((await t.http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200)).body, []);
    const statuses = await Promise.all([declined, withdrawn].map(async (id) => (await t.http.get(`/api/v1/institutions/invitations/${id}`).set(dev.auth).expect(200)).body.status));
    assert.deepEqual(statuses, ['declined', 'revoked']);
    assert.deepEqual(await listed(clinicA, asha), [appointments.whileMember]);
  });

  it('creating an institution with an existing account invites it; disbanding revokes the invitation', async () => {
    const res = await t.http
      .post('/api/v1/institutions/')
      .set(platformAdmin.auth)
      .send(clinic('clinic-c', [{ name: 'Chitra', email: 'chitra@c.in', phone: '+91 90000 30000', account_type: 'ADMIN' }, { name: 'Dev', email: 'dev@b.in', phone: '+91 90000 70000', account_type: 'SUPER_DOCTOR' }]))
      .expect(201);
    assert.deepEqual(res.body.staff.map((s: { email: string }) => s.email), ['chitra@c.in']);
    assert.deepEqual(res.body.invitations.map((i: { email: string; account_type: string }) => [i.email, i.account_type]), [['dev@b.in', 'SUPER_DOCTOR']]);
    await t.settle();
    const [pending] = (await t.http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200)).body;
    assert.equal(pending.institution.id, res.body.id);
    await t.http.get(`/api/v1/institutions/${res.body.id}/staff`).set(dev.auth).expect(404);
    await t.http.delete(`/api/v1/institutions/${res.body.id}`).set(platformAdmin.auth).expect(200);
    await t.http.post(`/api/v1/institutions/${res.body.id}/invitations/${pending.id}/accept`).set(dev.auth).expect(404);
    await t.settle();
    assert.deepEqual((await t.http.get('/api/v1/institutions/invitations').set(dev.auth).expect(200)).body, []);
  });
});
