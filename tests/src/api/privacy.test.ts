import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PRIVACY_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { accessesBy, subjectIds, type Access, withAuditUnwritable } from '../support/access-audit';

describe('privacy: access audit, who saw my data, export', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let platformAdmin: TestUser;
  let clinicAdmin: TestUser;
  let doctor: TestUser;
  let asha: TestUser;
  let ravi: TestUser;
  let institutionId: string;
  let ashaAppointment: string;
  let raviAppointment: string;


  /** Runs a read and returns the audit events it appended. */
  async function audited(reader: TestUser, url: string): Promise<{ body: unknown; events: Access[] }> {
    const before = (await accessesBy(t, reader)).length;
    const res = await t.http.get(url).set(reader.auth);
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
    return { body: res.body, events: (await accessesBy(t, reader)).slice(before) };
  }


  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
    platformAdmin = await t.createUser('admin', { name: 'Operator Omkar' });
    asha = await t.createUser('patient', { name: 'Asha Verma', phone_number: '+91 91111 11111' });
    ravi = await t.createUser('patient', { name: 'Ravi Kulkarni', phone_number: '+91 92222 22222' });
    const res = await t.http
      .post('/api/v1/institutions/')
      .set(platformAdmin.auth)
      .send({
        name: 'Lotus Clinic',
        slug: 'lotus-privacy',
        address: '1 Park Street, Kolkata',
        phone: '+91 33 4000 0000',
        email: 'desk@lotus.in',
        staff: [
          { name: 'Meera Admin', email: 'meera@lotus.in', phone: '+91 93333 33333', account_type: 'ADMIN' },
          { name: 'Dr. Kabir Sen', email: 'kabir@lotus.in', phone: '+91 94444 44444', account_type: 'DOCTOR' },
        ],
      })
      .expect(201);
    institutionId = res.body.id as string;
    await t.settle();
    clinicAdmin = await t.signedIn('meera@lotus.in', 'patient');
    doctor = await t.signedIn('kabir@lotus.in', 'doctor');
    const [slotA, slotR] = await t.openSlots(doctor, [
      { date: indiaDate(3), time: '10:00' },
      { date: indiaDate(3), time: '10:30' },
    ]);
    const bookA = await t.http.post('/api/v1/appointments').set(asha.auth).send({ slot_id: slotA, notes: 'Asha: recurring migraine' }).expect(201);
    const bookR = await t.http.post('/api/v1/appointments').set(ravi.auth).send({ slot_id: slotR, notes: 'Ravi: knee pain after a fall' }).expect(201);
    ashaAppointment = bookA.body.appointment_id as string;
    raviAppointment = bookR.body.appointment_id as string;
    await t.settle();
  });
  after(() => t.close());

  it("a doctor's pending requests and lists are one audit event each, for care, listing every patient shown", async () => {
    const pending = await audited(doctor, '/api/v1/appointments/pending');
    assert.equal(pending.events.length, 1);
    const [event] = pending.events;
    assert.equal(event!.purpose, 'care');
    assert.equal(event!.resource, 'pending_requests');
    assert.equal(event!.route, 'GET /api/v1/appointments/pending');
    assert.equal(event!.accessor_id, doctor.user_id);
    assert.equal(event!.accessor_role, 'doctor');
    assert.deepEqual(subjectIds(event!), [asha.user_id, ravi.user_id].sort());
    assert.deepEqual(event!.subjects.find((s) => s.user_id === asha.user_id)!.items, [ashaAppointment]);

    await t.http.post(`/api/v1/appointments/${ashaAppointment}/approve`).set(doctor.auth).expect(200);
    await t.settle();
    const mine = await audited(doctor, '/api/v1/appointments/me?status=requested,confirmed');
    assert.equal(mine.events.length, 1);
    assert.equal(mine.events[0]!.resource, 'doctor_appointments');
    assert.deepEqual(subjectIds(mine.events[0]!), [asha.user_id, ravi.user_id].sort());
  });

  it("the treating doctor reading an appointment's history is recorded with its patient as the subject", async () => {
    const { events } = await audited(doctor, `/api/v1/appointments/${ashaAppointment}/history`);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.purpose, 'care');
    assert.equal(events[0]!.route, 'GET /api/v1/appointments/:id/history');
    assert.deepEqual(events[0]!.subjects, [{ user_id: asha.user_id, items: [ashaAppointment] }]);
  });

  it('reading your own data is not audited', async () => {
    for (const url of [`/api/v1/appointments/${ashaAppointment}/history`, '/api/v1/appointments/me', '/api/v1/users/me', '/api/v1/users/me/consents']) {
      (await spec.when((http) => http.get(url).set(asha.auth))).expectStatus(200).expectNoEvents();
    }
    assert.deepEqual(await accessesBy(t, asha), []);
  });

  it("an institution's reads are recorded for its audit or administration, with the institution and the reader's role there", async () => {
    const list = await audited(clinicAdmin, `/api/v1/institutions/${institutionId}/appointments`);
    assert.equal(list.events.length, 1);
    const [event] = list.events;
    assert.equal(event!.purpose, 'institution_audit');
    assert.equal(event!.institution_id, institutionId);
    assert.equal(event!.institution_role, 'ADMIN');
    assert.deepEqual(subjectIds(event!), [asha.user_id, ravi.user_id, doctor.user_id].sort(), 'patients and their doctor');

    const history = await audited(clinicAdmin, `/api/v1/appointments/${raviAppointment}/history`);
    assert.equal(history.events[0]!.purpose, 'institution_audit');
    assert.equal(history.events[0]!.institution_id, institutionId);
    assert.deepEqual(subjectIds(history.events[0]!), [ravi.user_id, doctor.user_id].sort());

    const staff = await audited(clinicAdmin, `/api/v1/institutions/${institutionId}/staff`);
    assert.equal(staff.events[0]!.purpose, 'institution_administration');
    assert.deepEqual(staff.events[0]!.subjects, [{ user_id: doctor.user_id, items: ['contact_details'] }], 'the reader is not their own subject');

    const mine = await audited(clinicAdmin, '/api/v1/institutions/my-institution');
    assert.equal(mine.events[0]!.resource, 'institution_doctors');
    assert.deepEqual(subjectIds(mine.events[0]!), [doctor.user_id]);
  });

  it("a platform admin's read of an institution's appointments is recorded for platform administration", async () => {
    const { events } = await audited(platformAdmin, `/api/v1/institutions/${institutionId}/appointments`);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.purpose, 'platform_administration');
    assert.equal(events[0]!.accessor_role, 'admin');
    assert.equal(events[0]!.institution_role, null);
  });

  it('a read whose audit cannot be written is refused (503), never served off the record', async () => {
    await withAuditUnwritable(t, async () => {
      for (const url of ['/api/v1/appointments/pending', `/api/v1/appointments/${ashaAppointment}/history`, `/api/v1/institutions/${institutionId}/staff`]) {
        const res = await t.http.get(url).set(url.includes('institutions') ? clinicAdmin.auth : doctor.auth);
        assert.equal(res.status, 503, url);
        assert.deepEqual(res.body, { detail: PRIVACY_TEXTS.auditUnavailable, code: 'audit_unavailable' });
        assert.ok(!JSON.stringify(res.body).includes('Asha'), 'no data in the refusal');
      }
      // Reading one's own data needs no audit, so it is served.
      await t.http.get(`/api/v1/appointments/${ashaAppointment}/history`).set(asha.auth).expect(200);
    });
  });

  it('who saw my data: the subject sees each access by name, role, what, when and why, newest first and paged; nobody else sees it', async () => {
    await t.settle();
    const log = await t.http.get('/api/v1/users/me/access-log').set(asha.auth).expect(200);
    const entries = log.body.entries as Array<{ who: { user_id: string; name: string; role: string }; why: string; when: string; what: { route: string; items: string[] }; institution: { name: string } | null }>;
    // pending, my list, history (doctor); institution list (clinic admin); platform admin's list.
    assert.deepEqual(
      entries.map((e) => [e.who.name, e.why]),
      [
        ['Operator Omkar', 'platform_administration'],
        ['Meera Admin', 'institution_audit'],
        ['Dr. Kabir Sen', 'care'],
        ['Dr. Kabir Sen', 'care'],
        ['Dr. Kabir Sen', 'care'],
      ],
    );
    assert.equal(entries[1]!.institution?.name, 'Lotus Clinic');
    assert.equal(entries[2]!.what.route, 'GET /api/v1/appointments/:id/history');
    assert.ok(entries.every((e, i) => i === 0 || entries[i - 1]!.when >= e.when), 'newest first');
    assert.equal(log.body.next_cursor, null);
    assert.ok(entries.every((e) => e.what.items.every((item) => item === ashaAppointment)), "only Asha's items");

    const first = await t.http.get('/api/v1/users/me/access-log?limit=2').set(asha.auth).expect(200);
    assert.equal(first.body.entries.length, 2);
    const second = await t.http.get(`/api/v1/users/me/access-log?limit=2&cursor=${first.body.next_cursor}`).set(asha.auth).expect(200);
    const third = await t.http.get(`/api/v1/users/me/access-log?limit=2&cursor=${second.body.next_cursor}`).set(asha.auth).expect(200);
    assert.equal(third.body.next_cursor, null);
    assert.deepEqual([...first.body.entries, ...second.body.entries, ...third.body.entries], entries);

    // Ravi's log has his own accesses (his appointment's history read by the clinic), never Asha's items.
    const raviLog = await t.http.get('/api/v1/users/me/access-log').set(ravi.auth).expect(200);
    assert.ok(raviLog.body.entries.length >= 1);
    assert.ok(!JSON.stringify(raviLog.body).includes(ashaAppointment));
    // The clinic admin saw others' data but nobody saw theirs.
    assert.deepEqual((await t.http.get('/api/v1/users/me/access-log').set(clinicAdmin.auth).expect(200)).body, { entries: [], next_cursor: null });
    // Reading one's own access log is not itself audited.
    assert.deepEqual(await accessesBy(t, asha), []);
  });

  it('the access log refuses a malformed page', async () => {
    for (const query of ['limit=0', 'limit=101', 'cursor=abc', 'cursor=-1']) {
      const res = await t.http.get(`/api/v1/users/me/access-log?${query}`).set(asha.auth).expect(422);
      assert.ok(Array.isArray(res.body.detail), query);
    }
    await t.http.get('/api/v1/users/me/access-log').expect(401);
  });

  it('export: everything about the person as a dated JSON download, with whom each item was shared, and nobody else', async () => {
    const res = await t.http.get('/api/v1/users/me/export').set(asha.auth).expect(200);
    assert.match(res.headers['content-type']!, /application\/json/);
    assert.match(res.headers['content-disposition']!, /^attachment; filename="telemed-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = res.body;
    assert.equal(data.subject_user_id, asha.user_id);
    assert.equal(data.profile.name, 'Asha Verma');
    assert.equal(data.profile.phone_number, '+91 91111 11111');
    assert.equal(data.consents.length, 1);
    assert.equal(data.appointments.length, 1);
    const [appointment] = data.appointments;
    assert.equal(appointment.appointment_id, ashaAppointment);
    assert.equal(appointment.notes, 'Asha: recurring migraine');
    assert.equal(appointment.status, 'confirmed');
    assert.deepEqual(appointment.status_history.map((h: { type: string }) => h.type), ['SlotReserved', 'AppointmentRequested', 'AppointmentApproved']);
    assert.equal(appointment.status_history[0].by, 'you');
    assert.deepEqual(
      [...new Set(appointment.shared_with.map((s: { name: string }) => s.name))].sort(),
      ['Dr. Kabir Sen', 'Meera Admin', 'Operator Omkar'],
    );
    assert.ok(appointment.shared_with.some((s: { institution: { name: string } | null }) => s.institution?.name === 'Lotus Clinic'));
    assert.deepEqual(data.slots_booked.map((s: { appointment_id: string }) => s.appointment_id), [ashaAppointment]);
    assert.equal(data.access_log.length, 5);

    // Nothing of Ravi's: no id, name, phone, e-mail, reason or appointment.
    const text = JSON.stringify(data);
    const raviEmail = (await t.http.get('/api/v1/users/me').set(ravi.auth).expect(200)).body.email as string;
    for (const foreign of [ravi.user_id, 'Ravi', '+91 92222 22222', raviEmail, 'knee pain', raviAppointment]) {
      assert.ok(!text.includes(foreign), `the export holds ${foreign}`);
    }
  });

  it("a doctor's export holds their profile, institution roles and slots, and their appointments' facts without the patients' data", async () => {
    const res = await t.http.get('/api/v1/users/me/export').set(doctor.auth).expect(200);
    const data = res.body;
    assert.equal(data.profile.account_type, 'doctor');
    assert.ok(data.profile.doctor);
    assert.equal(data.institutions.length, 1);
    assert.equal(data.institutions[0].institution_name, 'Lotus Clinic');
    assert.equal(data.institutions[0].role, 'DOCTOR');
    // Their contact details were read by the clinic's admin (staff list, my-institution).
    assert.deepEqual([...new Set(data.institutions[0].shared_with.map((s: { name: string }) => s.name))], ['Meera Admin']);
    assert.equal(data.slots_offered.length, 2);
    assert.deepEqual(data.appointments.map((a: { as: string }) => a.as), ['doctor', 'doctor']);
    const text = JSON.stringify(data);
    for (const foreign of [asha.user_id, ravi.user_id, 'Asha', 'Ravi', 'migraine', 'knee pain', '+91 91111 11111']) {
      assert.ok(!text.includes(foreign), `the doctor's export holds ${foreign}`);
    }
    // Exports read only the caller's own data: not audited.
    assert.equal((await accessesBy(t, doctor)).filter((e) => e.route.includes('export')).length, 0);
  });

  it('export needs a signed-in person', async () => {
    await t.http.get('/api/v1/users/me/export').expect(401);
  });
});
