import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { eventDataSchemas, type EventType } from './events';
import { PERSONAL_FIELDS, openedValue, personalFieldRules, personalFieldTargets, sealedInReadModels, type PersonalFieldRule } from './personal-fields';

/**
 * Every text field of an event that the registry does not encrypt, and why it is not personal or health data. A new
 * event, or a new field, must be placed on one side or the other: in PERSONAL_FIELDS, or here with its reason.
 * A field name stands for every event that has it; `Type.field` for one event only.
 */
const NOT_PERSONAL: Record<string, string> = {
  access_id: 'an id',
  accessor_id: 'an id',
  appointment_id: 'an id',
  follow_up_appointment_id: 'an id (the follow-up booked on an offer, issue 35)',
  'WaitlistJoined.from': 'a calendar day a patient waits for a time with a doctor (issue 35): booking terms, as a slot time',
  'WaitlistJoined.to': 'the last such day',
  author_id: 'an id',
  blob_id: 'an id',
  claimed_at: 'a time',
  claim_id: "a random id, the subject of the claim's own key: names no one",
  connection_id: 'an id',
  replaced_connection_id: 'an id',
  doctor_id: 'an id',
  ended_by: 'an id',
  file_id: 'an id',
  file_ids: 'ids',
  image_id: 'an id',
  import_id: 'an id',
  institution_id: 'an id',
  invitation_id: 'an id',
  message_id: 'an id',
  patient_id: 'an id',
  post_id: 'an id',
  prescription_id: 'an id',
  record_id: 'an id',
  report_id: 'an id',
  sender_id: 'an id',
  session_id: 'an id',
  staff_id: 'an id',
  user_id: 'an id',
  participant_identity: "the video provider's name for a participant: their user id",
  participant_sid: "the video provider's id of a session",
  provider_event_id: "the video provider's id of a webhook",
  event: "the video provider's kind of webhook",
  room: 'the consultation room, named by the appointment id',
  verification_code: "a prescription's random QR code, which shows only the doctor and the date",
  refresh_token_hash: 'a digest of a random token (no personal value to guess)',
  reader: 'a keyed digest of the reader (never the user or session)',
  route: "an API route's template, never its values",
  institution_role: "the reader's role in an institution",
  notice_version: 'the version of the public privacy notice',
  text_hash: 'the digest of the public privacy notice',
  timezone: "the doctor's time zone for a schedule",
  slug: "an institution's public address's name (a post's, made from its title, is the doctor's)",
  sha256: "the digest of a blog picture or of the medicine catalogue (a patient's file digest is personal)",
  'BlogImageStored.content_type': "a blog picture's image type",
  specialty: "a doctor's public professional profile",
  qualification: "a doctor's public professional profile",
  medical_council: "a doctor's public registration",
  city: "the city a doctor practises in, shown on their public page like their specialty",
  doctor_qualification: "the prescriber's public professional profile, as printed",
  doctor_medical_council: "the prescriber's public registration, as printed",
  // An institution is an organisation, not a person: its desk's name, address, phone and e-mail are public.
  'InstitutionCreated.name': "an institution's name",
  'InstitutionCreated.address': "an institution's address",
  'InstitutionCreated.phone': "an institution's desk phone",
  'InstitutionCreated.email': "an institution's desk e-mail",
  'InstitutionUpdated.name': "an institution's name",
  'InstitutionUpdated.address': "an institution's address",
  'InstitutionUpdated.phone': "an institution's desk phone",
  'InstitutionUpdated.email': "an institution's desk e-mail",
  hours_of_operation: "an institution's opening hours",
  role_permissions: "an institution's permissions per role",
  // What a doctor wrote in a post (title, description, excerpt, tags, content) and its slug are theirs (PERSONAL_FIELDS).
  image_url: "a post's cover picture: a link to a blog picture (its bytes are under the doctor's key)",
  // Messages (issue 34): ids and what a provider answered; the address and the doctor's name are personal.
  recipient_id: 'an id',
  code_id: 'a random id',
  'CreditsBought.order_id': "the gateway's id of an order",
  'CreditsBought.payment_id': "the gateway's id of a payment (no card or UPI detail)",
  'CreditsBought.gateway': 'the name of a payment gateway',
  'PackOrdered.order_id': "the gateway's id of an order",
  'PackOrdered.gateway': 'the name of a payment gateway',
  'PackPaymentFailed.order_id': "the gateway's id of an order",
  'PackPaymentFailed.payment_id': "the gateway's id of a payment (no card or UPI detail)",
  'PackPaymentFailed.error_code': "the gateway's code for why a payment failed (BAD_REQUEST_ERROR), not its description",
  'PackRefunded.order_id': "the gateway's id of an order",
  'PackRefunded.payment_id': "the gateway's id of a payment",
  'PackRefunded.refund_id': "the gateway's id of a refund",
  adjusted_by: 'an id',
  'MessageQueued.idempotency_key': 'an appointment id, a kind and an offset (or a random code id)',
  provider_message_id: "the provider's id of a send",
  'MessageFailed.error': "a provider's refusal, its addresses and numbers scrubbed by the adapters (provider-http withoutAddresses)",
  'MessagingPreferencesSet.time_zone': 'an IANA zone chosen for quiet hours (a region of millions, no more)',
  code_hash: 'a keyed digest of a code and its number: tests nothing without the key store',
  challenge_hash: 'a keyed digest of a random challenge',
  'PhoneSignInCodeIssued.address': "a keyed digest of the asking client's address",
  'PhoneSignInCodeTried.address': "a keyed digest of the trying client's address",
};

