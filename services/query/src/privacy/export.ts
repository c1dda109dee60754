import { API_TEXTS, notFound, type AccessLogEntry, type PersonalDataExport } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type {
  AppointmentDoc,
  DoctorDoc,
  HistoryDoc,
  InstitutionDoc,
  InvitationDoc,
  SessionDoc,
  SlotDoc,
  StaffDoc,
  SubscriptionDoc,
  UserDoc,
} from '../projections';
import type { ConsentDoc } from '../consents/projection';
import { ACCOUNT_DEACTIVATIONS, type DeactivationDoc } from '../users/account-standing';
import { CONTACTS, emptyContact, type ContactDoc } from '../messaging/contacts-projection';
import { MESSAGES, type MessageDoc } from '../messaging/projection';
import { recordsForExport } from '../records/patient-records';
import { appointmentPeople } from '../appointments/people';
import { ACCESS_LOG, type AccessLogDoc } from './access-log';
import { accessViews } from './access-views';
import { consultationsOf, imagesOf, postsOf } from './export-activity';
import { memo } from './memo';

type SharedWith = PersonalDataExport['appointments'][number]['shared_with'];

/** What the export reads of the person `me`: their documents in each read model, and who read them. */
async function exportSources(readStore: ReadStore, me: string) {
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const accessLog = readStore.collection<AccessLogDoc>(ACCESS_LOG);
  const withCurrentPeople = appointmentPeople(readStore);
  const [doctor, consents, sessions, followed, bookedAsPatient, bookedAsDoctor, staffEntries, invitations, seen] = await Promise.all([
    doctors.get(me),
    readStore.collection<ConsentDoc>('consents').find({ user_id: me }, { sort: { given_at: 1 } }),
    readStore.collection<SessionDoc>('sessions').find({ user_id: me }, { sort: { started_at: 1 } }),
    readStore.collection<SubscriptionDoc>('patient_doctors').find({ patient_id: me }, { sort: { subscribed_at: 1 } }),
    readStore.collection<AppointmentDoc>('appointments').find({ patient_id: me }, { sort: { start: 1, _id: 1 } }),
    readStore.collection<AppointmentDoc>('appointments').find({ doctor_id: me }, { sort: { start: 1, _id: 1 } }),
    readStore.collection<StaffDoc>('institution_staff').find({ user_id: me }, { sort: { added_position: 1 } }),
    readStore.collection<InvitationDoc>('institution_invitations').find({ user_id: me }, { sort: { invited_at: 1 } }),
    accessLog.find({ subject_id: me }, { sort: { position: -1 } }),
  ]);
  const [readByMe, deactivations] = await Promise.all([
    accessLog.find({ accessor_id: me }, { sort: { position: -1 } }),
    readStore.collection<DeactivationDoc>(ACCOUNT_DEACTIVATIONS).find({ user_id: me }, { sort: { deactivated_at: 1 } }),
  ]);
  const [asPatient, asDoctor] = await Promise.all([withCurrentPeople(bookedAsPatient), withCurrentPeople(bookedAsDoctor)]);
  const offered = doctor ? await readStore.collection<SlotDoc>('slots').find({ doctor_id: me }, { sort: { start: 1 } }) : [];
  const appointmentIds = [...asPatient, ...asDoctor].map((a) => a._id);
  const history = appointmentIds.length
    ? await readStore.collection<HistoryDoc>('appointment_history').find({ appointment_id: { $in: appointmentIds } }, { sort: { position: 1 } })
    : [];
  return { doctor, consents, sessions, followed, asPatient, asDoctor, staffEntries, invitations, seen, readByMe, deactivations, offered, history };
}

/** How the person is reached, and the messages sent to them, newest first (what was sent, not its text). */
async function messagingOf(readStore: ReadStore, me: string): Promise<PersonalDataExport['messaging']> {
  const contact = (await readStore.collection<ContactDoc>(CONTACTS).get(me)) ?? emptyContact(me, '');
  const messages = await readStore.collection<MessageDoc>(MESSAGES).find({ recipient_id: me }, { sort: { updated_at: -1, _id: -1 } });
  return {
    channels: contact.channels,
    time_zone: contact.time_zone,
    verified_phone: contact.verified_phone,
    messages: messages.map((m) => ({ message_id: m._id, kind: m.kind, channel: m.channel, to: m.to_masked, status: m.status, appointment_id: m.appointment_id, at: m.updated_at })),
  };
}

/**
 * Who read each item of the person's (an appointment, a record, their contact details), from the access log's
 * entries: each entry grouped once under each item it names.
 */
