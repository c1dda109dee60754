import type { EventData, EventType } from './events';

/**
 * Which fields of which events are personal or health data, and whose key encrypts them: the rule is written once,
 * here. The handler encrypts these fields on append and decrypts them on load (deciders see plain values); the log
 * and the bus hold only ciphertext and the key's id. Add a field here when an event gains one.
 */
type FieldOf<T extends EventType> = keyof EventData<T> & string;

/** Whose key: the person named by a field of the event, or a party of the stream the event belongs to (the handler knows it). */
export type SubjectRef<T extends EventType = EventType> = { field: FieldOf<T> } | { party: 'patient' };

/**
 * Which of the person's keys: their personal key, which an erasure destroys at once, or the key of their clinical
 * records (a doctor's notes, prescriptions and prescription files), which an erasure keeps for the retention period
 * the law sets (the legal hold) and destroys when it ends. A rule may choose by the event's data.
 */
export type KeyScope = 'personal' | 'clinical';

export interface PersonalFieldRule<T extends EventType = EventType> {
  subject: SubjectRef<T>;
  fields: ReadonlyArray<FieldOf<T>>;
  scope?: KeyScope | ((data: EventData<T>) => KeyScope);
  /**
   * The fields among `fields` whose value is JSON (an object or a list, like a post's rich-text content), not a
   * string: sealed as their JSON text, read back as the value. Each names what it reads as once its key is destroyed,
   * of its own shape, so readers need no case for it (a string field reads as ERASED_VALUE).
   */
  json?: { [F in FieldOf<T>]?: EventData<T>[F] };
  /**
   * The fields among `fields` that read models keep sealed: free text that no query searches, sorts or filters by (a
   * visit's reason, a rejection's). Projections store the ciphertext as the log holds it, and the query side opens it
   * when it serves it (openSealedField), so a rebuild does not decrypt it and the read store holds no plain health text.
   */
  sealedInReadModels?: ReadonlyArray<FieldOf<T>>;
}

/** The key-store subject of a person's clinical records (see KeyScope). */
export const clinicalRecordsSubject = (userId: string) => `${userId}:clinical`;

export type PersonalFieldRegistry = { [T in EventType]?: ReadonlyArray<PersonalFieldRule<T>> };

