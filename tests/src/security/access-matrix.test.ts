import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { ADMIN_TEXTS, CONSENT_NOTICE_VERSION, DEFAULT_TIMEZONE } from '@telemed/contracts';
import { findUserIdByEmail } from '@telemed/command';
import { GenerationalReadStore, SqliteReadStore, physicalName, type RecordedQuery } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';
import { realPng } from '../support/images';

const ROLES = ['anonymous', 'patient', 'otherPatient', 'doctor', 'otherDoctor', 'institutionAdmin', 'otherInstitutionAdmin', 'platformAdmin'] as const;
type Role = (typeof ROLES)[number];
type Expect = Record<Role, number>;

const all = (status: number, overrides: Partial<Expect> = {}): Expect => ({ ...Object.fromEntries(ROLES.map((r) => [r, status])), anonymous: 401, ...overrides }) as Expect;

interface Row {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  expect: Expect;
  /** Builds the concrete request for one cell (fresh fixtures for routes that change state). */
  request(role: Role): Promise<{ url: string; body?: unknown }>;
}

describe('access control: every route against every role', () => {
  let t: TestApp;
  const users = {} as Record<Exclude<Role, 'anonymous'>, TestUser>;
  let institutionId: string;
  let otherInstitutionId: string;
  let slotCounter = 0;
  let unique = 0;
  let consoleAppointment: string;
  let queries: ReadonlyMap<string, RecordedQuery>;

  async function tokenByEmail(email: string): Promise<TestUser> {
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const token = await t.app.tokens.issue({ user_id, account_type: 'patient' });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  }

  async function createInstitution(slug: string, adminEmail: string, doctorEmail?: string, by: Pick<TestUser, 'auth'> = users.platformAdmin): Promise<string> {
    const staff = [{ name: `Admin ${slug}`, email: adminEmail, phone: '+91 90000 10000', account_type: 'ADMIN' }];
    if (doctorEmail) staff.push({ name: `Doctor ${slug}`, email: doctorEmail, phone: '+91 90000 10001', account_type: 'DOCTOR' });
    const res = await t.http
      .post('/api/v1/institutions/')
      .set(by.auth)
      .send({ name: `Clinic ${slug}`, slug, address: 'Somewhere', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff })
      .expect(201);
    return res.body.id as string;
  }

  async function freshSlot(): Promise<number> {
    slotCounter += 1;
    // From day 7: the fixed appointments set up here are on days 5 and 6 (a fresh slot at one of their times is not open).
    const start = DateTime.now().setZone(DEFAULT_TIMEZONE).startOf('day').plus({ days: 7 + Math.floor(slotCounter / 33), minutes: 360 + 30 * (slotCounter % 33) });
    const [slot] = await t.openSlots(users.doctor, [{ date: start.toISODate()!, time: start.toFormat('HH:mm') }]);
    return slot!;
  }

  /** A fresh appointment of the patient for which the doctor has offered one other time (its id, and that time's slot). */
  async function offeredAppointment(): Promise<{ id: string; slotId: number }> {
    const [id, slotId] = [await freshAppointment(), await freshSlot()];
    await t.http.post(`/api/v1/appointments/${id}/propose-times`).set(users.doctor.auth).send({ slot_ids: [slotId] }).expect(200);
    return { id, slotId };
  }

  async function freshAppointment(): Promise<string> {
    const res = await t.http.post('/api/v1/appointments').set(users.patient.auth).send({ slot_id: await freshSlot(), notes: 'matrix' }).expect(201);
    await t.settle();
    return res.body.appointment_id as string;
  }

  async function freshStaff(): Promise<string> {
    unique += 1;
    const res = await t.http
      .post(`/api/v1/institutions/${institutionId}/doctors`)
      .set(users.institutionAdmin.auth)
      .send({ name: `Dr. Temp ${unique}`, email: `temp${unique}@clinic.in`, phone_number: '+91 90000 55555', specialty: 'ENT', qualification: 'MS', consultation_fee: 100 })
      .expect(201);
    await t.settle();
    return res.body.doctor_id as string;
  }

  /** One requested appointment for the record rows (every cell is refused, so it does not change). */
  let requestedId: string | null = null;
  async function requestedAppointment(): Promise<string> {
    requestedId ??= await freshAppointment();
    return requestedId;
  }

  /** A file of users.patient's reports (uploaded once). */
  let reportFileId: string | null = null;
  async function reportFile(): Promise<string> {
    if (reportFileId) return reportFileId;
    const res = await t.http
      .post('/api/v1/records/reports')
      .set(users.patient.auth)
      .field('report_type', 'lab')
      .field('report_date', DateTime.now().setZone(DEFAULT_TIMEZONE).toISODate()!)
      .attach('files', Buffer.from('%PDF-1.4\n%%EOF\n'), 'lab.pdf');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    await t.settle();
    reportFileId = res.body.files[0].file_id as string;
    return reportFileId;
  }

  /** An appointment of its own slot, booked before the rows run (the doctor's listed open slots are a bounded page). */
  async function consoleBooking(): Promise<string> {
    const day = DateTime.now().setZone(DEFAULT_TIMEZONE).plus({ days: 6 }).toISODate()!;
    const [slot] = await t.openSlots(users.doctor, [{ date: day, time: '07:00' }]);
    const res = await t.http.post('/api/v1/appointments').set(users.patient.auth).send({ slot_id: slot, notes: 'console' }).expect(201);
    await t.settle();
    return res.body.appointment_id as string;
  }

  /** A pending invitation of otherDoctor (institution B's doctor, an existing account) to a new institution. */
  async function freshInvitationOfOtherDoctor(): Promise<{ institution: string; invitation: string }> {
    unique += 1;
    const res = await t.http
      .post('/api/v1/institutions/')
      .set(users.platformAdmin.auth)
      .send({
        name: `Inviting ${unique}`,
        slug: `inviting-${unique}`,
        address: 'Somewhere',
        phone: '+91 80 1234 5678',
        email: `inviting${unique}@clinic.in`,
        staff: [
          { name: 'Admin', email: `inviting-admin${unique}@clinic.in`, phone: '+91 90000 10000', account_type: 'ADMIN' },
          { name: 'Doctor two', email: 'doctor2@clinic.in', phone: '+91 90000 10001', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    await t.settle();
    return { institution: res.body.id as string, invitation: res.body.invitations[0].id as string };
  }

  /** A pending invitation from institution A (by its admin) to a doctor account that already existed. */
  async function freshInvitationFromA(): Promise<string> {
    const invitee = await t.createUser('doctor');
    const email = (await t.http.get('/api/v1/users/me').set(invitee.auth).expect(200)).body.email as string;
    const res = await t.http
      .post(`/api/v1/institutions/${institutionId}/doctors`)
      .set(users.institutionAdmin.auth)
      .send({ name: 'Dr. Existing', email, phone_number: '+91 90000 66666', specialty: 'ENT', qualification: 'MS', consultation_fee: 100 })
      .expect(201);
    assert.equal(res.body.status, 'invited');
    return res.body.invitation_id as string;
  }

  before(async () => {
    const port = await freePort();
    // The embedded read store as `npm start` runs it, so every query the routes make can be checked for its index.
    t = await startTestApp({ env: { READ_STORE: 'sqlite', LOGIN_RATE_LIMIT_PER_ADDRESS: '1000', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    queries = ((t.app.readStore as GenerationalReadStore).inner as SqliteReadStore).recordQueries();
    await t.app.listen(port, '127.0.0.1');
    users.patient = await t.createUser('patient');
    users.otherPatient = await t.createUser('patient');
    users.platformAdmin = await t.createUser('admin');
    institutionId = await createInstitution('matrix-one', 'admin1@clinic.in', 'doctor1@clinic.in');
    otherInstitutionId = await createInstitution('matrix-two', 'admin2@clinic.in', 'doctor2@clinic.in');
    await t.settle();
    users.institutionAdmin = await tokenByEmail('admin1@clinic.in');
    users.otherInstitutionAdmin = await tokenByEmail('admin2@clinic.in');
    // Institution admins hold patient accounts: like every patient, they agree to the privacy notice before booking.
    for (const admin of [users.institutionAdmin, users.otherInstitutionAdmin]) {
      await t.http.post('/api/v1/users/me/consents').set(admin.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    }
    const doctorId = (await findUserIdByEmail(t.app.eventStore, 'doctor1@clinic.in'))!;
    const otherDoctorId = (await findUserIdByEmail(t.app.eventStore, 'doctor2@clinic.in'))!;
    for (const [key, id] of [['doctor', doctorId], ['otherDoctor', otherDoctorId]] as const) {
      const token = await t.app.tokens.issue({ user_id: id, account_type: 'doctor' });
      users[key] = { user_id: id, token, auth: { Authorization: `Bearer ${token}` } };
    }
    assert.ok(otherInstitutionId);
    consoleAppointment = await consoleBooking();
  });
  after(() => t.close());

  /**
   * A query as it reads now: one recorded on a generation since retired (the matrix rebuilds slots, and the old tables
   * go a few seconds later) is planned on the current generation's table, which has the same indexes.
   */
  function onCurrentGeneration(q: RecordedQuery): RecordedQuery {
    const name = q.collection.replace(/__g\d+$/, '');
    const current = physicalName(name, (t.app.readStore as GenerationalReadStore).generationOf(name));
    return current === q.collection ? q : { ...q, collection: current, sql: q.sql.replace(`FROM "doc_${q.collection}"`, `FROM "doc_${current}"`) };
  }

  const fixed = (url: string, body?: unknown) => async () => ({ url, body });
  const patientRoles: ReadonlySet<Role> = new Set(['patient', 'otherPatient', 'institutionAdmin', 'otherInstitutionAdmin']);
  const patientsOnly = (status: number) => all(403, { patient: status, otherPatient: status, institutionAdmin: status, otherInstitutionAdmin: status });
  const doctorsOnly = (status: number) => all(403, { doctor: status, otherDoctor: status });
  /** A post of `doctor`: theirs to change, another doctor is told it does not exist. */
  const ownPost = (status: number) => all(403, { doctor: status, otherDoctor: 404 });
  const blogPost = { title: 'Matrix post', description: null, content: { blocks: [{ type: 'paragraph', data: { text: 'Text' } }] } };
  async function freshPost(): Promise<string>;
  async function freshPost(published: true): Promise<{ id: string; slug: string }>;
  async function freshPost(published = false): Promise<string | { id: string; slug: string }> {
    const id = (await t.http.post('/api/v1/blogs/').set(users.doctor.auth).send(blogPost).expect(201)).body.id as string;
    if (!published) {
      await t.settle();
      return id;
    }
    const slug = (await t.http.post(`/api/v1/blogs/${id}/publish`).set(users.doctor.auth).expect(200)).body.slug as string;
    await t.settle();
    return { id, slug };
  }

  /** A picture uploaded by `doctor` (its id), once. */
  let uploadedImage: Promise<string> | null = null;
  const doctorsImage = () =>
    (uploadedImage ??= (async () => {
      const png = await realPng();
      const url = (await t.http.post('/api/v1/blogs/images').set(users.doctor.auth).attach('image', png, { filename: 'matrix.png' }).expect(201)).body.file.url as string;
      await t.settle();
      return url.split('?')[0]!.split('/').pop()!;
    })());

  const rows = (): Row[] => [
    { method: 'post', path: '/auth/support', expect: all(401), request: async (role) => ({ url: '/api/v1/auth/support', body: { email: `${role}@nowhere.in`, password: 'wrong' } }) },
    { method: 'get', path: '/auth/google/authorize', expect: all(200, { anonymous: 200 }), request: fixed('/api/v1/auth/google/authorize') },
    { method: 'post', path: '/auth/google', expect: all(401), request: fixed('/api/v1/auth/google', { token: 'a-code-without-its-cookie' }) },
    { method: 'post', path: '/auth/refresh', expect: all(401), request: fixed('/api/v1/auth/refresh', { refresh_token: 'bogus' }) },
    { method: 'post', path: '/auth/socket-ticket', expect: all(200), request: fixed('/api/v1/auth/socket-ticket') },
    { method: 'post', path: '/auth/logout', expect: all(200), request: fixed('/api/v1/auth/logout') },
    {
      method: 'delete',
      path: '/admin/users/:user_id',
      expect: all(403, { platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/users/${(await t.createUser('patient')).user_id}` }),
    },
    { method: 'put', path: '/users/me', expect: all(200), request: fixed('/api/v1/users/me', { phone_number: '+91 90000 77777' }) },
    // Booking rules (issue 35), set to what the product's are, so the reschedule rows below move as before: a doctor's own
    // (doctors only), anyone may read a doctor's (the booking page), a clinic's defaults are its admins' to set and its members' to read.
    {
      method: 'put',
      path: '/doctors/me/booking-rules',
      expect: doctorsOnly(200),
      request: fixed('/api/v1/doctors/me/booking-rules', { min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false }),
    },
    // Giving up one's own rules: doctors only (a doctor without rules of their own records nothing and answers 200).
    { method: 'delete', path: '/doctors/me/booking-rules', expect: doctorsOnly(200), request: fixed('/api/v1/doctors/me/booking-rules') },
    { method: 'get', path: '/doctors/:doctor_id/booking-rules', expect: all(200, { anonymous: 200 }), request: async () => ({ url: `/api/v1/doctors/${users.doctor.user_id}/booking-rules` }) },
    {
      method: 'put',
      path: '/institutions/:id/booking-rules',
      expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/institutions/${institutionId}/booking-rules`, body: { min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation' } }),
    },
    {
      method: 'get',
      path: '/institutions/:id/booking-rules',
      expect: all(404, { doctor: 200, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/institutions/${institutionId}/booking-rules` }),
    },
    // Moving an appointment (issue 35): only a patient may, and only their own (another's answers as if it did not exist).
    {
      method: 'post',
      path: '/appointments/:id/reschedule',
      // Clinic admins sign in as patients: someone else's appointment answers as if it did not exist.
      expect: all(403, { patient: 200, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }),
      request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/reschedule`, body: { slot_id: await freshSlot() } }),
    },
    // Offering other times (issue 35): only the appointment's doctor; taking one or declining: only its patient.
    {
      method: 'post',
      path: '/appointments/:id/propose-times',
      expect: all(403, { doctor: 200, otherDoctor: 404 }),
      request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/propose-times`, body: { slot_ids: [await freshSlot()] } }),
    },
    {
      method: 'post',
      path: '/appointments/:id/proposal/accept',
      expect: all(403, { patient: 200, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }),
      request: async () => {
        const { id, slotId } = await offeredAppointment();
        return { url: `/api/v1/appointments/${id}/proposal/accept`, body: { slot_id: slotId } };
      },
    },
    {
      method: 'post',
      path: '/appointments/:id/proposal/decline',
      expect: all(403, { patient: 200, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }),
      request: async () => ({ url: `/api/v1/appointments/${(await offeredAppointment()).id}/proposal/decline` }),
    },
    // A doctor's waitlist (issue 35): each patient's own place, by the doctor's id (another's is never named).
    {
      method: 'post',
      path: '/doctors/:doctor_id/waitlist',
      expect: all(403, { patient: 201, otherPatient: 201, institutionAdmin: 201, otherInstitutionAdmin: 201 }),
      request: async () => ({ url: `/api/v1/doctors/${(await t.createUser('doctor')).user_id}/waitlist`, body: { from: indiaDate(1), to: indiaDate(5) } }),
    },
    { method: 'delete', path: '/doctors/:doctor_id/waitlist', expect: all(403, { patient: 404, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }), request: fixed(`/api/v1/doctors/${users.doctor.user_id}/waitlist`) },
    { method: 'post', path: '/doctors/:doctor_id/waitlist/accept', expect: all(403, { patient: 404, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }), request: fixed(`/api/v1/doctors/${users.doctor.user_id}/waitlist/accept`, { notes: 'Fever' }) },
    { method: 'post', path: '/doctors/:doctor_id/waitlist/decline', expect: all(403, { patient: 404, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }), request: fixed(`/api/v1/doctors/${users.doctor.user_id}/waitlist/decline`) },
    { method: 'get', path: '/waitlist/me', expect: all(403, { patient: 200, otherPatient: 200, institutionAdmin: 200, otherInstitutionAdmin: 200 }), request: fixed('/api/v1/waitlist/me') },
    // A patient's own credits (issue 36): patients only (clinic admins sign in as patients), never anyone else's.
    { method: 'get', path: '/wallet/me', expect: all(403, { patient: 200, otherPatient: 200, institutionAdmin: 200, otherInstitutionAdmin: 200 }), request: fixed('/api/v1/wallet/me') },
    { method: 'get', path: '/wallet/me/entries', expect: all(403, { patient: 200, otherPatient: 200, institutionAdmin: 200, otherInstitutionAdmin: 200 }), request: fixed('/api/v1/wallet/me/entries') },
    { method: 'get', path: '/doctors/me/earnings', expect: all(403, { doctor: 200, otherDoctor: 200 }), request: fixed('/api/v1/doctors/me/earnings') },
    { method: 'get', path: '/wallet/me/receipts/:payment_id', expect: all(403, { patient: 404, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }), request: fixed('/api/v1/wallet/me/receipts/pay_none') },
    // No such patient for the one who may: a platform admin is told so (404); nobody else may adjust credits.
    { method: 'post', path: '/admin/wallets/:patient_id/adjustments', expect: all(403, { platformAdmin: 404 }), request: fixed('/api/v1/admin/wallets/no-such-patient/adjustments', { credits: 10, reason: 'Access matrix' }) },
    { method: 'post', path: '/admin/wallets/:patient_id/refunds', expect: all(403, { platformAdmin: 404 }), request: fixed('/api/v1/admin/wallets/no-such-patient/refunds', { payment_id: 'pay_none' }) },
    { method: 'get', path: '/admin/payments/reconciliation', expect: all(403, { platformAdmin: 200 }), request: fixed('/api/v1/admin/payments/reconciliation?from=2030-01-01&to=2030-01-02') },
    { method: 'post', path: '/wallet/orders', expect: all(403, { patient: 201, otherPatient: 201, institutionAdmin: 201, otherInstitutionAdmin: 201 }), request: fixed('/api/v1/wallet/orders', { credits: 100 }) },
    // No such order for anyone: a patient is told so (404); the others may not confirm payments at all.
    { method: 'post', path: '/wallet/orders/:order_id/payment', expect: all(403, { patient: 404, otherPatient: 404, institutionAdmin: 404, otherInstitutionAdmin: 404 }), request: fixed('/api/v1/wallet/orders/order_none/payment', { payment_id: 'pay_none', signature: 'a'.repeat(64) }) },
    // The gateway's webhook is public and trusted only by its signature: unsigned, it is refused for everyone.
    { method: 'post', path: '/payments/webhook', expect: all(401, { anonymous: 401 }), request: fixed('/api/v1/payments/webhook', { event: 'payment.captured', payload: {} }) },
    // Marking a patient absent (issue 35): only the appointment's doctor (a request waiting for them is refused 409:
    // not confirmed); another doctor's answers as if it did not exist.
    {
      method: 'post',
      path: '/appointments/:id/no-show',
      expect: all(403, { doctor: 409, otherDoctor: 404 }),
      request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/no-show` }),
    },
    // Sign-in by phone and messages (issue 34): a fresh number per cell (a number may be sent one code per 30 s).
    { method: 'post', path: '/auth/phone/start', expect: all(200, { anonymous: 200 }), request: async () => ({ url: '/api/v1/auth/phone/start', body: { phone_number: `+9198${String(7_000_000 + ++unique).padStart(8, '0')}` } }) },
    { method: 'post', path: '/auth/phone/verify', expect: all(401), request: fixed('/api/v1/auth/phone/verify', { phone_number: '+919812300000', code: '123456', challenge: 'c'.repeat(32) }) },
    { method: 'post', path: '/users/me/phone/start', expect: all(200), request: async () => ({ url: '/api/v1/users/me/phone/start', body: { phone_number: `+9197${String(7_000_000 + ++unique).padStart(8, '0')}` } }) },
    { method: 'post', path: '/users/me/phone/verify', expect: all(401), request: fixed('/api/v1/users/me/phone/verify', { phone_number: '+919812300001', code: '123456', challenge: 'c'.repeat(32) }) },
    { method: 'get', path: '/users/me/messaging', expect: all(200), request: fixed('/api/v1/users/me/messaging') },
    { method: 'put', path: '/users/me/messaging', expect: all(200), request: fixed('/api/v1/users/me/messaging', { channels: { email: true, sms: false, whatsapp: false }, time_zone: 'Asia/Kolkata' }) },
    { method: 'get', path: '/dev/outbox', expect: all(200, { anonymous: 200 }), request: fixed('/api/v1/dev/outbox') },
    { method: 'get', path: '/admin/messages', expect: all(403, { platformAdmin: 200 }), request: fixed('/api/v1/admin/messages') },
    { method: 'post', path: '/admin/messages/:message_id/resend', expect: all(403, { platformAdmin: 404 }), request: fixed('/api/v1/admin/messages/no-such-message/resend') },
    // No SMS or WhatsApp provider is configured here: their callbacks are not served.
    { method: 'post', path: '/messaging/sms/status', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/messaging/sms/status?message=m1&token=t1') },
    { method: 'get', path: '/messaging/sms/inbound', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/messaging/sms/inbound?token=t1&SmsSid=S1&From=09812345678&Body=STOP') },
    { method: 'post', path: '/messaging/sms/inbound', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/messaging/sms/inbound?token=t1') },
    { method: 'get', path: '/messaging/whatsapp/webhook', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/messaging/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=y') },
    { method: 'post', path: '/messaging/whatsapp/webhook', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/messaging/whatsapp/webhook', { object: 'whatsapp_business_account', entry: [] }) },
    {
      method: 'post',
      path: '/users/subscribe',
      expect: all(403, { patient: 200, otherPatient: 200, institutionAdmin: 200, otherInstitutionAdmin: 200 }),
      request: async () => ({ url: '/api/v1/users/subscribe', body: { doctor_id: users.doctor.user_id } }),
    },
    {
      method: 'post',
      path: '/schedule-v2/set_availability_v2/',
      expect: all(403, { doctor: 200, otherDoctor: 200 }),
      request: fixed('/api/v1/schedule-v2/set_availability_v2/', { slots: [] }),
    },
    {
      method: 'post',
      path: '/appointments',
      expect: all(403, { patient: 201, otherPatient: 201, institutionAdmin: 201, otherInstitutionAdmin: 201 }),
      request: async () => ({ url: '/api/v1/appointments', body: { slot_id: await freshSlot(), notes: 'matrix' } }),
    },
    ...(['approve', 'reject'] as const).map(
      (action): Row => ({
        method: 'post',
        path: `/appointments/:id/${action}`,
        expect: all(403, { doctor: 200, otherDoctor: 404 }),
        request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/${action}` }),
      }),
    ),
    {
      method: 'post',
      path: '/appointments/:id/cancel',
      expect: all(404, { patient: 200, doctor: 200, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/cancel` }),
    },
    {
      method: 'post',
      path: '/institutions/',
      expect: all(403, { platformAdmin: 201 }),
      request: async () => {
        unique += 1;
        return {
          url: '/api/v1/institutions/',
          body: { name: 'New', slug: `new-${unique}`, address: 'A', phone: '+91 80 1234 5678', email: 'n@c.in', staff: [{ name: 'N', email: `n${unique}@c.in`, phone: '+91 90000 00001', account_type: 'ADMIN' }] },
        };
      },
    },
    {
      method: 'delete',
      path: '/institutions/:id',
      expect: all(403, { platformAdmin: 200 }),
      request: async () => {
        unique += 1;
        return { url: `/api/v1/institutions/${await createInstitution(`gone-${unique}`, `gone${unique}@c.in`)}` };
      },
    },
    ...(['staff', 'doctors'] as const).map(
      (kind): Row => ({
        method: 'delete',
        path: `/institutions/:id/${kind}/:${kind === 'staff' ? 'user_id' : 'doctor_id'}`,
        expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
        request: async () => ({ url: `/api/v1/institutions/${institutionId}/${kind}/${await freshStaff()}` }),
      }),
    ),
    {
      method: 'post',
      path: '/institutions/:id/doctors',
      expect: all(404, { doctor: 403, institutionAdmin: 201, platformAdmin: 201 }),
      request: async () => {
        unique += 1;
        return {
          url: `/api/v1/institutions/${institutionId}/doctors`,
          body: { name: `Dr. New ${unique}`, email: `new${unique}@clinic.in`, phone_number: '+91 90000 66666', specialty: 'ENT', qualification: 'MS', consultation_fee: 100 },
        };
      },
    },
    ...(['accept', 'decline'] as const).map(
      (answer): Row => ({
        method: 'post',
        path: `/institutions/:id/invitations/:invitation_id/${answer}`,
        expect: all(404, { otherDoctor: 200 }),
        request: async () => {
          const { institution, invitation } = await freshInvitationOfOtherDoctor();
          return { url: `/api/v1/institutions/${institution}/invitations/${invitation}/${answer}` };
        },
      }),
    ),
    {
      method: 'delete',
      path: '/institutions/:id/invitations/:invitation_id',
      expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/institutions/${institutionId}/invitations/${await freshInvitationFromA()}` }),
    },
    { method: 'get', path: '/users/me', expect: all(200), request: fixed('/api/v1/users/me') },
    { method: 'get', path: '/doctors/', expect: all(200), request: fixed('/api/v1/doctors/') },
    { method: 'get', path: '/doctors/me', expect: all(200, { platformAdmin: 403 }), request: fixed('/api/v1/doctors/me') },
    { method: 'get', path: '/doctors/:doctor_id/available-slots', expect: all(200), request: async () => ({ url: `/api/v1/doctors/${users.doctor.user_id}/available-slots` }) },
    {
      method: 'get',
      path: '/public/doctors/:doctor_id',
      expect: all(200, { anonymous: 200 }),
      request: async () => ({ url: `/api/v1/public/doctors/${users.doctor.user_id}` }),
    },
    { method: 'get', path: '/slots/:slot_id', expect: all(200), request: async () => ({ url: `/api/v1/slots/${await freshSlot()}` }) },
    { method: 'get', path: '/schedule-v2/get_appointments_v2/', expect: all(403, { doctor: 200, otherDoctor: 200 }), request: fixed('/api/v1/schedule-v2/get_appointments_v2/') },
    { method: 'get', path: '/appointments/me', expect: all(200, { platformAdmin: 403 }), request: fixed('/api/v1/appointments/me') },
    { method: 'get', path: '/appointments/pending', expect: all(403, { doctor: 200, otherDoctor: 200 }), request: fixed('/api/v1/appointments/pending') },
    {
      method: 'get',
      path: '/appointments/:id/history',
      expect: all(404, { patient: 200, doctor: 200, institutionAdmin: 200 }),
      request: async () => ({ url: `/api/v1/appointments/${await freshAppointment()}/history` }),
    },
    // A consultation is for its appointment's patient and doctor only (a fresh appointment is requested, not confirmed: 409 to join).
    {
      method: 'post',
      path: '/consultations/:appointment_id/join',
      expect: all(404, { patient: 409, doctor: 409, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}/join` }),
    },
    {
      method: 'get',
      path: '/consultations/:appointment_id',
      expect: all(404, { patient: 200, doctor: 200, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}` }),
    },
    {
      method: 'post',
      path: '/consultations/:appointment_id/leave',
      expect: all(404, { patient: 200, doctor: 200, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}/leave` }),
    },
    {
      method: 'post',
      path: '/consultations/:appointment_id/end',
      expect: all(404, { patient: 409, doctor: 409, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}/end` }),
    },
    {
      method: 'post',
      path: '/consultations/:appointment_id/messages',
      expect: all(404, { patient: 409, doctor: 409, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}/messages`, body: { text: 'Hello' } }),
    },
    {
      method: 'get',
      path: '/consultations/:appointment_id/messages',
      expect: all(404, { patient: 200, doctor: 200, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await freshAppointment()}/messages` }),
    },
    // Clinical records (issue 14). A fresh appointment is requested, not confirmed: its doctor gets 409, its patient 403.
    {
      method: 'put',
      path: '/consultations/:appointment_id/notes',
      expect: all(404, { patient: 403, doctor: 409, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await requestedAppointment()}/notes`, body: { is_draft: true, chief_complaint: 'Cough' } }),
    },
    {
      method: 'get',
      path: '/consultations/:appointment_id/notes',
      // No notes yet: its patient and doctor get 200 (null); anyone else 404, as if it did not exist.
      expect: all(404, { patient: 200, doctor: 200, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await requestedAppointment()}/notes` }),
    },
    {
      method: 'post',
      path: '/consultations/:appointment_id/prescriptions',
      expect: all(404, { patient: 403, doctor: 409, platformAdmin: 403 }),
      request: async () => ({
        url: `/api/v1/consultations/${await requestedAppointment()}/prescriptions`,
        body: { lines: [{ medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'once_daily', duration_value: 3, duration_unit: 'days' }] },
      }),
    },
    {
      method: 'post',
      path: '/consultations/:appointment_id/prescription-files',
      expect: all(404, { patient: 403, doctor: 409, platformAdmin: 403 }),
      request: async () => ({ url: `/api/v1/consultations/${await requestedAppointment()}/prescription-files` }),
    },
    // Patients only; a JSON body is not an upload (415).
    { method: 'post', path: '/records/reports', expect: patientsOnly(415), request: fixed('/api/v1/records/reports', { report_type: 'lab' }) },
    { method: 'get', path: '/records/me', expect: all(200), request: fixed('/api/v1/records/me') },
    {
      method: 'get',
      path: '/patients/:patient_id/records',
      // The clinic's admin manages its appointments but is no doctor: clinical records are its doctors' to read.
      expect: all(404, { patient: 200, doctor: 200 }),
      request: async () => ({ url: `/api/v1/patients/${users.patient.user_id}/records` }),
    },
    {
      method: 'get',
      path: '/records/files/:id',
      expect: all(404, { patient: 200, doctor: 200 }),
      request: async () => ({ url: `/api/v1/records/files/${await reportFile()}` }),
    },
    { method: 'get', path: '/prescriptions/:id', expect: all(404), request: fixed('/api/v1/prescriptions/no-such-prescription') },
    { method: 'get', path: '/prescriptions/:id/pdf', expect: all(404), request: fixed('/api/v1/prescriptions/no-such-prescription/pdf') },
    { method: 'get', path: '/verify/:code', expect: all(200, { anonymous: 200 }), request: fixed('/api/v1/verify/no-such-code') },
    { method: 'get', path: '/medicines/search', expect: all(200), request: fixed('/api/v1/medicines/search?q=para') },
    // Public, verified by its signature; without LiveKit configured there is no webhook to receive.
    { method: 'post', path: '/video/livekit/webhook', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/video/livekit/webhook', { event: 'room_started' }) },
    { method: 'get', path: '/admin/projections', expect: all(403, { platformAdmin: 200 }), request: fixed('/api/v1/admin/projections') },
    { method: 'post', path: '/admin/projections/:name/rebuild', expect: all(403, { platformAdmin: 202 }), request: fixed('/api/v1/admin/projections/slots/rebuild') },
    { method: 'get', path: '/institutions/', expect: all(200), request: fixed('/api/v1/institutions/') },
    { method: 'get', path: '/institutions/check-admin-status', expect: all(200), request: fixed('/api/v1/institutions/check-admin-status') },
    { method: 'get', path: '/institutions/invitations', expect: all(200), request: fixed('/api/v1/institutions/invitations') },
    {
      method: 'get',
      path: '/institutions/invitations/:invitation_id',
      expect: all(404, { otherDoctor: 200 }),
      request: async () => ({ url: `/api/v1/institutions/invitations/${(await freshInvitationOfOtherDoctor()).invitation}` }),
    },
    { method: 'get', path: '/institutions/my-institution', expect: all(404, { institutionAdmin: 200, otherInstitutionAdmin: 200 }), request: fixed('/api/v1/institutions/my-institution') },
    ...(['staff', 'appointments'] as const).map(
      (kind): Row => ({
        method: 'get',
        path: `/institutions/:id/${kind}`,
        expect: all(404, { doctor: 200, institutionAdmin: 200, platformAdmin: 200 }),
        request: async () => ({ url: `/api/v1/institutions/${institutionId}/${kind}` }),
      }),
    ),
    { method: 'get', path: '/consents/notice', expect: all(200, { anonymous: 200 }), request: fixed('/api/v1/consents/notice?language=hi') },
    { method: 'get', path: '/users/me/consents', expect: patientsOnly(200), request: fixed('/api/v1/users/me/consents') },
    { method: 'get', path: '/users/me/access-log', expect: all(200), request: fixed('/api/v1/users/me/access-log') },
    { method: 'get', path: '/users/me/export', expect: all(200), request: fixed('/api/v1/users/me/export') },
    // Withdrawing, then agreeing again (the next row), so every patient can still book afterwards.
    { method: 'delete', path: '/users/me/consents/:notice_version', expect: patientsOnly(200), request: fixed(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`) },
    {
      method: 'post',
      path: '/users/me/consents',
      expect: patientsOnly(201),
      request: async (role) => {
        if (patientRoles.has(role) && role !== 'anonymous') {
          // Consent is decided before the slot is looked at, so any slot id shows it.
          const res = await t.http.post('/api/v1/appointments').set(users[role].auth).send({ slot_id: 1, notes: 'matrix' });
          assert.equal(res.status, 403, `after withdrawing, a booking asks for consent: ${JSON.stringify(res.body)}`);
          assert.match(res.body.detail, /consent/i);
        }
        return { url: '/api/v1/users/me/consents', body: { notice_version: CONSENT_NOTICE_VERSION } };
      },
    },
    {
      method: 'post',
      path: '/admin/users/:user_id/erasure',
      expect: all(403, { platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/users/${(await t.createUser('patient')).user_id}/erasure` }),
    },
    // The react-admin console (issue 15): reads scoped to the caller's institutions (platform admins: all).
    { method: 'get', path: '/admin/permissions', expect: all(200), request: fixed('/api/v1/admin/permissions') },
    {
      method: 'get',
      path: '/admin/institutions',
      expect: all(403, { doctor: 200, otherDoctor: 200, institutionAdmin: 200, otherInstitutionAdmin: 200, platformAdmin: 200 }),
      request: fixed('/api/v1/admin/institutions?sort=["name","ASC"]&range=[0,24]&filter={}'),
    },
    {
      method: 'get',
      path: '/admin/institutions/:id',
      expect: all(404, { doctor: 200, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/institutions/${institutionId}` }),
    },
    {
      method: 'post',
      path: '/admin/institutions',
      expect: all(403, { platformAdmin: 201 }),
      request: async () => {
        unique += 1;
        return { url: '/api/v1/admin/institutions', body: { name: `Console ${unique}`, address: 'A', phone: '+91 80 1234 5678', email: 'c@c.in', staff: [{ name: 'C', email: `console${unique}@c.in`, phone: '+91 90000 00002', account_type: 'ADMIN' }] } };
      },
    },
    {
      method: 'put',
      path: '/admin/institutions/:id',
      expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/institutions/${institutionId}`, body: { address: 'Matrix Road' } }),
    },
    {
      method: 'delete',
      path: '/admin/institutions/:id',
      expect: all(403, { platformAdmin: 200 }),
      request: async () => {
        unique += 1;
        return { url: `/api/v1/admin/institutions/${await createInstitution(`console-gone-${unique}`, `console-gone${unique}@c.in`)}` };
      },
    },
    ...(['staff', 'doctors'] as const).flatMap((kind): Row[] => [
      {
        method: 'get',
        path: `/admin/${kind}`,
        expect: all(404, { patient: 403, otherPatient: 403, doctor: 200, institutionAdmin: 200, platformAdmin: 200 }),
        request: async () => ({ url: `/api/v1/admin/${kind}?filter=${encodeURIComponent(JSON.stringify({ institution_id: institutionId }))}` }),
      },
      {
        method: 'get',
        path: `/admin/${kind}/:id`,
        expect: all(404, { doctor: 200, institutionAdmin: 200, platformAdmin: 200 }),
        request: async () => ({ url: `/api/v1/admin/${kind}/${institutionId}~${users.doctor.user_id}` }),
      },
      {
        method: 'delete',
        path: `/admin/${kind}/:id`,
        expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
        request: async () => ({ url: `/api/v1/admin/${kind}/${institutionId}~${await freshStaff()}` }),
      },
    ]),
    // Activating and deactivating a doctor, and changing a member's role: roles that manage staff (issue 15).
    {
      method: 'put',
      path: '/admin/doctors/:id',
      expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/doctors/${institutionId}~${await freshStaff()}`, body: { is_active: false } }),
    },
    {
      method: 'put',
      path: '/admin/staff/:id',
      expect: all(404, { doctor: 403, institutionAdmin: 200, platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/staff/${institutionId}~${await freshStaff()}`, body: { role: 'SUPER_DOCTOR' } }),
    },
    {
      method: 'post',
      path: '/admin/staff',
      expect: all(404, { doctor: 403, institutionAdmin: 201, platformAdmin: 201 }),
      request: async () => {
        unique += 1;
        return { url: '/api/v1/admin/staff', body: { institution_id: institutionId, name: `Staff ${unique}`, email: `staff${unique}@clinic.in`, phone: '+91 90000 77777', account_type: 'STAFF' } };
      },
    },
    {
      method: 'post',
      path: '/admin/doctors',
      expect: all(404, { doctor: 403, institutionAdmin: 201, platformAdmin: 201 }),
      request: async () => {
        unique += 1;
        return { url: '/api/v1/admin/doctors', body: { institution_id: institutionId, name: `Dr. Console ${unique}`, email: `console-doc${unique}@clinic.in`, phone_number: '+91 90000 88888' } };
      },
    },
    {
      method: 'get',
      path: '/admin/appointments',
      expect: all(403, { doctor: 200, otherDoctor: 200, institutionAdmin: 200, otherInstitutionAdmin: 200, platformAdmin: 200 }),
      request: fixed('/api/v1/admin/appointments?sort=["start","DESC"]&range=[0,9]'),
    },
    ...(['', '/history', '/history.csv'] as const).map(
      (suffix): Row => ({
        method: 'get',
        path: `/admin/appointments/:id${suffix}`,
        expect: all(404, { institutionAdmin: 200, doctor: 200, platformAdmin: 200 }),
        // Reads change nothing: one appointment serves every cell.
        request: async () => ({ url: `/api/v1/admin/appointments/${consoleAppointment}${suffix}` }),
      }),
    ),
    { method: 'get', path: '/admin/users', expect: all(403, { platformAdmin: 200 }), request: fixed('/api/v1/admin/users') },
    { method: 'get', path: '/admin/users/:id', expect: all(403, { platformAdmin: 200 }), request: async () => ({ url: `/api/v1/admin/users/${users.patient.user_id}` }) },
    {
      method: 'put',
      path: '/admin/users/:id',
      expect: all(403, { platformAdmin: 200 }),
      request: async () => ({ url: `/api/v1/admin/users/${(await t.createUser('patient')).user_id}`, body: { is_active: false } }),
    },
    // The Patient Education Hub (issue 16): doctors write their own posts; published ones are anyone's to read.
    { method: 'post', path: '/blogs/', expect: doctorsOnly(201), request: fixed('/api/v1/blogs/', blogPost) },
    { method: 'get', path: '/blogs/', expect: doctorsOnly(200), request: fixed('/api/v1/blogs/?status=draft&sort=title') },
    { method: 'get', path: '/blogs/:id', expect: all(404, { doctor: 200 }), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}` }) },
    { method: 'put', path: '/blogs/:id', expect: ownPost(200), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}`, body: { ...blogPost, title: 'Edited' } }) },
    { method: 'post', path: '/blogs/:id/publish', expect: ownPost(200), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}/publish` }) },
    {
      method: 'post',
      path: '/blogs/:id/schedule',
      expect: ownPost(200),
      request: async () => ({ url: `/api/v1/blogs/${await freshPost()}/schedule`, body: { publish_at: new Date(Date.now() + 86_400_000).toISOString() } }),
    },
    { method: 'post', path: '/blogs/:id/unschedule', expect: ownPost(409), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}/unschedule` }) },
    { method: 'post', path: '/blogs/:id/archive', expect: ownPost(200), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}/archive` }) },
    { method: 'delete', path: '/blogs/:id', expect: ownPost(200), request: async () => ({ url: `/api/v1/blogs/${await freshPost()}?confirm=true` }) },
    {
      method: 'post',
      path: '/blogs/:id/views',
      expect: all(200, { anonymous: 200 }),
      request: async () => ({ url: `/api/v1/blogs/${(await freshPost(true)).id}/views`, body: { reader_session: 'matrix-reader-session-0001' } }),
    },
    { method: 'get', path: '/public/blogs/:slug', expect: all(200, { anonymous: 200 }), request: async () => ({ url: `/api/v1/public/blogs/${(await freshPost(true)).slug}` }) },
    { method: 'get', path: '/public/doctors/:doctor_id/blogs', expect: all(200, { anonymous: 200 }), request: async () => ({ url: `/api/v1/public/doctors/${users.doctor.user_id}/blogs` }) },
    // A JSON body is not an upload (415).
    { method: 'post', path: '/blogs/images', expect: doctorsOnly(415), request: fixed('/api/v1/blogs/images', { image: 'x' }) },
    { method: 'get', path: '/blogs/images/:image_id/grant', expect: ownPost(200), request: async () => ({ url: `/api/v1/blogs/images/${await doctorsImage()}/grant` }) },
    { method: 'get', path: '/blogs/images/:image_id', expect: all(404, { anonymous: 404 }), request: fixed('/api/v1/blogs/images/no-such-image-0000') },
    { method: 'get', path: '/blogs/link-meta', expect: doctorsOnly(200), request: fixed('/api/v1/blogs/link-meta?url=https%3A%2F%2Fwho.int') },
    { method: 'get', path: '/blogs/topic-ideas', expect: doctorsOnly(200), request: fixed('/api/v1/blogs/topic-ideas') },
    // Keep this row last: every role erases its own account here, and nothing can be asked of it afterwards.
    { method: 'post', path: '/users/me/erasure', expect: all(200), request: fixed('/api/v1/users/me/erasure') },
  ];

  it("across two institutions: A's admin adding B's doctor by e-mail gets an invitation and sees only appointments made while the doctor is A's member", async () => {
    const slot = async (minutes: number) => {
      const start = DateTime.now().setZone(DEFAULT_TIMEZONE).startOf('day').plus({ days: 5, minutes });
      const [id] = await t.openSlots(users.otherDoctor, [{ date: start.toISODate()!, time: start.toFormat('HH:mm') }]);
      return id!;
    };
    const book = async (minutes: number) => {
      const res = await t.http.post('/api/v1/appointments').set(users.otherPatient.auth).send({ slot_id: await slot(minutes), notes: 'clinical note' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      await t.settle();
      return res.body.appointment_id as string;
    };
    const listedByA = async () =>
      ((await t.http.get(`/api/v1/institutions/${institutionId}/appointments`).set(users.institutionAdmin.auth).expect(200)).body as Array<{ id: string }>).map((a) => a.id);
    const historyStatus = async (id: string, role: Exclude<Role, 'anonymous'>) => (await t.http.get(`/api/v1/appointments/${id}/history`).set(users[role].auth)).status;

    const before = await book(600);
    const added = await t.http
      .post(`/api/v1/institutions/${institutionId}/doctors`)
      .set(users.institutionAdmin.auth)
      .send({ name: 'Doctor two', email: 'doctor2@clinic.in', phone_number: '+91 90000 10001', specialty: 'ENT', qualification: 'MS', consultation_fee: 100 })
      .expect(201);
    assert.equal(added.body.status, 'invited');
    assert.equal(added.body.doctor_id, users.otherDoctor.user_id);
    await t.settle();
    const whilePending = await book(630);
    assert.ok(!(await listedByA()).includes(before) && !(await listedByA()).includes(whilePending), 'an invitation opens nothing');
    assert.deepEqual([await historyStatus(before, 'institutionAdmin'), await historyStatus(whilePending, 'institutionAdmin')], [404, 404]);
    assert.deepEqual([await historyStatus(before, 'otherInstitutionAdmin'), await historyStatus(whilePending, 'otherInstitutionAdmin')], [200, 200]);
    const mine = await t.http.get('/api/v1/institutions/my-institution').set(users.institutionAdmin.auth).expect(200);
    assert.ok(!mine.body.doctors.some((d: { doctor_id: string }) => d.doctor_id === users.otherDoctor.user_id), 'not listed as an active doctor');
    assert.ok(mine.body.pending_invitations.some((i: { id: string }) => i.id === added.body.invitation_id), 'listed as a pending invitation');

    await t.http.post(`/api/v1/institutions/${institutionId}/invitations/${added.body.invitation_id}/accept`).set(users.otherDoctor.auth).expect(200);
    await t.settle();
    const whileMember = await book(660);
    assert.ok((await listedByA()).includes(whileMember));
    assert.ok(!(await listedByA()).includes(before) && !(await listedByA()).includes(whilePending), 'joining opens no earlier appointment');
    assert.deepEqual([await historyStatus(before, 'institutionAdmin'), await historyStatus(whileMember, 'institutionAdmin')], [404, 200]);

    await t.http.delete(`/api/v1/institutions/${institutionId}/doctors/${users.otherDoctor.user_id}`).set(users.institutionAdmin.auth).expect(200);
    await t.settle();
    const after = await book(690);
    assert.ok((await listedByA()).includes(whileMember), 'what was made while a member stays visible (audit)');
    assert.ok(!(await listedByA()).includes(after));
    assert.deepEqual([await historyStatus(whileMember, 'institutionAdmin'), await historyStatus(after, 'institutionAdmin')], [200, 404]);
    assert.deepEqual([await historyStatus(after, 'otherInstitutionAdmin'), await historyStatus(after, 'doctor')], [200, 404]);
  });

  it('answers each cell as declared, declares every route, and never serves a sealed field unopened', async () => {
    const table = rows();
    const declared = new Set(table.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    const routes = t.app.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(routes.filter((r) => !declared.has(r)), [], 'every route of the API has a row in the matrix');
    assert.deepEqual([...declared].filter((r) => !routes.includes(r)), [], 'every row is a real route');

    const mismatches: string[] = [];
    const lines: string[] = [`| route | ${ROLES.join(' | ')} |`, `|---|${ROLES.map(() => '---').join('|')}|`];
    for (const row of table) {
      const cells: string[] = [];
      for (const role of ROLES) {
        const { url, body } = await row.request(role);
        let req = t.http[row.method](url);
        if (role !== 'anonymous') req = req.set(users[role].auth);
        const res = body === undefined ? await req : await req.send(body as object);
        const expected = row.expect[role];
        cells.push(res.status === expected ? String(res.status) : `${res.status}≠${expected}`);
        if (res.status !== expected) mismatches.push(`${row.method.toUpperCase()} ${row.path} as ${role}: ${res.status} (expected ${expected}) ${JSON.stringify(res.body).slice(0, 120)}`);
        if (res.status >= 500) mismatches.push(`${row.method.toUpperCase()} ${row.path} as ${role}: a 5xx`);
        // Read models keep some fields sealed (contracts' sealedInReadModels): every answer must have opened them.
        if (/enc1\.[A-Za-z0-9_-]+\./.test(res.text ?? JSON.stringify(res.body ?? null))) mismatches.push(`${row.method.toUpperCase()} ${row.path} as ${role}: serves a ciphertext`);
      }
      lines.push(`| ${row.method.toUpperCase()} ${row.path} | ${cells.join(' | ')} |`);
    }
    console.log(`\nAccess-control matrix (status per role)\n${lines.join('\n')}\n`);
    assert.deepEqual(mismatches, []);
  });

  /** The distinct finds and counts one request makes: the recording keeps each query once, so it is set aside meanwhile. */
  async function queriesOf<T>(request: () => PromiseLike<T>): Promise<{ result: T; made: RecordedQuery[] }> {
    const recording = queries as Map<string, RecordedQuery>;
    const earlier = new Map(recording);
    recording.clear();
    try {
      const result = await request();
      return { result, made: [...recording.values()] };
    } finally {
      for (const [sql, query] of earlier) if (!recording.has(sql)) recording.set(sql, query);
    }
  }

  it("reads the console's lists in each order and filter, the sitemap and the public posts (for the plans below)", async () => {
    const memberFilters: Array<Record<string, unknown>> = [{ institution_id: institutionId }, { institution_id: institutionId, is_active: true }, { institution_id: institutionId, role: 'DOCTOR' }];
    const list = (resource: string, sort: [string, 'ASC' | 'DESC'], filter: Record<string, unknown> = {}) =>
      `/api/v1/admin/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}&range=${encodeURIComponent('[0,9]')}&sort=${encodeURIComponent(JSON.stringify(sort))}`;
    const lists: Array<[string, string[], Array<Record<string, unknown>>]> = [
      ['institutions', ['name', 'slug', 'created_at', 'id'], [{}, { is_active: true }, { is_active: false }]],
      ['appointments', ['start', 'status', 'id'], [{}, ...['requested', 'confirmed', 'rejected', 'cancelled', 'completed'].map((status) => ({ status })), { doctor_id: users.doctor.user_id }, { patient_id: users.patient.user_id }, { doctor_id: users.doctor.user_id, status: 'confirmed' }, { start_gte: new Date().toISOString() }, { institution_id: institutionId }]],
      ['users', ['registered_at', 'name', 'account_type', 'id'], [{}, { is_active: true }, { is_active: false }, { account_type: 'doctor' }]],
      ['staff', MEMBER_SORTS, [{}, { is_active: true }, { is_active: false, institution_id: institutionId }, ...memberFilters, { role: 'DOCTOR' }]],
      ['doctors', MEMBER_SORTS, [{}, { is_active: true }, { role: 'SUPER_DOCTOR' }, ...memberFilters]],
    ];
    // A fresh operator: the matrix above signed its users out.
    const operator = await t.createUser('admin');
    const unpaged: string[] = [];
    for (const [resource, sorts, filters] of lists) {
      for (const field of sorts) {
        for (const order of ['ASC', 'DESC'] as const) {
          for (const filter of filters) {
            const { result: res, made } = await queriesOf(() => t.http.get(list(resource, [field, order], filter)).set(operator.auth));
            // An order no index serves with these filters is refused, with a detail that says so.
            const refused = res.status === 422 && JSON.stringify(res.body).includes(ADMIN_TEXTS.sortNotOffered);
            assert.ok(res.status === 200 || refused, `${resource} by ${field} ${order}, ${JSON.stringify(filter)}: ${res.status} ${JSON.stringify(res.body)}`);
            if (MEMBER_LISTS.includes(resource) && !('is_active' in filter && filter.is_active === false)) unpaged.push(...unpagedMemberReads(made, `${resource} by ${field} ${order}, ${JSON.stringify(filter)}`));
          }
        }
      }
    }
    // An institution's admin reads their institution's members the same way, with the institution or without it (a
    // fresh institution: the matrix above deactivated its admins).
    const listed = await createInstitution('matrix-lists', 'lists-admin@clinic.in', 'lists-doctor@clinic.in', operator);
    await t.settle();
    const institutionAdmin = await tokenByEmail('lists-admin@clinic.in');
    const adminFilters = [{}, { institution_id: listed }, { institution_id: listed, is_active: true }, { institution_id: listed, role: 'DOCTOR' }];
    for (const resource of MEMBER_LISTS) {
      for (const field of MEMBER_SORTS) {
        for (const filter of adminFilters) {
          const { result: res, made } = await queriesOf(() => t.http.get(list(resource, [field, 'ASC'], filter)).set(institutionAdmin.auth));
          assert.equal(res.status, 200, `${resource} by ${field} as the institution's admin, ${JSON.stringify(filter)}: ${JSON.stringify(res.body)}`);
          unpaged.push(...unpagedMemberReads(made, `${resource} by ${field} as the institution's admin, ${JSON.stringify(filter)}`));
        }
      }
    }
    assert.deepEqual(unpaged, [], "a members' page is read in order through an index (ORDER BY … LIMIT) and counted, not read whole and sorted");
    const byStatusOfOneDoctor = await t.http.get(list('appointments', ['status', 'ASC'], { doctor_id: users.doctor.user_id })).set(operator.auth).expect(422);
    assert.match(JSON.stringify(byStatusOfOneDoctor.body), /not offered/);
    await t.http.get('/sitemap.xml').expect(200);
    await t.http.get(`/api/v1/public/doctors/${users.doctor.user_id}/blogs`).expect(200);
    await t.http.get('/api/v1/doctors/?skip=0&limit=10').set(operator.auth).expect(200);
  });

  it("reads a doctor's own list in each order and direction, a tab or all, a category or all, a search or none (for the plans below)", async () => {
    const writer = await t.createUser('doctor');
    for (const category of ['wellness', 'nutrition']) await t.http.post('/api/v1/blogs/').set(writer.auth).send({ ...blogPost, category }).expect(201);
    await t.settle();
    for (const sort of ['date', 'title', 'views']) {
      for (const order of ['asc', 'desc']) {
        for (const tab of [{}, { status: 'draft' }]) {
          for (const category of [{}, { category: 'wellness' }]) {
            for (const search of [{}, { q: 'matrix' }]) {
              const res = await t.http.get('/api/v1/blogs/').query({ sort, order, ...tab, ...category, ...search }).set(writer.auth).expect(200);
              assert.equal(res.body.total, 'category' in category ? 1 : 2, `${sort} ${order} ${JSON.stringify({ ...tab, ...category, ...search })}`);
            }
          }
        }
      }
    }
  });

  it('answers every query its routes, sweeps and projections made through an index (plans without statistics)', () => {
    const store = (t.app.readStore as GenerationalReadStore).inner as SqliteReadStore;
    const plans = store.plansWithoutStatistics([...queries.values()].map(onCurrentGeneration));
    // A scan of a whole table, a sort of every match (not only of ties, "LAST TERM"), or a sort left to JavaScript.
    // A scan of a subquery reads what its own plan (checked too) yields: a capped count's, at most its LIMIT.
    const costly = plans.filter((q) => q.sorted_in_js || q.plan.some((step) => /^SCAN (?!\(subquery-)\S+$|TEMP B-TREE FOR ORDER BY/.test(step)));
    const unexplained = costly.filter((q) => !BOUNDED_READS.some((b) => b.collection === q.collection.replace(/__g\d+$/, '') && b.sql.test(q.sql)));
    assert.ok(plans.length > 50, `the matrix ran the routes' queries (${plans.length})`);
    assert.deepEqual(
      unexplained.map((q) => `${q.collection}: ${q.sql.replace(/(\?, )+\?/g, '…')}\n    ${q.plan.join(' | ')}${q.sorted_in_js ? ' | sorted in JS' : ''}`),
      [],
      'every query reads through an index what it returns, or is listed in BOUNDED_READS with what bounds it',
    );
  });

  it("answers a doctor's list of their posts from one index read in its order: every filter in the index, no sort at all", () => {
    const store = (t.app.readStore as GenerationalReadStore).inner as SqliteReadStore;
    const hub = [...queries.values()].filter((q) => q.collection.replace(/__g\d+$/, '') === 'blog_posts' && HUB_READS.some((r) => r.test(q.sql))).map(onCurrentGeneration);
    const plans = store.plansWithoutStatistics(hub);
    assert.ok(plans.length >= 12, `the hub's lists were read (${plans.length})`);
    // Not even the ties: a sort whose directions differ (views descending, ids ascending) sorts each run of equal keys.
    const sorted = plans.filter((q) => q.sorted_in_js || q.plan.some((step) => /TEMP B-TREE/.test(step)));
    // A filter the index leaves out (a category) is tested on each of the doctor's posts, by the count too.
    const unindexed = plans.filter((q) => indexedEqualities(q.plan) < whereEqualities(q.sql));
    const show = (q: RecordedQuery & { plan: string[] }) => `${q.sql.replace(/^.*? WHERE /, '')}\n    ${q.plan.join(' | ')}`;
    assert.deepEqual(sorted.map(show), [], 'no sort of what the list matches');
    assert.deepEqual(unindexed.map(show), [], 'every equality of the filter in the index');
  });
});

/** The hub's reads of a doctor's posts: a page in one of its orders (by date, title or views), or the count of a tab. */
const HUB_READS = [
  /^SELECT COUNT\(\*\) FROM \S+ WHERE \(json_extract\(doc, '\$\."author_id"'\) = \?\)/,
  /^SELECT doc FROM \S+ WHERE \(json_extract\(doc, '\$\."author_id"'\) = \?\).* ORDER BY json_extract\(doc, '\$\."(date|title_key|views)"'\)/,
];

/** Equalities in a query's WHERE (before its ORDER BY). */
const whereEqualities = (sql: string) => (sql.split(' ORDER BY ')[0]!.match(/ = \?/g) ?? []).length;

/** Equalities the index of a plan's search step answers, e.g. `SEARCH t USING INDEX i (<expr>=? AND <expr>=?)`. */
const indexedEqualities = (plan: string[]) => Math.max(0, ...plan.map((step) => (/USING (?:COVERING )?INDEX \S+ \(([^)]*)\)/.exec(step)?.[1]?.match(/=\?/g) ?? []).length));

const MEMBER_LISTS = ['staff', 'doctors'];
const MEMBER_SORTS = ['name', 'role', 'email', 'added_at', 'specialty', 'id'];

/**
 * A members' list's finds of institution_staff that read more than its page: without an order and a limit, each one
 * read every member of an institution (or of the platform) and the page was cut after a sort in JavaScript, which the
 * plans alone do not show. One person's entries (user_id = ?, the caller's memberships) are few. The removed members
 * (is_active false) and a search by text read an institution's entries: the API offers them, the console does not.
 */
function unpagedMemberReads(made: RecordedQuery[], request: string): string[] {
  return made
    .filter((q) => q.collection.replace(/__g\d+$/, '') === 'institution_staff' && q.sql.startsWith('SELECT doc '))
    .filter((q) => !/"user_id"'\) = \?/.test(q.sql) && !/ ORDER BY .+ LIMIT \?/.test(q.sql))
    .map((q) => `${request}: ${q.sql}`);
}

/**
 * Queries that read or sort every match without an index, each bounded by something other than the history's length.
 * Anything else must be answered through an index (issue 11: reads cost what they return).
 */
const BOUNDED_READS: Array<{ collection: string; sql: RegExp; why: string }> = [
  { collection: 'waitlist', sql: /"(patient_id|doctor_id)"'\) = \?\) AND \(json_extract\(doc, '\$\."status"'\) IN \(/, why: "one person's open waitlist places (a patient's, or those on a doctor's waitlist), read once when they are erased" },
  { collection: 'slots', sql: /"doctor_day"'\) = \?/, why: "one doctor's day: at most 48 slots, sorted" },
  { collection: 'appointment_history', sql: /"appointment_id"'\) (= \?|IN \()/, why: "one appointment's entries (or the caller's appointments' in an export), sorted" },
  { collection: 'appointments', sql: /"doctor_id"'\) = \?\) AND \(json_extract\(doc, '\$\."status"'\) = \?\) AND \(json_extract\(doc, '\$\."start"'\) > \?\) ORDER BY json_extract\(doc, '\$\."created_at"'\)/, why: "a doctor's pending requests of upcoming slots: live work, never history" },
  { collection: 'sessions', sql: /"user_id"'\) = \?/, why: "one person's sessions, read once for their export" },
  { collection: 'blog_posts', sql: /"author_id"'\) = \?\) ORDER BY json_extract\(doc, '\$\."created_at"'\)/, why: "one doctor's posts, read once for their export" },
  { collection: 'blog_images', sql: /"author_id"'\) = \?/, why: "one doctor's pictures, read once for their export" },
  { collection: '_projection_generations', sql: /WHERE 1$/, why: 'a row per read model' },
  { collection: 'institutions', sql: /ORDER BY/, why: "the console's institutions in an order without an index: the platform's institutions (few, rarely added), not its history" },
];