function sharingIndex(log: AccessLogEntry[]) {
  const sharing = (entry: AccessLogEntry) => ({
    user_id: entry.who.user_id,
    name: entry.who.name,
    role: entry.who.institution_role ?? entry.who.role,
    institution: entry.institution,
    purpose: entry.why,
    at: entry.when,
  });
  // The reads of each item, and the status history of each appointment, grouped once: looking them up per item in
  // the whole log (or the whole history) made the export quadratic in the person's history.
  const readsOf = new Map<string, AccessLogEntry[]>();
  for (const entry of log) {
    for (const item of new Set(entry.what.items)) {
      let reads = readsOf.get(item);
      if (!reads) readsOf.set(item, (reads = []));
      reads.push(entry);
    }
  }
  const sharedItem = (item: string) => (readsOf.get(item) ?? []).map(sharing);
  // Your name and contact details, wherever they were read: an operator's account pages, an institution's console
  // (as its member, or as the account it invited or looked up by address).
  const contactReads = readsOf.get('contact_details') ?? [];
  const contactReadsAt = (institutionId: string) => contactReads.filter((e) => e.institution?.id === institutionId).map(sharing);
  // A clinical record's readers: the reads of that record (its id is the item) through the record routes.
  const sharedRecord = (item: string, resources: AccessLogEntry['what']['resource'][]) =>
    (readsOf.get(item) ?? []).filter((e) => resources.includes(e.what.resource)).map(sharing);
  return { sharing, sharedItem, contactReads, contactReadsAt, sharedRecord };
}

/** The person's appointments as the export shows them, as the patient or as the doctor, with their status history. */
function appointmentViews(me: string, history: HistoryDoc[], sharedItem: (item: string) => SharedWith) {
  const historyById = new Map<string, HistoryDoc[]>();
  for (const entry of history) {
    let entries = historyById.get(entry.appointment_id);
    if (!entries) historyById.set(entry.appointment_id, (entries = []));
    entries.push(entry);
  }
  // As the history route answers it: the patient never learns when the doctor saved a draft of the notes (issue 14).
  const isDraftOfOthers = (h: HistoryDoc, as: 'patient' | 'doctor') =>
    as === 'patient' && h.actor.user_id !== me && h.type === 'ConsultationNotesSaved' && (h.data as { is_draft?: boolean }).is_draft === true;
  const historyOf = (id: string, as: 'patient' | 'doctor') =>
    (historyById.get(id) ?? []).filter((h) => !isDraftOfOthers(h, as)).map((h) => ({ type: h.type, occurred_at: h.occurred_at, by: h.actor.user_id === me ? 'you' : h.actor.role }));
  // As the patient: the whole appointment, your own words included. As the doctor: its facts, without the
  // patient's name, reason for the visit or the reasons recorded under the patient (their data, not yours).
  const appointmentView = (a: AppointmentDoc, as: 'patient' | 'doctor') => ({
    appointment_id: a._id,
    as,
    slot_id: a.slot_id,
    start: a.start,
    end: a.end,
    status: a.status,
    status_reason: a.status_reason,
    doctor: { doctor_id: a.doctor_id, name: a.doctor_name, specialty: a.doctor_specialty },
    notes: as === 'patient' ? a.notes : null,
    rejection_reason: as === 'patient' ? a.rejection_reason : null,
    cancellation_reason: as === 'patient' ? a.cancellation_reason : null,
    consultation_fee: a.consultation_fee,
    created_at: a.created_at,
    status_history: historyOf(a._id, as),
    shared_with: sharedItem(a._id),
  });
  return appointmentView;
}

type Sharing = ReturnType<typeof sharingIndex>;

/** Their account and practice as the export gives them, with who read their contact details and their deactivations. */
function profileOf(me: string, user: UserDoc, doctor: DoctorDoc | null, deactivations: DeactivationDoc[], shared: Sharing): PersonalDataExport['profile'] {
  return {
    user_id: me,
    name: user.name,
    email: user.email,
    phone_number: user.phone_number,
    account_type: user.account_type,
    registered_at: user.registered_at,
    active: user.active,
    doctor: doctor
      ? {
          doctor_number: doctor.doctor_number,
          specialty: doctor.specialty,
          qualification: doctor.qualification,
          consultation_fee: doctor.consultation_fee,
          appointment_duration_minutes: doctor.appointment_duration_minutes,
          registration_number: doctor.registration_number,
          medical_council: doctor.medical_council,
          city: doctor.city ?? null,
          languages: doctor.languages ?? [],
        }
      : null,
    shared_with: shared.contactReads.map(shared.sharing),
    deactivations: deactivations.map((d) => ({ deactivated_at: d.deactivated_at, reason: d.reason, reactivated_at: d.reactivated_at })),
  };
}

/** The institutions they worked in, with their details as each keeps them and who read them there. */
function institutionsOf(staffEntries: StaffDoc[], institutionName: (id: string) => Promise<string | null>, shared: Sharing): Promise<PersonalDataExport['institutions']> {
  return Promise.all(
    staffEntries.map(async (s) => ({
      institution_id: s.institution_id,
      institution_name: await institutionName(s.institution_id),
      role: s.role,
      role_title: s.role_title,
      department: s.department,
      specialization: s.specialization,
      is_institution_admin: s.is_institution_admin,
      is_active: s.is_active,
      added_at: s.added_at,
      removed_at: s.removed_at,
      contact_details_on_record: { name: s.name, email: s.email, phone: s.phone },
      // Your contact details as this institution keeps them, and who read them there.
      shared_with: shared.contactReadsAt(s.institution_id),
    })),
  );
}

