import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RECORD_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { documentsRead } from '../support/documents-read';

type Row = { id: string; institution_id: string | null };
type Entry = { institution: { id: string } | null; what: { route: string } };

/**
 * A staff member reads exactly the appointments their institution's console lists (institution_appointments, decided
 * when each was requested), and the access audit names the institution the console lists it under; a patient's
 * records follow the same lists. Membership and role changes of the doctor after the request, and a reader who is a
 * member of two institutions, are where a separate rule (the staff entries' intervals now, the caller's membership
 * order) answered differently. The records are read by the institution's doctors only: its administrators and front
 * desk manage appointments and have no need to know what is in them.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`an institution member reads what the console lists, under the institution it lists (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let operator: TestUser;

  const createInstitution = async (slug: string, staff: Array<{ name: string; email: string; account_type: string }>) => {
    const res = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({ name: `Clinic ${slug}`, slug, address: 'MG Road', phone: '+91 80 1234 5678', email: `${slug}@clinic.in`, staff: staff.map((s) => ({ phone: '+91 90000 10000', ...s })) })
      .expect(201);
    await t.settle();
    return res.body.id as string;
  };

  async function accept(user: TestUser, institutionId: string) {
    const invitations = (await t.http.get('/api/v1/institutions/invitations').set(user.auth).expect(200)).body as Array<{ id: string; institution: { id: string } }>;
    const invitation = invitations.find((i) => i.institution.id === institutionId);
    assert.ok(invitation, 'invited');
    await t.http.post(`/api/v1/institutions/${institutionId}/invitations/${invitation.id}/accept`).set(user.auth).expect(200);
    await t.settle();
  }

  /** Books each of the doctor's slots in turn for the patient, approved unless asked otherwise. */
  async function book(doctor: TestUser, patient: TestUser, slot: number, approve = true) {
    const id = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }).expect(201)).body.appointment_id as string;
    if (approve) await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
    await t.settle();
    return id;
  }

  /** The console's list (every institution of the caller's, no filter): where it lists the appointment, or null. */
  async function listedUnder(caller: TestUser, appointmentId: string): Promise<string | null> {
    const res = await t.http.get('/api/v1/admin/appointments').query({ range: JSON.stringify([0, 99]) }).set(caller.auth).expect(200);
    return (res.body as Row[]).find((r) => r.id === appointmentId)?.institution_id ?? null;
  }

  /** The patient's latest access-log entry for this route: the institution it names. */
  async function auditedUnder(patient: TestUser, route: string): Promise<string | null | undefined> {
    // The audit is an event the access log's projection applies after the read answered: read once it has.
    await t.settle();
    const entries = (await t.http.get('/api/v1/users/me/access-log').set(patient.auth).expect(200)).body.entries as Entry[];
    const entry = entries.find((e) => e.what.route === route);
    return entry === undefined ? undefined : (entry.institution?.id ?? null);
  }

  /** The console's list, one appointment's read, its history and their audit all give the same institution (or none). */
  async function agrees(caller: TestUser, patient: TestUser, appointmentId: string, expected: string | null, what: string) {
    assert.equal(await listedUnder(caller, appointmentId), expected, `${what}: the console's list`);
    const shown = await t.http.get(`/api/v1/admin/appointments/${appointmentId}`).set(caller.auth);
    assert.equal(shown.status, expected ? 200 : 404, `${what}: the console's show`);
    if (expected) assert.equal(shown.body.institution_id, expected, `${what}: the show names the institution`);
    await t.http.get(`/api/v1/appointments/${appointmentId}/history`).set(caller.auth).expect(expected ? 200 : 404);
    if (expected) {
      assert.equal(await auditedUnder(patient, 'GET /api/v1/appointments/:id/history'), expected, `${what}: the history's audit`);
      assert.equal(await auditedUnder(patient, 'GET /api/v1/admin/appointments/:id'), expected, `${what}: the show's audit`);
    }
  }

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: readStoreKind } });
    operator = await t.createUser('admin');
  });
  after(() => t.close());

  it('a doctor who left: what was requested while a member stays listed and readable, nothing later; records close', async () => {
    const clinic = await createInstitution('agree-left', [
      { name: 'Lead Left', email: 'lead@agree-left.in', account_type: 'ADMIN' },
      { name: 'Dr Left', email: 'dr@agree-left.in', account_type: 'DOCTOR' },
      { name: 'Dr Peer', email: 'peer@agree-left.in', account_type: 'DOCTOR' },
    ]);
    const lead = await t.signedIn('lead@agree-left.in', 'patient');
    const peer = await t.signedIn('peer@agree-left.in', 'doctor');
    const doctor = await t.signedIn('dr@agree-left.in', 'doctor');
    const [s1, s2] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '10:00' }, { date: indiaDate(3), time: '11:00' }]);
    const patient = await t.createUser('patient');
    const during = await book(doctor, patient, s1!);
    await t.http.delete(`/api/v1/institutions/${clinic}/doctors/${doctor.user_id}`).set(lead.auth).expect(200);
    await t.settle();
    const later = await book(doctor, patient, s2!);
    await agrees(lead, patient, during, clinic, 'requested while a member');
    await agrees(lead, patient, later, null, 'requested after leaving');
    // Records: the doctor is no longer the institution's (README: staff read records only through a current member).
    assert.deepEqual((await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(peer.auth).expect(404)).body.detail, RECORD_TEXTS.patientNotFound);
  });

  it('a doctor who joined after the appointment was requested: only what came after is listed and readable', async () => {
    const clinic = await createInstitution('agree-joined', [
      { name: 'Lead Joined', email: 'lead@agree-joined.in', account_type: 'ADMIN' },
      { name: 'Dr Peer', email: 'peer@agree-joined.in', account_type: 'DOCTOR' },
    ]);
    const lead = await t.signedIn('lead@agree-joined.in', 'patient');
    const peer = await t.signedIn('peer@agree-joined.in', 'doctor');
    const doctor = await t.createUser('doctor');
    const [s1, s2] = await t.openSlots(doctor, [{ date: indiaDate(4), time: '10:00' }, { date: indiaDate(4), time: '11:00' }]);
    const earlierPatient = await t.createUser('patient');
    const laterPatient = await t.createUser('patient');
    const before = await book(doctor, earlierPatient, s1!);
    const email = (await t.http.get('/api/v1/users/me').set(doctor.auth).expect(200)).body.email as string;
    await t.http.post(`/api/v1/institutions/${clinic}/doctors`).set(lead.auth).send({ name: 'Dr Joined', email, phone_number: '+91 90000 30000', specialty: 'General Medicine', qualification: 'MBBS', consultation_fee: 100 }).expect(201);
    await t.settle();
    await accept(doctor, clinic);
    const after = await book(doctor, laterPatient, s2!);
    await agrees(lead, earlierPatient, before, null, 'requested before joining');
    await agrees(lead, laterPatient, after, clinic, 'requested after joining');
    await t.http.get(`/api/v1/patients/${earlierPatient.user_id}/records`).set(peer.auth).expect(404);
    await t.http.get(`/api/v1/patients/${laterPatient.user_id}/records`).set(peer.auth).expect(200);
    assert.equal(await auditedUnder(laterPatient, 'GET /api/v1/patients/:patient_id/records'), clinic);
    // The clinic's admin lists and reads the appointment, not what is in the patient's records.
    await t.http.get(`/api/v1/patients/${laterPatient.user_id}/records`).set(lead.auth).expect(404);
  });

  it("a role change while still a member: the appointments requested as its doctor stay listed and readable, and so do the patient's records", async () => {
    const clinic = await createInstitution('agree-role', [
      { name: 'Lead Role', email: 'lead@agree-role.in', account_type: 'ADMIN' },
      { name: 'Dr Role', email: 'dr@agree-role.in', account_type: 'DOCTOR' },
      { name: 'Dr Peer', email: 'peer@agree-role.in', account_type: 'DOCTOR' },
    ]);
    const lead = await t.signedIn('lead@agree-role.in', 'patient');
    const peer = await t.signedIn('peer@agree-role.in', 'doctor');
    const doctor = await t.signedIn('dr@agree-role.in', 'doctor');
    const [s1, s2] = await t.openSlots(doctor, [{ date: indiaDate(5), time: '10:00' }, { date: indiaDate(5), time: '11:00' }]);
    const patient = await t.createUser('patient');
    const otherPatient = await t.createUser('patient');
    const asDoctor = await book(doctor, patient, s1!);
    await t.http.put(`/api/v1/admin/staff/${clinic}~${doctor.user_id}`).set(lead.auth).send({ role: 'STAFF' }).expect(200);
    await t.settle();
    const asStaff = await book(doctor, otherPatient, s2!);
    await agrees(lead, patient, asDoctor, clinic, 'requested while its doctor');
    await agrees(lead, otherPatient, asStaff, null, 'requested once no longer its doctor');
    // Still a member: the console lists the confirmed appointment, so the records are the institution's to read.
    await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(peer.auth).expect(200);
    assert.equal(await auditedUnder(patient, 'GET /api/v1/patients/:patient_id/records'), clinic);
    await t.http.get(`/api/v1/patients/${otherPatient.user_id}/records`).set(peer.auth).expect(404);
  });

  it('a member of two institutions reads an appointment of a doctor of both under the one the console lists it under', async () => {
    const first = await createInstitution('agree-two-a', [
      { name: 'Admin Two A', email: 'admin@agree-two-a.in', account_type: 'ADMIN' },
      { name: 'Dr Both', email: 'dr@agree-two.in', account_type: 'DOCTOR' },
    ]);
    const second = await createInstitution('agree-two-b', [
      { name: 'Admin Two B', email: 'admin@agree-two-b.in', account_type: 'ADMIN' },
      { name: 'Dr Both', email: 'dr@agree-two.in', account_type: 'DOCTOR' },
    ]);
    const doctor = await t.signedIn('dr@agree-two.in', 'doctor');
    await accept(doctor, second);
    // The reader joins the institution that comes later in id order first: their memberships' order is not the lists'.
    const [low, high] = [first, second].sort();
    const adminOf = async (id: string) => t.signedIn(id === first ? 'admin@agree-two-a.in' : 'admin@agree-two-b.in', 'patient');
    // A doctor of both clinics who is not the patient's: they read the records as the clinic's, not for their own care.
    const staffMember = { name: 'Auditor Two', email: 'auditor@agree-two.in', phone: '+91 90000 40000', account_type: 'DOCTOR' };
    await t.http.post('/api/v1/admin/staff').set((await adminOf(high!)).auth).send({ ...staffMember, institution_id: high }).expect(201);
    await t.settle();
    const auditor = await t.signedIn('auditor@agree-two.in', 'doctor');
    await t.http.post('/api/v1/admin/staff').set((await adminOf(low!)).auth).send({ ...staffMember, institution_id: low }).expect(201);
    await t.settle();
    await accept(auditor, low!);
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(6), time: '10:00' }]);
    const patient = await t.createUser('patient');
    const both = await book(doctor, patient, slot!);
    await agrees(auditor, patient, both, low!, 'read by both institutions');
    await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(auditor.auth).expect(200);
    assert.equal(await auditedUnder(patient, 'GET /api/v1/patients/:patient_id/records'), low, 'the records are read under the same institution');
  });

  it("a patient's records are opened by one entry per doctor of theirs in the institution, not by each visit", async () => {
    const clinic = await createInstitution('agree-cost', [
      { name: 'Lead Cost', email: 'lead@agree-cost.in', account_type: 'ADMIN' },
      { name: 'Dr Gone', email: 'gone@agree-cost.in', account_type: 'DOCTOR' },
      { name: 'Dr Here', email: 'here@agree-cost.in', account_type: 'DOCTOR' },
      { name: 'Dr Peer', email: 'peer@agree-cost.in', account_type: 'DOCTOR' },
    ]);
    const peer = await t.signedIn('peer@agree-cost.in', 'doctor');
    const lead = await t.signedIn('lead@agree-cost.in', 'patient');
    const gone = await t.signedIn('gone@agree-cost.in', 'doctor');
    const here = await t.signedIn('here@agree-cost.in', 'doctor');
    const patient = await t.createUser('patient');
    const slots = await t.openSlots(gone, Array.from({ length: 12 }, (_, i) => ({ date: indiaDate(8 + Math.floor(i / 6)), time: `${10 + (i % 6)}:00` })));
    for (const slot of slots) await book(gone, patient, slot);
    const [mine] = await t.openSlots(here, [{ date: indiaDate(10), time: '10:00' }]);
    await book(here, patient, mine!);
    await t.http.delete(`/api/v1/institutions/${clinic}/doctors/${gone.user_id}`).set(lead.auth).expect(200);
    await t.settle();
    const read = await documentsRead(t, 'institution_appointments', async () => {
      await t.http.get(`/api/v1/patients/${patient.user_id}/records`).set(peer.auth).expect(200);
    });
    assert.ok(read <= 2, `read ${read} entries for 2 doctors (13 visits)`);
  });
});