export const PERSONAL_FIELDS: PersonalFieldRegistry = {
  UserRegistered: [{ subject: { field: 'user_id' }, fields: ['name', 'email', 'phone_number'] }],
  UserProfileUpdated: [{ subject: { field: 'user_id' }, fields: ['name', 'phone_number'] }],
  UserDeactivated: [{ subject: { field: 'user_id' }, fields: ['reason'] }],
  // Under the claim's own key (its random claim_id), owner included: see services/command/src/identity/email.ts. Claims
  // written before had no claim_id: their address is under the owner's key and their user_id in clear (read as is).
  EmailClaimed: [{ subject: { field: 'claim_id' }, fields: ['email', 'user_id'] }],
  PasswordSet: [{ subject: { field: 'user_id' }, fields: ['password_hash'] }],
  // Messages (issue 34): the doctor's name in a message to a patient says who their doctor is; the address it went to.
  MessageQueued: [{ subject: { field: 'recipient_id' }, fields: ['doctor_name'] }],
  MessageSent: [{ subject: { field: 'recipient_id' }, fields: ['to_masked'] }],
  PhoneNumberVerified: [{ subject: { field: 'user_id' }, fields: ['phone_number'] }],
  // Under the claim's own key, as an e-mail address's claim (services/command/src/identity/email.ts says why).
  PhoneClaimed: [{ subject: { field: 'claim_id' }, fields: ['phone_number', 'user_id'] }],
  // A doctor's registration number names them (the council's public register says whose it is): under their key, so
  // it goes with their erasure. The copy printed on a prescription is part of the patient's clinical record, under the
  // patient's clinical key (PrescriptionIssued): kept for the legal hold, and gone with the record when the hold ends.
  DoctorRegistered: [{ subject: { field: 'doctor_id' }, fields: ['registration_number'] }],
  DoctorProfileUpdated: [{ subject: { field: 'doctor_id' }, fields: ['registration_number'] }],
  // A member's title, department and specialization are what the institution wrote about them (a 'Psychiatry'
  // department, a 'Counsellor, HIV clinic' title): theirs, under their key like their name.
  InstitutionStaffAdded: [{ subject: { field: 'user_id' }, fields: ['name', 'email', 'phone', 'role_title', 'department', 'specialization'] }],
  InstitutionStaffInvited: [{ subject: { field: 'user_id' }, fields: ['name', 'email', 'phone', 'role_title', 'department', 'specialization'] }],
  AppointmentRequested: [{ subject: { field: 'patient_id' }, fields: ['notes'], sealedInReadModels: ['notes'] }],
  AppointmentRejected: [{ subject: { party: 'patient' }, fields: ['reason'], sealedInReadModels: ['reason'] }],
  AppointmentCancelled: [{ subject: { party: 'patient' }, fields: ['reason'], sealedInReadModels: ['reason'] }],
  // An operator's words about a patient's credits may say why (an illness, a dropped call): under the patient's key.
  CreditsAdjusted: [{ subject: { field: 'patient_id' }, fields: ['reason'] }],
  // Chat in a consultation is health data whoever wrote it: the patient's (the consultation stream's patient party).
  ConsultationMessagePosted: [{ subject: { party: 'patient' }, fields: ['text'], sealedInReadModels: ['text'] }],
  // Clinical records (issue 14): the patient's health data under the patient's key; the prescriber's name and
  // contact under the doctor's (their registration number and council are public).
  // A file's name says what it is ('hiv-test.pdf'): sealed in read models too. Its type and size are read back checked
  // by the projection (recordedFileType, recordedFileSize), so they stay opened.
  RecordFileStored: [
    {
      subject: { field: 'patient_id' },
      fields: ['file_name', 'content_type', 'size', 'sha256'],
      scope: (data) => (data.kind === 'prescription_file' ? 'clinical' : 'personal'),
      sealedInReadModels: ['file_name'],
    },
  ],
  MedicalReportUploaded: [
    {
      subject: { field: 'patient_id' },
      fields: ['report_type', 'report_date', 'medical_facility', 'doctor_name', 'report_summary', 'additional_notes'],
      // All of it: which test, when, where and by whom are health data as much as what it found.
      sealedInReadModels: ['report_type', 'report_date', 'medical_facility', 'doctor_name', 'report_summary', 'additional_notes'],
    },
  ],
  PrescriptionFileUploaded: [
    {
      subject: { field: 'patient_id' },
      fields: ['patient_name', 'patient_ref', 'medication_summary', 'additional_notes'],
      scope: 'clinical',
      sealedInReadModels: ['patient_name', 'patient_ref', 'medication_summary', 'additional_notes'],
    },
  ],
  ConsultationNotesSaved: [
    {
      subject: { field: 'patient_id' },
      fields: [
        'patient_name',
        'patient_ref',
        'chief_complaint',
        'clinical_assessment',
        'treatment_plan',
        'follow_up_instructions',
        'additional_notes',
        'priority_level',
        'follow_up_required',
        'template',
      ],
      scope: 'clinical',
      // The doctor's free text and whom it is about: read models keep them sealed (the notes route and the export open
      // them). The choices (priority, follow-up, template) are read back checked by the projection.
      sealedInReadModels: ['patient_name', 'patient_ref', 'chief_complaint', 'clinical_assessment', 'treatment_plan', 'follow_up_instructions', 'additional_notes'],
    },
  ],
  PrescriptionIssued: [
    {
      subject: { field: 'patient_id' },
      // The prescriber's registration number as printed names the doctor: kept with the record, never beyond it.
      fields: ['consultation_mode', 'consultation_kind', 'patient_name', 'patient_age', 'patient_gender', 'diagnosis', 'advice', 'follow_up', 'lines', 'doctor_registration_number'],
      scope: 'clinical',
      // The doctor's free text and whom it is about; the lines stay opened: projections index the medicines prescribed.
      sealedInReadModels: ['patient_name', 'patient_age', 'patient_gender', 'diagnosis', 'advice', 'follow_up'],
    },
    { subject: { field: 'doctor_id' }, fields: ['doctor_name', 'doctor_contact'] },
  ],
  // A post is the doctor's public writing while they are here, and theirs: what they wrote (drafts too), and the slug
  // made from its title, go with their erasure (a privacy review found them in clear in the log after it).
  BlogPostCreated: [{ subject: { field: 'author_id' }, fields: ['title', 'description', 'excerpt', 'tags', 'content'], json: { tags: [], content: { blocks: [] } } }],
  BlogPostUpdated: [{ subject: { field: 'author_id' }, fields: ['title', 'description', 'excerpt', 'tags', 'content'], json: { tags: [], content: { blocks: [] } } }],
  BlogPostPublished: [{ subject: { field: 'author_id' }, fields: ['slug'] }],
  // A picture's digest matches the picture (a portrait) to its uploader's account: under their key like the picture
  // itself, as a record file's digest is under the patient's. Its type and size say nothing of the person.
  BlogImageStored: [{ subject: { field: 'author_id' }, fields: ['sha256'] }],
};