/** Their invitations, with what each institution wrote about them and who read it. */
function invitationsOf(invitations: InvitationDoc[], institutionName: (id: string) => Promise<string | null>, shared: Sharing): Promise<PersonalDataExport['invitations']> {
  return Promise.all(
    invitations.map(async (i) => ({
      invitation_id: i._id,
      institution_id: i.institution_id,
      institution_name: await institutionName(i.institution_id),
      role: i.role,
      status: i.status,
      invited_at: i.invited_at,
      answered_at: i.answered_at,
      // What the institution wrote about you when it invited you, as it holds it.
      details_on_record: {
        name: i.name,
        email: i.email,
        phone: i.phone ?? null,
        role_title: i.role_title,
        department: i.department ?? null,
        specialization: i.specialization ?? null,
      },
      // Who at the institution read them (its answer to the invitation, its console's list of pending ones).
      shared_with: shared.contactReadsAt(i.institution_id),
    })),
  );
}

/** Their clinical records, each with who read it through the record routes. */
function clinicalRecordsOf(records: Awaited<ReturnType<typeof recordsForExport>>, shared: Sharing): PersonalDataExport['clinical_records'] {
  return {
    reports: records.reports.map((r) => ({ ...r, shared_with: shared.sharedRecord(r.id, ['clinical_records', 'record_file']) })),
    prescriptions: records.prescriptions.map((p) => ({ ...p, shared_with: shared.sharedRecord(p.prescription_id, ['clinical_records', 'prescription']) })),
    prescription_files: records.prescription_files.map((p) => ({ ...p, shared_with: shared.sharedRecord(p.id, ['clinical_records', 'record_file']) })),
    consultation_notes: records.consultation_notes.map((n) => ({ ...n, shared_with: shared.sharedRecord(n.appointment_id, ['consultation_notes']) })),
  };
}

/**
 * Everything the product holds about the person `me` as one document (issue 12's right of access): profile, consents,
 * appointments with their history, slots, institutions, invitations, clinical records, consultations with their chat,
 * posts, and who saw each item. It reads only their own data.
 */
export async function personalDataExport(readStore: ReadStore, me: string, options: { clock: () => Date; publicUrl: string }): Promise<PersonalDataExport> {
  const user = await readStore.collection<UserDoc>('users').get(me);
  if (!user) throw notFound(API_TEXTS.userNotFound);
  const { doctor, consents, sessions, followed, asPatient, asDoctor, staffEntries, invitations, seen, readByMe, deactivations, offered, history } = await exportSources(readStore, me);
  const { entryViews, readsByYou } = accessViews(readStore);
  const log = await entryViews(seen);
  const institutions = readStore.collection<InstitutionDoc>('institutions');
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const institutionName = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
  const doctorName = memo(async (id: string) => (await doctors.get(id))?.name ?? null);
  const shared = sharingIndex(log);
  const records = await recordsForExport(readStore, me, options.publicUrl);
  // A consultation's readers: those who opened it (its state names the patient) and those who read its chat.
  const consultations = await consultationsOf(readStore, me, (id) => shared.sharedRecord(id, ['consultation', 'consultation_messages']));
  const blog_posts = await postsOf(readStore, me);
  const blog_images = await imagesOf(readStore, me);
  const appointmentView = appointmentViews(me, history, shared.sharedItem);
  return {
    format: 'telemed-personal-data-export/1',
    exported_at: options.clock().toISOString(),
    subject_user_id: me,
    profile: profileOf(me, user, doctor, deactivations, shared),
    consents: consents.map((c) => ({
      notice_version: c.notice_version,
      language: c.language,
      text_hash: c.text_hash,
      given_at: c.given_at,
      withdrawn_at: c.withdrawn_at,
    })),
    sessions: sessions.map((s) => ({ session_id: s._id, method: s.method, started_at: s.started_at, ended_at: s.ended_at, ended_reason: s.ended_reason })),
    doctors_followed: await Promise.all(followed.map(async (f) => ({ doctor_id: f.doctor_id, name: await doctorName(f.doctor_id), since: f.subscribed_at }))),
    appointments: [...asPatient.map((a) => appointmentView(a, 'patient')), ...asDoctor.map((a) => appointmentView(a, 'doctor'))],
    slots_booked: asPatient.map((a) => ({ slot_id: a.slot_id, appointment_id: a._id, start: a.start, end: a.end, doctor_id: a.doctor_id })),
    slots_offered: offered.map((s) => ({ slot_id: s.slot_id, start: s.start, end: s.end, status: s.status })),
    institutions: await institutionsOf(staffEntries, institutionName, shared),
    invitations: await invitationsOf(invitations, institutionName, shared),
    clinical_records: clinicalRecordsOf(records, shared),
    consultations,
    blog_posts,
    blog_images,
    messaging: await messagingOf(readStore, me),
    access_log: log,
    reads_by_you: await readsByYou(readByMe),
  };
}
