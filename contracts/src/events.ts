import { z } from 'zod';
import { PERMISSIONS, STAFF_ROLES } from './institutions';
import { CONSENT_LANGUAGES } from './consent-notice';
import { LANGUAGE_CODES } from './languages';
import { ACCESS_PURPOSES, ACCESS_RESOURCES } from './privacy';
import { consultationNotesEventFields } from './records';
import { BLOG_CATEGORY_IDS, blogContentSchema } from './blog';
import { MESSAGE_CANCEL_REASONS, MESSAGE_CHANNELS, MESSAGE_KINDS, messageChannelsSchema } from './messaging';
import { bookingRuleFields, noShowPolicyFields } from './booking-rules-api';
import { FEE_CHARGE_REASONS, FEE_RETURN_REASONS } from './wallet';

/** Every fact the write side records. Past-tense names; never rename a stored type: add a new version. */

const userId = z.string().min(1).max(64);
const instant = z.iso.datetime({ offset: false });
export const accountTypeSchema = z.enum(['patient', 'doctor', 'admin']);
export type AccountType = z.infer<typeof accountTypeSchema>;

export const actorSchema = z.object({
  user_id: z.string(),
  role: z.enum(['patient', 'doctor', 'admin', 'system']),
});
export type Actor = z.infer<typeof actorSchema>;