/** The event's fields that take text (a string, or a list of them). */
function textFields(schema: z.ZodType): string[] {
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.keys(shape).filter((field) => shape[field]!.safeParse('x').success || shape[field]!.safeParse(['x']).success);
}

describe('personal-field registry', () => {
  it('places every text field of every event: encrypted as personal, or named as not personal with why', () => {
    const unplaced: string[] = [];
    for (const [type, schema] of Object.entries(eventDataSchemas) as Array<[EventType, z.ZodType]>) {
      const personal = new Set<string>(personalFieldRules(type).flatMap((r) => r.fields));
      for (const field of textFields(schema)) {
        if (!personal.has(field) && !NOT_PERSONAL[`${type}.${field}`] && !NOT_PERSONAL[field]) unplaced.push(`${type}.${field}`);
      }
    }
    assert.deepEqual(unplaced, [], 'each is personal (PERSONAL_FIELDS) or named in NOT_PERSONAL with why');
  });

  it('names only fields the events have, each a string (so a ciphertext fits the schema), and subjects that are ids', () => {
    for (const [type, rules] of Object.entries(PERSONAL_FIELDS) as Array<[EventType, ReturnType<typeof personalFieldRules>]>) {
      const shape = (eventDataSchemas[type] as z.ZodObject).shape as Record<string, z.ZodType>;
      for (const rule of rules) {
        const json = (rule.json ?? {}) as Record<string, unknown>;
        for (const field of rule.fields) {
          assert.ok(shape[field], `${type}.${field} exists`);
          // A JSON field is read back as its value: what it reads as once erased must fit its schema too.
          if (Object.hasOwn(json, field)) assert.ok(shape[field].safeParse(json[field]).success, `${type}.${field}'s erased value fits`);
          else assert.ok(shape[field].safeParse('enc1.dk-x.AAAAAAAAAAAAAAAA..AAAAAAAAAAAAAAAAAAAAAA').success, `${type}.${field} takes a string`);
        }
        for (const field of Object.keys(json)) assert.ok((rule.fields as readonly string[]).includes(field), `${type}.${field}: a JSON field is one of the rule's fields`);
        if ('field' in rule.subject) assert.ok(shape[rule.subject.field], `${type}.${rule.subject.field} exists`);
      }
    }
  });

  it('keeps sealed in read models only personal text fields of the event, never a JSON one', () => {
    const kept: string[] = [];
    for (const [type, rules] of Object.entries(PERSONAL_FIELDS)) {
      for (const rule of rules as ReadonlyArray<PersonalFieldRule>) {
        for (const field of rule.sealedInReadModels ?? []) {
          assert.ok(rule.fields.includes(field), `${type}.${field} is one of the rule's fields`);
          assert.ok(!Object.hasOwn(rule.json ?? {}, field), `${type}.${field} is text`);
          assert.ok(sealedInReadModels(type).has(field));
          kept.push(`${type}.${field}`);
        }
      }
    }
    assert.deepEqual(kept.sort(), [
      'AppointmentCancelled.reason',
      'AppointmentRejected.reason',
      'AppointmentRequested.notes',
      'ConsultationMessagePosted.text',
      'ConsultationNotesSaved.additional_notes',
      'ConsultationNotesSaved.chief_complaint',
      'ConsultationNotesSaved.clinical_assessment',
      'ConsultationNotesSaved.follow_up_instructions',
      'ConsultationNotesSaved.patient_name',
      'ConsultationNotesSaved.patient_ref',
      'ConsultationNotesSaved.treatment_plan',
      'MedicalReportUploaded.additional_notes',
      'MedicalReportUploaded.doctor_name',
      'MedicalReportUploaded.medical_facility',
      'MedicalReportUploaded.report_date',
      'MedicalReportUploaded.report_summary',
      'MedicalReportUploaded.report_type',
      'PrescriptionFileUploaded.additional_notes',
      'PrescriptionFileUploaded.medication_summary',
      'PrescriptionFileUploaded.patient_name',
      'PrescriptionFileUploaded.patient_ref',
      'PrescriptionIssued.advice',
      'PrescriptionIssued.diagnosis',
      'PrescriptionIssued.follow_up',
      'PrescriptionIssued.patient_age',
      'PrescriptionIssued.patient_gender',
      'PrescriptionIssued.patient_name',
      'RecordFileStored.file_name',
    ]);
    assert.equal(sealedInReadModels('UserRegistered').size, 0, 'a name is searched: opened for projections');
  });

  it('covers the personal and health fields the issue names', () => {
    const fields = (type: EventType) => personalFieldRules(type).flatMap((r) => r.fields);
    assert.deepEqual(fields('UserRegistered'), ['name', 'email', 'phone_number']);
    assert.deepEqual(fields('AppointmentRequested'), ['notes']);
    assert.deepEqual(fields('AppointmentRejected'), ['reason']);
    assert.deepEqual(fields('RecordFileStored'), ['file_name', 'content_type', 'size', 'sha256'], "a stored file's name, type, size and digest");
    for (const field of ['consultation_mode', 'consultation_kind']) assert.ok((fields('PrescriptionIssued') as readonly string[]).includes(field), `a prescription's ${field} (a first visit or a follow-up)`);
    assert.deepEqual(fields('SlotOpened'), []);
  });

  it('says whose key each present field needs', () => {
    assert.deepEqual(personalFieldTargets('UserRegistered', { user_id: 'u1', name: 'A', email: null, phone_number: 'p', account_type: 'patient' }), [
      { field: 'name', subject_id: 'u1' },
      { field: 'phone_number', subject_id: 'u1' },
    ]);
    assert.deepEqual(personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: null }), [], 'no reason, no key needed');
    assert.deepEqual(personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: 'r' }, { patient: 'p1' }), [{ field: 'reason', subject_id: 'p1' }]);
    assert.throws(() => personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: 'r' }), /the stream's patient/);
    assert.deepEqual(
      personalFieldTargets('BlogPostCreated', { post_id: 'p', author_id: 'd1', title: 'T', description: null, excerpt: null, tags: ['x'], content: { blocks: [] } }),
      ['title', 'tags', 'content'].map((field) => ({ field, subject_id: 'd1' })),
      "a post's text, its tags and content (JSON) under its author's key",
    );
    assert.deepEqual(openedValue('BlogPostCreated', 'tags', '["a"]'), ['a']);
    assert.throws(() => openedValue('BlogPostCreated', 'content', 'Secret words'), (e: Error) => !e.message.includes('Secret'), 'a JSON field that does not parse: an error that quotes none of it');
  });
});
