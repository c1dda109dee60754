import {
  ACCESS_PURPOSE_LABELS,
  ACCESS_RESOURCE_LABELS,
  API_TEXTS,
  accessLogQuerySchema,
  accessLogResponseSchema,
  displayFileName,
  recordFileName,
  notFound,
  personalDataExportSchema,
  z,
  type AccessLogEntry,
  type PersonalDataExport,
} from '@telemed/contracts';
import { BlobErasedError, BlobNotFoundError, HttpError, StreamedBody, policies, type ApiRouter, type BlobStore, type ReadStore } from '@telemed/platform';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type {
  AccessLogDoc,
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
import { ACCESS_LOG } from './access-log';
import { ACCOUNT_DEACTIVATIONS, type DeactivationDoc } from '../users/account-standing';
import { recordsForExport } from '../records/routes';
import { appointmentPeople } from '../appointments/people';
import { RECORD_FILES, type RecordFileDoc } from '../records/projection';
import { CONSULTATIONS, CONSULTATION_MESSAGES, type ConsultationDoc, type ConsultationMessageDoc } from '../consultations/projection';
import { BLOG_CONTENTS, BLOG_IMAGES, BLOG_POSTS, type BlogContentDoc, type BlogImageDoc, type BlogPostDoc } from '../blogs/projection';

/** A file name's extension for a picture's type (the archive's reader opens it by name). */
function imageExtension(contentType: string): string {
  return ({ 'image/jpeg': '.jpg', 'image/png': '.png', 'image/gif': '.gif', 'image/webp': '.webp' } as Record<string, string>)[contentType] ?? '';
}

/** Looks each id up once per request. */
function memo<T>(load: (id: string) => Promise<T>): (id: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (id) => {
    let found = seen.get(id);
    if (!found) seen.set(id, (found = load(id)));
    return found;
  };
}

/**
 * The person's rights of access (issue 12): who saw my data (the access log, from the audit events), and everything
 * the product holds about me as one JSON document. Both read only the caller's own data, so neither is audited.
 */
export function privacyQueryRoutes(
  api: ApiRouter,
  deps: { readStore: ReadStore; clock: () => Date; /** For the prescriptions' verification links. */ publicUrl?: string; /** The record files, for the zip export. */ blobs?: BlobStore },
): void {
  const { readStore } = deps;
  const users = readStore.collection<UserDoc>('users');
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const accessLog = readStore.collection<AccessLogDoc>(ACCESS_LOG);
  const withCurrentPeople = appointmentPeople(readStore);
  const institutions = readStore.collection<InstitutionDoc>('institutions');

  /** The log's entries as the person reads them: who by name and role, what, when and why. */
  const entryViews = async (docs: AccessLogDoc[]): Promise<AccessLogEntry[]> => {
    const nameOf = memo(async (id: string) => (await users.get(id))?.name ?? null);
    const institutionOf = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
    return Promise.all(
      docs.map(async (doc) => ({
        id: doc._id,
        who: { user_id: doc.accessor_id, name: await nameOf(doc.accessor_id), role: doc.accessor_role, institution_role: doc.institution_role },
        institution: doc.institution_id ? { id: doc.institution_id, name: await institutionOf(doc.institution_id) } : null,
        what: { resource: doc.resource, description: ACCESS_RESOURCE_LABELS[doc.resource], route: doc.route, items: doc.items },
        when: doc.occurred_at,
        why: doc.purpose,
        why_label: ACCESS_PURPOSE_LABELS[doc.purpose],
      })),
    );
  };

  /**
   * The person's own reads of others' data (the audit's accessor side), as the export gives them: whose, what kind and
   * which items, through which institution, when and why. Whose is a label of this export's (`person-1` for the first
   * person you read, and so on, numbered by your first read of each, so a later export keeps them), not their account
   * id: an export holds nothing of another person (a doctor's holds their appointments without the patients' ids),
   * and which reads were of the same person is what the person did. The items are the ids the audit recorded (an
   * appointment of yours, a record, `contact_details`).
   */
  const readsByYou = async (docs: AccessLogDoc[]): Promise<PersonalDataExport['reads_by_you']> => {
    const institutionOf = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
    const labels = new Map<string, string>();
    for (const doc of [...docs].sort((a, b) => a.position - b.position)) {
      if (!labels.has(doc.subject_id)) labels.set(doc.subject_id, `person-${labels.size + 1}`);
    }
    return Promise.all(
      docs.map(async (doc) => ({
        id: `${doc.access_id}:${labels.get(doc.subject_id)!}`,
        whose: labels.get(doc.subject_id)!,
        as: { role: doc.accessor_role, institution_role: doc.institution_role },
        institution: doc.institution_id ? { id: doc.institution_id, name: await institutionOf(doc.institution_id) } : null,
        what: { resource: doc.resource, description: ACCESS_RESOURCE_LABELS[doc.resource], route: doc.route, items: doc.items },
        when: doc.occurred_at,
        why: doc.purpose,
        why_label: ACCESS_PURPOSE_LABELS[doc.purpose],
      })),
    );
  };

  /**
   * `?format=zip`: the same JSON as `export.json`, and each file of the person's records under
   * `files/{file_id}/{name}` (decrypted, as the download route gives it). Every blob is opened before the first byte
   * is sent, so a missing one is listed in `files/missing.txt` instead of breaking the archive half-way.
   */
  async function exportZip(me: string, body: PersonalDataExport): Promise<StreamedBody> {
    if (!deps.blobs) throw new HttpError(503, 'The record files cannot be read by this service');
    const blobs = deps.blobs;
    const docs = await readStore.collection<RecordFileDoc>(RECORD_FILES).find({ patient_id: me });
    const images = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).find({ author_id: me });
    // Each file with its path in the archive and how it is named in files/missing.txt if it cannot be read.
    const wanted = [
      ...docs.map((doc) => ({ blob_id: doc.blob_id, path: `files/${doc.file_id}/${recordFileName(doc.file_name, doc.content_type).replace(/[\\/:*?<>|]/g, '_')}`, label: `${doc.file_id} ${displayFileName(doc.file_name)}` })),
      ...images.map((image) => ({ blob_id: image.blob_id, path: `files/blog-images/${image._id}${imageExtension(image.content_type)}`, label: `blog image ${image._id}` })),
    ];
    const opened: Array<{ path: string; stream: Readable }> = [];
    const missing: string[] = [];
    for (const file of wanted) {
      try {
        opened.push({ path: file.path, stream: (await blobs.open(file.blob_id)) as Readable });
      } catch (error) {
        if (!(error instanceof BlobNotFoundError || error instanceof BlobErasedError)) throw error;
        missing.push(`${file.label}: ${error instanceof BlobErasedError ? 'erased' : 'not found'}`);
      }
    }
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(body, null, 2) + '\n'), 'export.json');
    for (const { path, stream } of opened) zip.addReadStream(stream, path);
    if (missing.length) zip.addBuffer(Buffer.from(missing.join('\n') + '\n'), 'files/missing.txt');
    zip.end();
    return new StreamedBody(zip.outputStream, 'application/zip');
  }

  api.route({
    method: 'get',
    path: '/users/me/access-log',
    summary: 'Who saw my data: every read of it by someone else (doctor, institution staff, operator), newest first, with why',
    tags: ['privacy'],
    policy: policies.anyUser,
    query: accessLogQuerySchema,
    response: accessLogResponseSchema,
    handler: async ({ auth, query }) => {
      const filter: Record<string, unknown> = { subject_id: auth.user_id };
      if (query.cursor !== undefined) filter.position = { $lt: Number(query.cursor) };
      // One more than the page tells whether another page follows.
      const docs = await accessLog.find(filter, { sort: { position: -1 }, limit: query.limit + 1 });
      const page = docs.slice(0, query.limit);
      const next_cursor = docs.length > query.limit ? String(page[page.length - 1]!.position) : null;
      return { body: { entries: await entryViews(page), next_cursor } };
    },
  });

  /**
   * The person's consultations: as the patient with the whole chat (their health data, whoever wrote it), as the
   * doctor the facts only (the chat is the patient's).
   */
  async function consultationsOf(me: string, sharedWith: (appointmentId: string) => PersonalDataExport['consultations'][number]['shared_with']) {
    const consultations = readStore.collection<ConsultationDoc>(CONSULTATIONS);
    const messages = readStore.collection<ConsultationMessageDoc>(CONSULTATION_MESSAGES);
    const [asPatient, asDoctor] = await Promise.all([consultations.find({ patient_id: me }), consultations.find({ doctor_id: me })]);
    const mine = [...asPatient, ...asDoctor.filter((c) => c.patient_id !== me)].sort((a, b) => a.started_at.localeCompare(b.started_at) || a._id.localeCompare(b._id));
    return Promise.all(
      mine.map(async (c): Promise<PersonalDataExport['consultations'][number]> => {
        const as = c.patient_id === me ? ('patient' as const) : ('doctor' as const);
        const chat = as === 'patient' ? await messages.find({ appointment_id: c.appointment_id }, { sort: { position: 1 } }) : [];
        return {
          appointment_id: c.appointment_id,
          as,
          status: c.status,
          started_at: c.started_at,
          ends_at: c.ends_at,
          ended_at: c.ended_at,
          auto_ended: c.auto_ended,
          messages: chat.map((m) => ({ message_id: m.message_id, from: m.sender_id === me ? ('you' as const) : m.sender_id === c.doctor_id ? ('doctor' as const) : ('patient' as const), text: m.text, sent_at: m.sent_at })),
          shared_with: as === 'patient' ? sharedWith(c.appointment_id) : [],
        };
      }),
    );
  }

  /** The person's own posts as a doctor, whatever their status, with their text. */
  async function postsOf(me: string): Promise<PersonalDataExport['blog_posts']> {
    const posts = await readStore.collection<BlogPostDoc>(BLOG_POSTS).find({ author_id: me }, { sort: { created_at: 1, _id: 1 } });
    const contents = readStore.collection<BlogContentDoc>(BLOG_CONTENTS);
    return Promise.all(
      posts.map(async (p) => ({
        post_id: p._id,
        title: p.title,
        description: p.description,
        excerpt: p.excerpt,
        category: p.category,
        tags: p.tags,
        status: p.status,
        slug: p.slug,
        created_at: p.created_at,
        updated_at: p.updated_at,
        published_at: p.published_at,
        views: p.views,
        content: (await contents.get(p._id))?.content ?? null,
      })),
    );
  }

  /** The person's uploaded blog pictures as a doctor: metadata, and where to get a fresh address for the file. */
  async function imagesOf(me: string): Promise<PersonalDataExport['blog_images']> {
    const images = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).find({ author_id: me }, { sort: { _id: 1 } });
    return images.map((i) => ({ image_id: i._id, content_type: i.content_type, size: i.size, published_in: i.published_in, grant_url: `/api/v1/blogs/images/${i._id}/grant` }));
  }

  api.route({
    method: 'get',
    path: '/users/me/export',
    summary:
      'Everything the product holds about me, as one JSON document (a download): profile, consents, appointments with their history, slots, institutions, invitations, clinical records, consultations with their chat, posts, and who saw each item',
    tags: ['privacy'],
    policy: policies.anyUser,
    query: z.object({ format: z.enum(['json', 'zip']).default('json') }),
    response: personalDataExportSchema,
    errors: [404, 503],
    handler: async ({ auth, query }): Promise<{ body: PersonalDataExport | StreamedBody; headers: Record<string, string> }> => {
      const me = auth.user_id;
      const user = await users.get(me);
      if (!user) throw notFound(API_TEXTS.userNotFound);
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
      const log = await entryViews(seen);
      const institutionName = memo(async (id: string) => (await institutions.get(id))?.name ?? null);
      const doctorName = memo(async (id: string) => (await doctors.get(id))?.name ?? null);

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
      const records = await recordsForExport(readStore, me, deps.publicUrl ?? '');
      // A consultation's readers: those who opened it (its state names the patient) and those who read its chat.
      const consultations = await consultationsOf(me, (id) => sharedRecord(id, ['consultation', 'consultation_messages']));
      const blog_posts = await postsOf(me);
      const blog_images = await imagesOf(me);
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

      const body: PersonalDataExport = {
        format: 'telemed-personal-data-export/1',
        exported_at: deps.clock().toISOString(),
        subject_user_id: me,
        profile: {
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
              }
            : null,
          shared_with: contactReads.map(sharing),
          deactivations: deactivations.map((d) => ({ deactivated_at: d.deactivated_at, reason: d.reason, reactivated_at: d.reactivated_at })),
        },
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
        institutions: await Promise.all(
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
            shared_with: contactReadsAt(s.institution_id),
          })),
        ),
        invitations: await Promise.all(
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
            shared_with: contactReadsAt(i.institution_id),
          })),
        ),
        clinical_records: {
          reports: records.reports.map((r) => ({ ...r, shared_with: sharedRecord(r.id, ['clinical_records', 'record_file']) })),
          prescriptions: records.prescriptions.map((p) => ({ ...p, shared_with: sharedRecord(p.prescription_id, ['clinical_records', 'prescription']) })),
          prescription_files: records.prescription_files.map((p) => ({ ...p, shared_with: sharedRecord(p.id, ['clinical_records', 'record_file']) })),
          consultation_notes: records.consultation_notes.map((n) => ({ ...n, shared_with: sharedRecord(n.appointment_id, ['consultation_notes']) })),
        },
        consultations,
        blog_posts,
        blog_images,
        access_log: log,
        reads_by_you: await readsByYou(readByMe),
      };
      const day = deps.clock().toISOString().slice(0, 10);
      if (query.format === 'zip') return { body: await exportZip(me, body), headers: { 'Content-Disposition': `attachment; filename="telemed-my-data-${day}.zip"`, 'Cache-Control': 'no-store' } };
      return {
        body,
        headers: {
          'Content-Disposition': `attachment; filename="telemed-my-data-${day}.json"`,
          'Cache-Control': 'no-store',
        },
      };
    },
  });
}