export const eventMetadataSchema = z.object({
  actor: actorSchema,
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  occurred_at: instant,
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/** The practitioner's profile; name, email and phone belong to the user. */
export const doctorProfileFields = {
  specialty: z.string(),
  qualification: z.string(),
  consultation_fee: z.number().nonnegative(),
  appointment_duration_minutes: z.number().int().positive(),
  registration_number: z.string().nullable(),
  medical_council: z.string().nullable(),
  /** Where the doctor practises, shown on their public page (issue 31): absent from events written before it (null). */
  city: z.string().nullable().optional(),
  /** The languages the doctor consults in (issue 33), in the product's order: absent from events written before it. */
  languages: z.array(z.enum(LANGUAGE_CODES)).optional(),
};
export type DoctorProfile = z.infer<z.ZodObject<typeof doctorProfileFields>>;

/** A blog post's fields as saved (issue 16). */
const blogPostFields = {
  title: z.string(),
  description: z.string().nullable(),
  excerpt: z.string().nullable(),
  category: z.enum(BLOG_CATEGORY_IDS),
  tags: z.array(z.string()),
  image_url: z.string().nullable(),
  date: z.iso.date(),
  content: blogContentSchema,
};

/** A staff member as the institution records them, on joining or on being invited. */
const staffMemberFields = {
  staff_id: z.string(),
  user_id: userId,
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(STAFF_ROLES),
  role_title: z.string().nullable(),
  department: z.string().nullable(),
  specialization: z.string().nullable(),
  is_institution_admin: z.boolean(),
};

export const eventDataSchemas = {
  UserRegistered: z.object({
    user_id: userId,
    email: z.string().nullable(),
    name: z.string(),
    account_type: accountTypeSchema,
    phone_number: z.string().nullable(),
  }),
  UserProfileUpdated: z.object({
    user_id: userId,
    name: z.string().optional(),
    phone_number: z.string().nullable().optional(),
  }),
  /** The language the person chose for their screens and messages (issue 33): kept on the account, so it follows them. */
  UserLanguageChosen: z.object({ user_id: userId, language: z.enum(LANGUAGE_CODES) }),
  PatientSubscribedToDoctor: z.object({ patient_id: userId, doctor_id: userId }),
  UserDeactivated: z.object({ user_id: userId, reason: z.string() }),
  /** A platform admin reopened a deactivated account (issue 15); what its closing cancelled stays cancelled. */
  UserReactivated: z.object({ user_id: userId }),
  /**
   * An argon2id hash (never the password); a change appends a new one. In the log it is ciphertext under the user's key
   * (erasure leaves no offline guessing target), hence a plain string here; the user decider takes only argon2 hashes.
   */
  PasswordSet: z.object({ user_id: userId, password_hash: z.string() }),

  /** The patient agreed to this version of the privacy notice, in this language (the hash of the very text they read). */
  ConsentGiven: z.object({ user_id: userId, notice_version: z.string(), language: z.enum(CONSENT_LANGUAGES), text_hash: z.string() }),
  /** The patient withdrew their consent to this version of the notice: no new bookings until they agree again. */
  ConsentWithdrawn: z.object({ user_id: userId, notice_version: z.string(), text_hash: z.string() }),

  /**
   * Someone read other people's personal or health data through the API (one event per request, before the answer
   * is sent). Who is the accessor (also the metadata's actor), what is the route and each subject's items shown, when
   * is the metadata's occurred_at, why is the purpose. Holds ids only, no personal field.
   */
  PersonalDataAccessed: z.object({
    access_id: z.string(),
    accessor_id: userId,
    accessor_role: accountTypeSchema,
    /** The institution they read through and their role there (both null when not through one). */
    institution_id: z.string().nullable(),
    institution_role: z.string().nullable(),
    purpose: z.enum(ACCESS_PURPOSES),
    resource: z.enum(ACCESS_RESOURCES),
    /** The route's template (`GET /api/v1/appointments/:id/history`), never its values. */
    route: z.string(),
    subjects: z.array(z.object({ user_id: userId, items: z.array(z.string()) })).min(1),
  }),

  /**
   * The person's personal data was erased (right to erasure): their data key is destroyed right after, so every
   * personal field of theirs in the log reads as erased, and projections blank what they hold. `kept` is what a law
   * requires to be kept and why (the legal hold), as answered to the request. Holds no personal field.
   */
  PersonalDataErased: z.object({
    user_id: userId,
    requested_by: z.enum(['self', 'platform_admin']),
    kept: z.array(z.object({ what: z.string(), why: z.string() })),
    /** When the key of their clinical records (kept under the legal hold) is to be destroyed; absent before it existed. */
    clinical_records_retained_until: instant.optional(),
  }),
  /** The retention period of an erased person's clinical records ended: their key was destroyed. */
  ClinicalRecordsDestroyed: z.object({ user_id: userId }),

  /** One stream per e-mail address keeps addresses unique across accounts. */
  /** `claimed_at`: since then a registration is writing its account (claims before it was recorded have none). */
  /**
   * `claim_id`: random, the subject of the claim's own data key, which seals `email` and `user_id` and which the
   * owner's erasure destroys (claims written before it have none: their `user_id` is in clear).
   */
  EmailClaimed: z.object({ claim_id: z.string().min(1).max(64).optional(), email: z.string(), user_id: userId, claimed_at: z.string().optional() }),

  SessionStarted: z.object({
    session_id: z.string(),
    user_id: userId,
    method: z.enum(['google', 'password', 'operator', 'phone']),
    refresh_token_hash: z.string(),
    expires_at: instant,
  }),
  SessionRefreshed: z.object({ session_id: z.string(), refresh_token_hash: z.string(), expires_at: instant }),
  SessionEnded: z.object({ session_id: z.string(), user_id: userId, reason: z.enum(['logout', 'refresh_token_reused', 'expired']) }),

  DoctorNumberAssigned: z.object({ doctor_id: userId, doctor_number: z.number().int().positive() }),
  DoctorRegistered: z.object({ doctor_id: userId, doctor_number: z.number().int().positive(), ...doctorProfileFields }),
  DoctorProfileUpdated: z.object({
    doctor_id: userId,
    ...z.object(doctorProfileFields).partial().shape,
  }),
  /**
   * The doctor's own cancellation and reschedule rules (issue 35), in place of their clinics' defaults: every rule as it
   * now stands. `auto_accept_moves`: a confirmed appointment the patient moves stays confirmed.
   */
  DoctorBookingRulesSet: z.object({ doctor_id: userId, ...bookingRuleFields, auto_accept_moves: z.boolean() }),
  /** The doctor gave up their own rules: their clinics' defaults (else the product's) apply again. */
  DoctorBookingRulesCleared: z.object({ doctor_id: userId }),

  InstitutionSlugClaimed: z.object({ slug: z.string(), institution_id: z.string() }),
  InstitutionCreated: z.object({
    institution_id: z.string(),
    name: z.string(),
    slug: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    hours_of_operation: z.record(z.string(), z.string().nullable()),
    role_permissions: z.record(z.string(), z.array(z.enum(PERMISSIONS))),
  }),
  InstitutionStaffAdded: z.object({ institution_id: z.string(), ...staffMemberFields }),
  InstitutionStaffRemoved: z.object({ institution_id: z.string(), staff_id: z.string(), user_id: userId }),
  InstitutionDisbanded: z.object({ institution_id: z.string() }),
  /** The institution's details changed (the console's edit, issue 15): only the fields that changed. */
  InstitutionUpdated: z.object({
    institution_id: z.string(),
    name: z.string().optional(),
    address: z.string().optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
    hours_of_operation: z.record(z.string(), z.string().nullable()).optional(),
    role_permissions: z.record(z.string(), z.array(z.enum(PERMISSIONS))).optional(),
  }),
  /** The clinic's default cancellation and reschedule rules (issue 35) for its doctors who set none of their own. */
  /** A clinic's default booking rules (issue 35); its no-show policy since it has one (absent or a limit of 0: off). */
  InstitutionBookingRulesSet: z.object({
    institution_id: z.string(),
    ...bookingRuleFields,
    no_show_limit: noShowPolicyFields.no_show_limit.optional(),
    no_show_block_months: noShowPolicyFields.no_show_block_months.optional(),
  }),
  /**
   * An account that already existed is asked to join: it has a history of its own (patients, notes), so it joins
   * only when its owner accepts (InstitutionInvitationAccepted, then InstitutionStaffAdded with the same staff_id).
   */
  InstitutionStaffInvited: z.object({ institution_id: z.string(), invitation_id: z.string(), ...staffMemberFields }),
  InstitutionInvitationAccepted: z.object({ institution_id: z.string(), invitation_id: z.string(), user_id: userId }),
  InstitutionInvitationDeclined: z.object({ institution_id: z.string(), invitation_id: z.string(), user_id: userId }),
  /** The institution withdrew a pending invitation, or disbanded while it was pending. */
  InstitutionInvitationRevoked: z.object({
    institution_id: z.string(),
    invitation_id: z.string(),
    user_id: userId,
    reason: z.enum(['withdrawn', 'disbanded']),
  }),
  /**
   * A doctor of the institution stops practising through it (issue 15): still on its staff, shown as inactive, with
   * no rights in the institution until activated again (InstitutionDoctorActivated).
   */
  InstitutionDoctorDeactivated: z.object({ institution_id: z.string(), staff_id: z.string(), user_id: userId }),
  InstitutionDoctorActivated: z.object({ institution_id: z.string(), staff_id: z.string(), user_id: userId }),
  /** A staff member's role changed (the console's staff edit, issue 15); the admin flag follows the role (ADMIN). */
  InstitutionStaffRoleChanged: z.object({
    institution_id: z.string(),
    staff_id: z.string(),
    user_id: userId,
    role: z.enum(STAFF_ROLES),
    previous_role: z.enum(STAFF_ROLES),
    is_institution_admin: z.boolean(),
  }),

  AvailabilitySet: z.object({
    doctor_id: userId,
    timezone: z.string(),
    opened: z.array(z.number().int()),
    withdrawn: z.array(z.number().int()),
  }),

  SlotOpened: z.object({ slot_id: z.number().int(), doctor_id: userId, start: instant, end: instant }),
  SlotWithdrawn: z.object({ slot_id: z.number().int(), doctor_id: userId }),
  SlotReserved: z.object({
    slot_id: z.number().int(),
    doctor_id: userId,
    appointment_id: z.string(),
    patient_id: userId,
    start: instant,
    end: instant,
  }),
  /**
   * The slot, freed, is held for 15 minutes (WAITLIST_HOLD_MINUTES) for a patient on its doctor's waitlist (issue 35):
   * until `until` only that patient may book it; after it, anyone may (a hold ends by time, whether or not its end is
   * recorded).
   */
  SlotHeld: z.object({ slot_id: z.number().int(), doctor_id: userId, patient_id: userId, until: instant }),
  /** A hold ended before the slot was booked: declined, left unanswered past its time, or its patient left the waitlist. */
  SlotHoldReleased: z.object({ slot_id: z.number().int(), doctor_id: userId, patient_id: userId, reason: z.enum(['declined', 'expired', 'left']) }),
  SlotReleased: z.object({
    slot_id: z.number().int(),
    doctor_id: userId,
    appointment_id: z.string(),
    /** `rescheduled`: its appointment moved to another slot; `orphaned`: no request (or no move) was recorded on it in time. */
    reason: z.enum(['rejected', 'cancelled', 'expired', 'orphaned', 'rescheduled']),
  }),

  AppointmentRequested: z.object({
    appointment_id: z.string(),
    slot_id: z.number().int(),
    doctor_id: userId,
    patient_id: userId,
    start: instant,
    end: instant,
    notes: z.string(),
    /** A follow-up (issue 35): the earlier consultation it was booked on (that appointment's id and start), whose offer it took. */
    follow_up_of: z.object({ appointment_id: z.string(), start: instant }).optional(),
    /** The fee agreed for it when not the doctor's fee of the day: a follow-up's, as offered (0: free). For payments (issue 36). */
    fee: z.number().min(0).optional(),
  }),
  AppointmentApproved: z.object({ appointment_id: z.string(), doctor_id: userId }),
  AppointmentRejected: z.object({
    appointment_id: z.string(),
    doctor_id: userId,
    reason: z.string().nullable(),
    /** Not the doctor's decision: the patient withdrew their consent, and the system closed the request (since issue 31). */
    cause: z.enum(['consent_withdrawn']).optional(),
  }),
  AppointmentCancelled: z.object({
    appointment_id: z.string(),
    cancelled_by: z.enum(['patient', 'doctor']),
    reason: z.string().nullable(),
    /**
     * Not a plain cancellation (issue 35): the patient declined the other times their doctor offered
     * ('proposal_declined', the patient's act) or left them unanswered ('proposal_unanswered', closed on the doctor's
     * side by the system); either way the change was the doctor's, and the patient's money comes back.
     */
    cause: z.enum(['proposal_declined', 'proposal_unanswered']).optional(),
    /**
     * Its patient cancelled a confirmed appointment inside the doctor's notice (issue 35): what that counts as under the
     * doctor's rules then (a no-show counts toward a clinic's no-show policy, and with payments keeps the fee).
     */
    late: z.enum(['cancellation', 'no_show']).optional(),
  }),
  AppointmentExpired: z.object({ appointment_id: z.string() }),
  /**
   * The slot reserved for this appointment id was released because its request had not been recorded within the grace
   * (RESERVATION_HEAL_GRACE_MS): recorded first, on the appointment's stream while it is still empty, so a request that
   * comes late is refused by its expected revision instead of standing on a slot offered again.
   */
  AppointmentVoided: z.object({ appointment_id: z.string(), slot_id: z.number().int() }),
  /**
   * The first join began the appointment's consultation (recorded on the appointment's stream before the consultation's
   * own start, with the revision the join decided on): from then on closing an account leaves it to its consultation,
   * and a cancel decided before it is refused by its expected revision and decided again (and the other way round).
   */
  AppointmentConsultationBegun: z.object({ appointment_id: z.string(), begun_at: instant }),
  /** The appointment's consultation ended (by a participant or at its limit): the visit took place. */
  AppointmentCompleted: z.object({ appointment_id: z.string(), ended_at: instant, auto_ended: z.boolean() }),
  /**
   * The appointment moved to another slot of its doctor (issue 35), recorded once the new slot was reserved for it; the
   * old slot is released after (by the request, else by the slot-release manager). A confirmed appointment moved by its
   * patient waits for the doctor's approval again (`needs_approval`) unless the doctor accepts moves automatically.
   */
  AppointmentRescheduled: z.object({
    appointment_id: z.string(),
    doctor_id: userId,
    patient_id: userId,
    from_slot_id: z.number().int(),
    from_start: instant,
    to_slot_id: z.number().int(),
    start: instant,
    end: instant,
    rescheduled_by: z.enum(['patient', 'doctor']),
    needs_approval: z.boolean(),
    /** Which move of this appointment this is (1 for the first). */
    move: z.number().int().positive(),
    /** How many of its moves, this one included, its patient made (the rules' limit counts only theirs); absent before the doctor could move it. */
    patient_moves: z.number().int().min(0).optional(),
    /** The appointment is confirmed after this move (a doctor accepting moves, or a time the doctor offered); absent: as before. */
    confirmed: z.boolean().optional(),
  }),
  /**
   * A slot reserved to move this appointment was released because the move was not recorded within the grace (the
   * process died between the two writes): recorded here first, so a move that comes late is refused instead of standing
   * on a slot offered again.
   */
  AppointmentHoldReleased: z.object({ appointment_id: z.string(), slot_id: z.number().int() }),
  /**
   * A confirmed appointment closed because a party never came (issue 35): by the system once its end and the grace
   * (NO_SHOW_GRACE_MINUTES) have passed with `absent` never having joined its consultation, or by its doctor marking the
   * patient absent after waiting (NO_SHOW_DOCTOR_WAIT_MINUTES into it). A doctor's absence is theirs, not the patient's.
   */
  /**
   * Its doctor offered other times for it (issue 35): up to three of their open slots, none held, the latest offer
   * replacing any earlier one. The patient accepts one (a move by the doctor, which also confirms a request) or declines
   * (cancelled); an offer unanswered by `expires_at` (the appointment's start, or the earliest offered start if sooner)
   * cancels it.
   */
  AppointmentTimesProposed: z.object({
    appointment_id: z.string(),
    doctor_id: userId,
    patient_id: userId,
    slots: z.array(z.object({ slot_id: z.number().int(), start: instant, end: instant })).min(1).max(3),
    expires_at: instant,
  }),
  /**
   * A patient waits for a time with a doctor between two dates (their zone's calendar days, as the doctor's slots are
   * shown to them), in the stream `waitlist-<doctor>-<patient>`: one place per patient and doctor, joined again after
   * it ends. Its order among the doctor's waitlist is its position in the log.
   */
  WaitlistJoined: z.object({ doctor_id: userId, patient_id: userId, from: z.string(), to: z.string(), timezone: z.string() }),
  /**
   * A patient's wallet (issue 36), on `wallet-<patient>`: opened with the starting grant by its first change. Every
   * later change of its balance is an event of its own below; the balance is never below zero.
   */
  WalletOpened: z.object({ patient_id: userId, credits: z.number().int().min(0) }),
  /** A pack bought: recorded once per payment the gateway's capture (verified) names, however often it is told. */
  CreditsBought: z.object({
    patient_id: userId,
    order_id: z.string(),
    payment_id: z.string(),
    credits: z.number().int().positive(),
    amount_paise: z.number().int().positive(),
    gateway: z.string(),
  }),
  /** A request holds its doctor's fee: taken from the balance until the appointment is charged or returned. */
  FeeHeld: z.object({ patient_id: userId, appointment_id: z.string(), credits: z.number().int().positive() }),
  /** A held fee kept: the consultation took place, or the patient missed it or cancelled inside the doctor's notice. */
  FeeCharged: z.object({ patient_id: userId, appointment_id: z.string(), credits: z.number().int().positive(), reason: z.enum(FEE_CHARGE_REASONS) }),
  /** A held fee given back in full (a rejection, a cancellation, an expiry, the doctor's absence, a booking that failed). */
  FeeReturned: z.object({ patient_id: userId, appointment_id: z.string(), credits: z.number().int().positive(), reason: z.enum(FEE_RETURN_REASONS) }),
  /** An operator's correction of a balance, with their reason (what it is for is theirs to say; it is no health data). */
  CreditsAdjusted: z.object({ patient_id: userId, credits: z.number().int(), reason: z.string(), adjusted_by: userId }),
  /**
   * A patient asked to buy a pack (issue 36): the gateway's order for it, on `pack_order-<order id>`. Nothing is added
   * to the wallet until a payment of it is captured (CreditsBought, once per payment).
   */
  PackOrdered: z.object({ order_id: z.string(), patient_id: userId, credits: z.number().int().positive(), amount_paise: z.number().int().positive(), gateway: z.string() }),
  /**
   * Money of a pack given back through the gateway (recorded once per refund): the pack's share of credits it stood for
   * taken out of the free balance; what the patient had already spent is `uncovered_credits` (the balance never goes
   * below zero), for the reconciliation.
   */
  PackRefunded: z.object({
    patient_id: userId,
    order_id: z.string(),
    payment_id: z.string(),
    refund_id: z.string(),
    amount_paise: z.number().int().positive(),
    credits: z.number().int().min(0),
    uncovered_credits: z.number().int().min(0),
  }),
  /** The gateway said a payment of the order failed (recorded once per payment): the patient may try again. */
  PackPaymentFailed: z.object({ order_id: z.string(), patient_id: userId, payment_id: z.string(), error_code: z.string().nullable() }),
  /** The patient left the waitlist (or the system closed it: its last day passed, or they booked). */
  WaitlistLeft: z.object({ doctor_id: userId, patient_id: userId, reason: z.enum(['left', 'booked', 'ended']) }),
  /** A freed slot was held for this patient (SlotHeld first, on the slot's stream): theirs to book until `until`. */
  WaitlistOfferMade: z.object({ doctor_id: userId, patient_id: userId, slot_id: z.number().int(), start: instant, end: instant, until: instant }),
  /** The patient declined the offered slot, or did not answer in time: they stay on the waitlist, the slot goes on to the next. */
  WaitlistOfferEnded: z.object({ doctor_id: userId, patient_id: userId, slot_id: z.number().int(), reason: z.enum(['declined', 'expired']) }),
  AppointmentNoShow: z.object({
    appointment_id: z.string(),
    doctor_id: userId,
    patient_id: userId,
    absent: z.enum(['patient', 'doctor', 'both']),
    marked_by: z.enum(['system', 'doctor']),
  }),
  /**
   * Its doctor offered a follow-up (issue 35), saving final notes that say one is required: the patient may book one of
   * the doctor's slots starting before `until` (the consultation's end plus `within_days`) at `fee` (0: free). On the
   * appointment's stream, not the notes': the booking that takes it up is decided on this same stream
   * (AppointmentFollowUpBooked, one per offer), and these are booking terms, not the notes' health data. A later offer
   * replaces it.
   */
  AppointmentFollowUpOffered: z.object({
    appointment_id: z.string(),
    doctor_id: userId,
    patient_id: userId,
    within_days: z.number().int().positive(),
    until: instant,
    fee: z.number().min(0),
  }),
  /**
   * A follow-up was booked on its offer (issue 35): `follow_up_appointment_id` is the new appointment, recorded here
   * before its request so that two bookings cannot both take the offer. A later one is refused while that appointment
   * stands (requested, confirmed, held); one closed without taking place (rejected, cancelled, expired, voided) frees it.
   */
  AppointmentFollowUpBooked: z.object({ appointment_id: z.string(), follow_up_appointment_id: z.string(), slot_id: z.number().int() }),
  /**
   * Its doctor saved final notes again, now saying no follow-up is required (issue 35): the offer not yet taken up is
   * withdrawn (one already booked stands, and keeps its offer).
   */
  AppointmentFollowUpWithdrawn: z.object({ appointment_id: z.string(), doctor_id: userId, patient_id: userId }),

  /**
   * The video consultation of one appointment (stream `consultation-<appointment_id>`). Started by the first join: its
   * limit runs from then (`ends_at`), whoever joins later. Who did each thing and when is the metadata's actor and time.
   */
  ConsultationStarted: z.object({
    appointment_id: z.string(),
    patient_id: userId,
    doctor_id: userId,
    provider: z.enum(['p2p', 'livekit']),
    room: z.string(),
    started_at: instant,
    ends_at: instant,
  }),
  /** A participant connected; a later join of the same person replaces their older connection (`replaced_connection_id`). */
  ConsultationJoined: z.object({
    appointment_id: z.string(),
    user_id: userId,
    role: z.enum(['patient', 'doctor']),
    connection_id: z.string(),
    replaced_connection_id: z.string().nullable(),
  }),
  ConsultationLeft: z.object({
    appointment_id: z.string(),
    user_id: userId,
    connection_id: z.string(),
    /** `disconnected`: in a peer-to-peer call, their socket dropped and did not come back within the grace (by the system). */
    reason: z.enum(['left', 'provider_reported', 'disconnected']),
  }),
  /** A participant pressed End Call: the consultation is over for both. */
  ConsultationEnded: z.object({ appointment_id: z.string(), ended_by: userId }),
  /** The limit was reached (`ends_at`): ended by the system, marked auto-ended. */
  ConsultationAutoEnded: z.object({ appointment_id: z.string(), ends_at: instant }),
  /** A chat message in the consultation; its text is the patient's health data (encrypted under the patient's key). */
  ConsultationMessagePosted: z.object({ appointment_id: z.string(), message_id: z.string(), sender_id: userId, text: z.string() }),
  /** A verified webhook of the video provider (LiveKit) about this consultation's room, as received. */
  VideoProviderEventReceived: z.object({
    appointment_id: z.string(),
    provider: z.literal('livekit'),
    provider_event_id: z.string(),
    event: z.string(),
    room: z.string(),
    participant_identity: z.string().nullable(),
    /** The room service's id of that participant's session (a rejoin gets a new one); absent in events recorded before it. */
    participant_sid: z.string().nullable().optional(),
    created_at: instant.nullable(),
  }),

  /**
   * Clinical records (issue 14). A file of a record, stored in the blob store (`blob_id`) encrypted under the
   * patient's data key; its name is the patient's data. The type is what its content is, never what its name says.
   */
  RecordFileStored: z.object({
    file_id: z.string(),
    patient_id: userId,
    record_id: z.string(),
    kind: z.enum(['prescription_file', 'report']),
    blob_id: z.string(),
    file_name: z.string(),
    /**
     * The file's type (one of REPORT_FILE_TYPES, found from its content on upload), its size in bytes (as its decimal
     * digits) and its digest: health data too (a DICOM scan, a file one could match), so in the log they are ciphertext
     * under the patient's key like the file's name, hence strings here, read back through recordedFileType and
     * recordedFileSize. A size written before that is a number in clear, and still reads.
     */
    content_type: z.string(),
    size: z.union([z.number().int().nonnegative(), z.string()]),
    sha256: z.string(),
  }),
  /** The patient uploaded reports (their files are the RecordFileStored events before this one in the stream). */
  MedicalReportUploaded: z.object({
    report_id: z.string(),
    patient_id: userId,
    appointment_id: z.string().nullable(),
    /**
     * One of REPORT_TYPE_IDS, and a YYYY-MM-DD date (both checked on the request): health data (an MRI on a day), so
     * in the log they are ciphertext under the patient's key like the rest of the report, hence plain strings here.
     */
    report_type: z.string(),
    report_date: z.string(),
    medical_facility: z.string().nullable(),
    doctor_name: z.string().nullable(),
    report_summary: z.string().nullable(),
    additional_notes: z.string().nullable(),
    file_ids: z.array(z.string()).min(1),
  }),
  /** The appointment's doctor uploaded a scanned or signed prescription (the upload modal's fields). */
  PrescriptionFileUploaded: z.object({
    record_id: z.string(),
    appointment_id: z.string(),
    patient_id: userId,
    doctor_id: userId,
    file_id: z.string(),
    patient_name: z.string(),
    patient_ref: z.string().nullable(),
    medication_summary: z.string().nullable(),
    additional_notes: z.string().nullable(),
  }),
  /** The doctor saved the consultation's notes (a draft, or the notes the patient may read); the latest of each counts. */
  ConsultationNotesSaved: z.object({
    appointment_id: z.string(),
    patient_id: userId,
    doctor_id: userId,
    is_draft: z.boolean(),
    /** The whole notes after this save (a save merges into the one before: the latest event holds them all). */
    ...consultationNotesEventFields,
  }),
  /**
   * An e-prescription (Telemedicine Practice Guidelines 2020 format), with the doctor's and patient's particulars as
   * they were when it was issued. `lines` is the JSON text of the medicines (StoredPrescriptionLine[]), a string so
   * that it is encrypted under the patient's key like the diagnosis; `verification_code` is what the QR code opens.
   */
  PrescriptionIssued: z.object({
    prescription_id: z.string(),
    appointment_id: z.string(),
    patient_id: userId,
    doctor_id: userId,
    verification_code: z.string(),
    /**
     * One of CONSULTATION_MODES and one of CONSULTATION_KINDS (a first visit or a follow-up): health data about the
     * patient, so in the log they are ciphertext under the patient's clinical key like the diagnosis, hence plain
     * strings here, read back through recordedConsultation. Written before that they are those values in clear, and
     * still read.
     */
    consultation_mode: z.string(),
    consultation_kind: z.string(),
    doctor_name: z.string(),
    doctor_qualification: z.string(),
    doctor_registration_number: z.string(),
    doctor_medical_council: z.string(),
    doctor_contact: z.string().nullable(),
    patient_name: z.string(),
    patient_age: z.string().nullable(),
    patient_gender: z.string().nullable(),
    diagnosis: z.string().nullable(),
    advice: z.string().nullable(),
    follow_up: z.string().nullable(),
    lines: z.string(),
  }),
  /** A clinic's licensed brand catalogue was imported (`medicines:import`): the rows are a blob, this is the record of it. */
  MedicineCatalogueImported: z.object({
    import_id: z.string(),
    blob_id: z.string(),
    rows: z.number().int().nonnegative(),
    sha256: z.string(),
  }),

  /**
   * The Patient Education Hub (issue 16), on the post's stream (`blog_post-<id>`). A post is the doctor's public
   * writing, and theirs: what they wrote (and the slug made from the title) is under their key (PERSONAL_FIELDS), so
   * their erasure shreds it in the log, and their posts leave every page (the read model drops them).
   * `content` is Editor.js block JSON whose inline HTML was cleaned before it was decided; title and excerpt as the
   * doctor typed them (the display defaults, 'Untitled Draft' and 'No excerpt', are the pages').
   */
  BlogPostCreated: z.object({ post_id: z.string(), author_id: userId, ...blogPostFields }),
  /** The doctor saved the post again: every field as it now stands. */
  BlogPostUpdated: z.object({ post_id: z.string(), author_id: userId, ...blogPostFields }),
  /** Published now (by the doctor, or by the scheduler at its time) under this slug (kept from the first publishing). */
  BlogPostPublished: z.object({ post_id: z.string(), author_id: userId, slug: z.string(), published_at: instant, scheduled: z.boolean() }),
  BlogPostScheduled: z.object({ post_id: z.string(), author_id: userId, publish_at: instant }),
  BlogPostUnscheduled: z.object({ post_id: z.string(), author_id: userId }),
  BlogPostArchived: z.object({ post_id: z.string(), author_id: userId }),
  BlogPostDeleted: z.object({ post_id: z.string(), author_id: userId }),
  /** An image for a post, in the blob store under the doctor's key; its type is what its content is; its digest is under their key too. */
  BlogImageStored: z.object({ image_id: z.string(), author_id: userId, blob_id: z.string(), content_type: z.string(), size: z.number().int().nonnegative(), sha256: z.string() }),
  /**
   * A reader session's first view of a published post (`blog_view-<post>-<reader>`: one stream each, so once only);
   * `reader` is the keyed digest of the stream's name (a plain one in views counted before the names were keyed).
   */
  BlogPostViewed: z.object({ post_id: z.string(), author_id: userId, reader: z.string() }),

  // Messages outside the browser (issue 34). One stream per message (`message-<id>`), its id a digest of its
  // idempotency key (appointment, kind, offset), so queueing it twice appends nothing; each channel's send is keyed by
  // that key and the channel.
  MessageQueued: z.object({
    message_id: z.string(),
    idempotency_key: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    /** Null for a sign-in code to a number no account holds yet. */
    recipient_id: userId.nullable(),
    appointment_id: z.string().nullable(),
    /** A reminder's minutes before the consultation. */
    offset_minutes: z.number().int().nullable(),
    /** The consultation's start the message was queued for: a reminder follows its appointment to a new time. */
    start: instant.nullable(),
    due_at: instant,
    /** The doctor's name when the text names one (under the recipient's key). */
    doctor_name: z.string().nullable(),
    /** A waitlist offer's (issue 35): whose waitlist and which held slot, so that one no longer standing is not sent. */
    waitlist_offer: z.object({ doctor_id: userId, slot_id: z.number().int(), until: instant }).optional(),
  }),
  /** A process took the message up for one attempt on one channel; no other takes it until the lease ends. */
  MessageAttemptStarted: z.object({ message_id: z.string(), channel: z.enum(MESSAGE_CHANNELS), attempt: z.number().int().positive(), lease_until: instant }),
  MessageSent: z.object({
    message_id: z.string(),
    channel: z.enum(MESSAGE_CHANNELS),
    attempt: z.number().int().positive(),
    provider_message_id: z.string(),
    recipient_id: userId.nullable(),
    /** The address as the console shows it (maskAddress), under the recipient's key. */
    to_masked: z.string().nullable(),
  }),
  /** A provider's verified callback: the message reached the phone or mailbox. */
  MessageDelivered: z.object({ message_id: z.string(), channel: z.enum(MESSAGE_CHANNELS), provider_message_id: z.string() }),
  /**
   * An attempt failed (the provider refused it, or its callback said it did not arrive). `retry_at`: when the message
   * is tried again (on the same or the next channel); null when every channel allowed was tried in vain.
   */
  MessageFailed: z.object({
    message_id: z.string(),
    channel: z.enum(MESSAGE_CHANNELS),
    attempt: z.number().int().positive(),
    error: z.string().max(200),
    retry_at: instant.nullable(),
    /** This channel is given up on for this message (refused for good, or its attempts spent). */
    channel_exhausted: z.boolean(),
  }),
  /** Sent later: quiet hours in the recipient's zone, or the appointment moved. */
  MessageDeferred: z.object({ message_id: z.string(), due_at: instant, reason: z.enum(['quiet_hours', 'appointment_moved']), start: instant.nullable() }),
  MessageCancelled: z.object({ message_id: z.string(), reason: z.enum(MESSAGE_CANCEL_REASONS) }),
  /** An operator (or a clinic's admin) asked for a failed message to be sent again. */
  MessageResendRequested: z.object({ message_id: z.string(), due_at: instant }),
  /**
   * The channels a person may be reached on (and their zone for quiet hours); `source` 'reply' when they replied STOP.
   * On the person's contact stream (`contact-<user>`), with their verified number.
   */
  MessagingPreferencesSet: z.object({
    user_id: userId,
    channels: messageChannelsSchema,
    time_zone: z.string().nullable(),
    source: z.enum(['profile', 'reply']),
  }),
  /** The person proved they hold this number (a code sent to it): they can sign in with it and be sent SMS or WhatsApp. */
  PhoneNumberVerified: z.object({ user_id: userId, phone_number: z.string() }),
  /** A verified number belongs to one account: its own stream (`phone-<keyed digest>`), as an e-mail address's. */
  PhoneClaimed: z.object({ claim_id: z.string().min(1).max(64), phone_number: z.string(), user_id: userId, claimed_at: instant }),
  /**
   * A sign-in code sent to a number (`phone_code-<keyed digest>`): only its keyed hash; `address` the keyed digest of
   * the requesting client's address (the per-address limits); `challenge_hash` the keyed hash of the random challenge
   * answered to whoever asked for the code: only a try that brings it back counts against the code.
   */
  PhoneSignInCodeIssued: z.object({ code_id: z.string(), code_hash: z.string(), challenge_hash: z.string(), expires_at: instant, address: z.string() }),
  PhoneSignInCodeTried: z.object({ code_id: z.string(), matched: z.boolean(), address: z.string() }),
} as const;

export type EventType = keyof typeof eventDataSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;
export const EVENT_TYPES = Object.keys(eventDataSchemas) as EventType[];

/** An event as a decider produces it: no store bookkeeping yet. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type DomainEventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

/** An event as read back from the store. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E & {
  event_id: string;
  stream_id: string;
  revision: number;
  position: number;
  metadata: EventMetadata;
};

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventDataSchemas, type);
}

/**
 * Families of event types, for readers (projections, process managers, the notifier's maps) to ignore one as a whole.
 * Every reader decides every event type (see EveryEventDecided): it handles it, ignores it by name, or ignores its
 * family; a family a reader handles any event of is decided event by event. A new event type in no family must be
 * decided by each reader; putting it in a family decides, for every reader ignoring that family, that it ignores it too.
 */
export const EVENT_FAMILIES = {
  accounts: ['UserRegistered', 'UserProfileUpdated', 'UserLanguageChosen', 'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared'],
  sessions: ['SessionStarted', 'SessionRefreshed', 'SessionEnded'],
  privacy: ['ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'PersonalDataErased', 'ClinicalRecordsDestroyed'],
  institutions: [
    'InstitutionSlugClaimed',
    'InstitutionCreated',
    'InstitutionStaffAdded',
    'InstitutionStaffRemoved',
    'InstitutionDisbanded',
    'InstitutionUpdated',
    'InstitutionStaffInvited',
    'InstitutionInvitationAccepted',
    'InstitutionInvitationDeclined',
    'InstitutionInvitationRevoked',
    'InstitutionDoctorDeactivated',
    'InstitutionDoctorActivated',
    'InstitutionStaffRoleChanged',
    'InstitutionBookingRulesSet',
  ],
  schedule: ['AvailabilitySet', 'SlotOpened', 'SlotWithdrawn', 'SlotReserved', 'SlotReleased', 'SlotHeld', 'SlotHoldReleased'],
  waitlist: ['WaitlistJoined', 'WaitlistLeft', 'WaitlistOfferMade', 'WaitlistOfferEnded'],
  wallet: ['WalletOpened', 'CreditsBought', 'FeeHeld', 'FeeCharged', 'FeeReturned', 'CreditsAdjusted', 'PackOrdered', 'PackPaymentFailed', 'PackRefunded'],
  appointments: [
    'AppointmentRequested',
    'AppointmentApproved',
    'AppointmentRejected',
    'AppointmentCancelled',
    'AppointmentExpired',
    'AppointmentVoided',
    'AppointmentConsultationBegun',
    'AppointmentCompleted',
    'AppointmentRescheduled',
    'AppointmentHoldReleased',
    'AppointmentNoShow',
    'AppointmentTimesProposed',
    'AppointmentFollowUpOffered',
    'AppointmentFollowUpBooked',
    'AppointmentFollowUpWithdrawn',
  ],
  consultations: ['ConsultationStarted', 'ConsultationJoined', 'ConsultationLeft', 'ConsultationEnded', 'ConsultationAutoEnded', 'ConsultationMessagePosted', 'VideoProviderEventReceived'],
  records: ['RecordFileStored', 'MedicalReportUploaded', 'PrescriptionFileUploaded', 'ConsultationNotesSaved', 'PrescriptionIssued', 'MedicineCatalogueImported'],
  messaging: ['MessageQueued', 'MessageAttemptStarted', 'MessageSent', 'MessageDelivered', 'MessageFailed', 'MessageDeferred', 'MessageCancelled', 'MessageResendRequested'],
  phone: ['PhoneClaimed', 'PhoneSignInCodeIssued', 'PhoneSignInCodeTried'],
  blog: ['BlogPostCreated', 'BlogPostUpdated', 'BlogPostPublished', 'BlogPostScheduled', 'BlogPostUnscheduled', 'BlogPostArchived', 'BlogPostDeleted', 'BlogImageStored', 'BlogPostViewed'],
} as const satisfies Record<string, readonly EventType[]>;
export type EventFamily = keyof typeof EVENT_FAMILIES;

/** What a reader can ignore: an event type, or a family of them. */
export type Ignorable = EventType | EventFamily;
/** The event types a reader's ignore list covers. */
export type IgnoredEvents<I extends Ignorable> = Extract<I, EventType> | (typeof EVENT_FAMILIES)[Extract<I, EventFamily>][number];

/**
 * `unknown` when a reader that handles H and ignores I has decided every event type exactly once; otherwise an object
 * type whose one property names the event types left undecided (or both handled and ignored), so that the compiler's
 * error on the reader's ignore list names them. Intersect an ignore list's parameter type with it.
 */
export type EveryEventDecided<H extends EventType, I extends Ignorable> = [Exclude<EventType, H | IgnoredEvents<I>>] extends [never]
  ? [Extract<H, IgnoredEvents<I>>] extends [never]
    ? unknown
    : { 'handled and ignored': Extract<H, IgnoredEvents<I>> }
  : { 'neither handled nor ignored': Exclude<EventType, H | IgnoredEvents<I>> };

/** A reader's entry for an event type it ignores. */
export const IGNORED = 'ignored';
/**
 * A reader as a table: for every event type, what the reader makes of it, or IGNORED. Written as an object literal
 * `satisfies EventTable<V>` with the handled entries first and `...ignoring(...)` last (an entry both handled and
 * ignored is then an error: it is specified more than once).
 */
export type EventTable<V> = { readonly [T in EventType]: V | typeof IGNORED };

/** The IGNORED entries of an EventTable, for event types and whole families. */
export function ignoring<const I extends Ignorable>(...ignores: I[]): Record<IgnoredEvents<I>, typeof IGNORED> {
  const entries = ignores.flatMap((ignored: Ignorable): readonly EventType[] => (isEventType(ignored) ? [ignored] : EVENT_FAMILIES[ignored]));
  return Object.fromEntries(entries.map((type) => [type, IGNORED])) as Record<IgnoredEvents<I>, typeof IGNORED>;
}

/** A table's entry for an event's type; undefined when the reader ignores it, or the type is not known here (a newer writer's). */
export function entryFor<V>(table: EventTable<V>, type: string): Exclude<V, typeof IGNORED> | undefined {
  if (!isEventType(type)) return undefined;
  const entry = table[type];
  return entry === IGNORED ? undefined : (entry as Exclude<V, typeof IGNORED>);
}

/** Whether an event is of one of these types (narrowing it to them). */
export function isEventOf<T extends EventType>(types: ReadonlySet<T>, event: RecordedEvent): event is RecordedEvent<DomainEventOf<T>> {
  return (types as ReadonlySet<EventType>).has(event.type);
}

/** Validates an event's data against its schema; throws a ZodError when it does not fit. */
export function parseDomainEvent(type: string, data: unknown): DomainEvent {
  if (!isEventType(type)) throw new Error(`Unknown event type ${type}`);
  return { type, data: eventDataSchemas[type].parse(data) } as DomainEvent;
}

/** Stream names are `<category>-<id>`. */
export const streams = {
  /** A user's account, and for doctors their practitioner profile, in one stream so registration is atomic. */
  user: (id: string) => `user-${id}`,
  /**
   * Named by a keyed digest (HMAC, key in the key store) of the lower-cased address, so the log alone neither shows an
   * address nor lets one be tested; claims made before were named by its plain SHA-256 and are still read.
   */
  email: (digest: string) => `email-${digest}`,
  session: (id: string) => `session-${id}`,
  doctorNumbers: () => 'sequence-doctor_number',
  /** Before schedules were kept by month: read for what it published, never appended to again. */
  schedule: (doctorId: string) => `schedule-${doctorId}`,
  /** The availability changes of a doctor's slots starting in one UTC month (YYYY-MM): a save reads only the months ahead. */
  scheduleMonth: (doctorId: string, month: string) => `schedule-${doctorId}-${month}`,
  slot: (slotId: number) => `slot-${slotId}`,
  appointment: (id: string) => `appointment-${id}`,
  /** The video consultation of an appointment (one per appointment). */
  consultation: (appointmentId: string) => `consultation-${appointmentId}`,
  /**
   * A consultation's chat messages since chat left the consultation's own stream (messages of earlier consultations
   * are still there): appended in arrival order, without an expected revision, so messages sent at once never refuse
   * each other, and joins, leaves and the end never wait on a message. Same category, so the same bus subjects.
   */
  consultationChat: (appointmentId: string) => `consultation-${appointmentId}-chat`,
  institution: (id: string) => `institution-${id}`,
  institutionSlug: (slug: string) => `institution_slug-${slug}`,
  /** One stream per accessor: the reads of other people's data they made (PersonalDataAccessed). */
  accessAudit: (accessorId: string) => `access_audit-${accessorId}`,
  /** A consultation's notes (one record per appointment, saved again and again). */
  consultationNotes: (appointmentId: string) => `consultation_notes-${appointmentId}`,
  prescription: (id: string) => `prescription-${id}`,
  prescriptionFile: (id: string) => `prescription_file-${id}`,
  medicalReport: (id: string) => `medical_report-${id}`,
  medicineCatalogue: () => 'medicine_catalogue-brands',
  blogPost: (id: string) => `blog_post-${id}`,
  blogImage: (id: string) => `blog_image-${id}`,
  /**
   * One per post and reader session (a keyed digest of both, never the session or the user): appended once, so a view
   * counts once. Views counted before were named by a plain digest, which is still looked up.
   */
  blogView: (postId: string, reader: string) => `blog_view-${postId}-${reader}`,
  /** One message outside the browser (issue 34), its id a digest of its idempotency key. */
  message: (id: string) => `message-${id}`,
  /** A verified phone number's claim, named by a keyed digest of the E.164 number (as an e-mail address's). */
  phone: (digest: string) => `phone-${digest}`,
  /** The sign-in codes sent to a number, named by a keyed digest of it. */
  phoneCode: (digest: string) => `phone_code-${digest}`,
  /** A patient's place on a doctor's waitlist (issue 35): one per patient and doctor. */
  waitlist: (doctorId: string, patientId: string) => `waitlist-${doctorId}-${patientId}`,
  wallet: (patientId: string) => `wallet-${patientId}`,
  /** A pack's order at the payment gateway (issue 36), named by the gateway's order id. */
  packOrder: (orderId: string) => `pack_order-${orderId}`,
  /** A person's verified phone number and message preferences (small: read whole when a message is sent). */
  contact: (userId: string) => `contact-${userId}`,
};

export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
