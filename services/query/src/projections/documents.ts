import type { AccountType, AppointmentStatus } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';

/** Document shapes of the read models. */

export interface UserDoc {
  _id: string;
  name: string;
  email: string | null;
  phone_number: string | null;
  account_type: AccountType;
  registered_at: string;
  active: boolean;
  /** The last time the account was deactivated (kept when it is reactivated): tokens issued before it are refused. */
  deactivated_at?: string;
  /** Set when the person was erased (PersonalDataErased): name and contact details are blanked, the account inactive. */
  erased_at?: string;
  /** The language the person chose (UserLanguageChosen); absent until they choose one. */
  language?: LanguageCode;
}

export interface SessionDoc {
  _id: string;
  user_id: string;
  method: string;
  started_at: string;
  ended_at: string | null;
  ended_reason: string | null;
}

export interface DoctorDoc {
  _id: string;
  doctor_number: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  specialty: string;
  qualification: string;
  consultation_fee: number;
  appointment_duration_minutes: number;
  registration_number: string | null;
  medical_council: string | null;
  /** Where the doctor practises; absent in documents written before doctors had one (read as null). */
  city?: string | null;
  /** Absent for doctors registered before doctors' languages (issue 33): none given. */
  languages?: LanguageCode[];
  /** Set when the doctor was erased (PersonalDataErased): their name and registration are blanked, and no list shows them. */
  erased_at?: string;
}

export interface SubscriptionDoc {
  _id: string;
  patient_id: string;
  doctor_id: string;
  subscribed_at: string;
}

export interface SlotDoc {
  _id: string;
  slot_id: number;
  doctor_id: string;
  /** doctor_id/UTC date of the start: the indexed key that finds a doctor's slots of one day. */
  doctor_day: string;
  start: string;
  end: string;
  /** `held`: offered to a patient on the doctor's waitlist for a while (issue 35), not offered to anyone else meanwhile. */
  status: 'open' | 'withdrawn' | 'reserved' | 'held';
  appointment_id: string | null;
  patient_id: string | null;
  reserved_at: string | null;
  reserved_event_id: string | null;
}

/** The start of the latest slot a doctor ever opened: where a walk over the doctor's days can stop. */
export interface DoctorSlotRangeDoc {
  _id: string;
  last_start: string;
  /** The log position of the last event that changed one of the doctor's slots: readers cache a doctor's slots by it. */
  revision: number;
}

/** A slot reservation whose appointment has not appeared yet (see the pending_reservations projection). */
export interface PendingReservationDoc {
  _id: string;
  appointment_id: string;
  slot_id: number;
  reserved_at: string;
  reserved_event_id: string;
}

export interface AppointmentDoc {
  _id: string;
  appointment_id: string;
  slot_id: number;
  doctor_id: string;
  patient_id: string;
  start: string;
  end: string;
  notes: string;
  status: AppointmentStatus;
  /** How many times it was moved (absent: never). */
  reschedules?: number;
  /** Its start before its last move, and who moved it (absent: never moved). */
  moved_from?: string;
  moved_by?: 'patient' | 'doctor';
  /** Other times its doctor offered, not yet answered (absent or null: none), and until when (indexed for the sweep). */
  proposal?: { slots: Array<{ slot_id: number; start: string; end: string }>; expires_at: string } | null;
  proposal_expires_at?: string | null;
  /** The follow-up its doctor offered (issue 35): before when and at what fee (absent: none), and the one booked on it. */
  /** Null once the offer was withdrawn (the doctor's later notes need none). */
  follow_up_until?: string | null;
  follow_up_fee?: number | null;
  follow_up_booked?: string | null;
  /** A follow-up's earlier consultation (issue 35): its id and start (absent: not a follow-up). */
  follow_up_of?: string;
  follow_up_of_start?: string;
  /** The fee agreed at booking when not the doctor's of the day (a follow-up's): consultation_fee stays it. */
  agreed_fee?: number;
  /** Why it ended the way it did: 'expired' for a request nobody answered before its start. */
  status_reason: string | null;
  rejection_reason: string | null;
  cancellation_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Log position of AppointmentRequested: compared with staff membership intervals (institution access). */
  requested_position: number;
  /** Its consultation started (ConsultationStarted): a later prescription of the same doctor for the patient is a follow-up. */
  consultation_held: boolean;
  patient_name: string;
  patient_phone: string | null;
  doctor_name: string;
  doctor_specialty: string;
  consultation_fee: number;
}

/** People as the appointments projection knows them, kept by itself so it can be rebuilt alone. */
export interface PersonDoc {
  _id: string;
  name: string;
  phone_number: string | null;
  specialty: string | null;
  consultation_fee: number | null;
}

export interface HistoryDoc {
  _id: string;
  appointment_id: string;
  position: number;
  event_id: string;
  type: string;
  occurred_at: string;
  actor: { user_id: string; role: string };
  /** Absent on entries written before version 2 of the projection. */
  correlation_id?: string;
  data: Record<string, unknown>;
}

export interface InstitutionDoc {
  _id: string;
  name: string;
  slug: string;
  address: string;
  phone: string;
  email: string;
  is_active: boolean;
  hours_of_operation: Record<string, string | null>;
  role_permissions: Record<string, string[]>;
  created_at: string;
}

export interface StaffDoc {
  _id: string;
  institution_id: string;
  user_id: string;
  name: string;
  email: string;
  phone: string;
  role: 'USER' | 'STAFF' | 'ADMIN' | 'DOCTOR' | 'SUPER_DOCTOR';
  role_title: string | null;
  department: string | null;
  specialization: string | null;
  is_institution_admin: boolean;
  is_active: boolean;
  added_at: string;
  /** Log position of the addition: the staff's stable order, and where the membership interval starts. */
  added_position: number;
  removed_at: string | null;
  /** Log position of the removal, where the membership interval ends (null while a member). */
  removed_position: number | null;
  /** A doctor deactivated in the institution: still a member, shown as inactive, without rights there (absent: false). */
  deactivated?: boolean;
  /** A closed membership interval kept when the member's role changed into or out of a doctor role (not a removal). */
  superseded?: boolean;
  /**
   * What the doctors list shows and orders by: the name and specialty of the member's doctor account as they are now
   * (for a member without one, the recorded name and specialization), kept here so a page is read in order by an index.
   */
  doctor_name: string;
  doctor_specialty: string | null;
}

/** A doctor account's name and specialty as the institutions projection keeps them (doctor_name, doctor_specialty). */
export interface MemberDoctorDoc {
  _id: string;
  name: string;
  specialty: string;
}

/** An invitation of an existing account to an institution's staff. */
export interface InvitationDoc {
  _id: string;
  institution_id: string;
  staff_id: string;
  user_id: string;
  name: string;
  email: string;
  phone: string;
  role: StaffDoc['role'];
  role_title: string | null;
  department: string | null;
  specialization: string | null;
  status: 'pending' | 'accepted' | 'declined' | 'revoked';
  invited_at: string;
  invited_by: string;
  answered_at: string | null;
}