/** What a field of an erased person reads as once their key is destroyed. */
export const ERASED_VALUE = '[erased]';

/**
 * For a personal field sealed as JSON (PersonalFieldRule.json), `{ erased }`: what it reads as once its key is
 * destroyed; undefined for a string field.
 */
export function jsonField(type: EventType, field: string): { erased: unknown } | undefined {
  for (const rule of personalFieldRules(type)) {
    const json = rule.json as Record<string, unknown> | undefined;
    if (json && Object.hasOwn(json, field)) return { erased: json[field] };
  }
  return undefined;
}

/** What a personal field reads as once its key is destroyed. */
export function erasedValueOf(type: EventType, field: string): unknown {
  const json = jsonField(type, field);
  // A fresh copy each time: a reader may change what it was given.
  return json ? structuredClone(json.erased) : ERASED_VALUE;
}

/** The text a personal field's value is sealed as: the string itself, or a JSON field's JSON text. */
export function sealedText(type: EventType, field: string, value: unknown): string {
  return jsonField(type, field) ? JSON.stringify(value) : (value as string);
}

/** A personal field's value from its opened text: the string itself, or a JSON field's value. */
export function openedValue(type: EventType, field: string, text: string): unknown {
  if (!jsonField(type, field)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Never the parser's message: it quotes the text, which is personal.
    throw new Error(`${type}.${field}: the opened value is not JSON`);
  }
}

/** Parties of the stream an event belongs to, for rules that name one (an appointment's patient). */
export type StreamParties = Partial<Record<'patient', string>>;

export interface PersonalFieldTarget {
  field: string;
  subject_id: string;
}

export function personalFieldRules(type: EventType): ReadonlyArray<PersonalFieldRule> {
  return (PERSONAL_FIELDS[type] ?? []) as ReadonlyArray<PersonalFieldRule>;
}

const NONE: ReadonlySet<string> = new Set();
const sealedInReadModelsByType = new Map<string, ReadonlySet<string>>(
  Object.entries(PERSONAL_FIELDS).map(([type, rules]) => [type, new Set((rules as ReadonlyArray<PersonalFieldRule>).flatMap((rule) => rule.sealedInReadModels ?? []))]),
);

/** The event's personal fields that read models keep sealed (PersonalFieldRule.sealedInReadModels). */
export function sealedInReadModels(type: string): ReadonlySet<string> {
  return sealedInReadModelsByType.get(type) ?? NONE;
}

/**
 * The personal fields an event's data holds (string values, and a JSON field's object or list; null and absent fields
 * hold nothing) and whose they are.
 */
export function personalFieldTargets(type: EventType, data: object, parties: StreamParties = {}): PersonalFieldTarget[] {
  const values = data as Record<string, unknown>;
  const targets: PersonalFieldTarget[] = [];
  for (const rule of personalFieldRules(type)) {
    const json = (rule.json ?? {}) as Record<string, unknown>;
    const present = rule.fields.filter((field) =>
      Object.hasOwn(json, field) ? values[field] !== null && typeof values[field] === 'object' : typeof values[field] === 'string',
    );
    if (present.length === 0) continue;
    const subject = 'field' in rule.subject ? values[rule.subject.field] : parties[rule.subject.party];
    if (typeof subject !== 'string' || subject === '') {
      const wanted = 'field' in rule.subject ? `its ${rule.subject.field}` : `the stream's ${rule.subject.party}`;
      throw new Error(`${type}: personal fields need ${wanted} to choose the key`);
    }
    // The registry holds each type's rules under their own event's data type; here that data is the event's.
    const scope = typeof rule.scope === 'function' ? (rule.scope as (d: object) => KeyScope)(data) : (rule.scope ?? 'personal');
    const subject_id = scope === 'clinical' ? clinicalRecordsSubject(subject) : subject;
    for (const field of present) targets.push({ field, subject_id });
  }
  return targets;
}
