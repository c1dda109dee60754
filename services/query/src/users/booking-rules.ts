import {
  API_TEXTS,
  DEFAULT_BOOKING_RULES,
  DEFAULT_NO_SHOW_BLOCK_MONTHS,
  effectiveBookingRules,
  notFound,
  type BookingRules,
  type ClinicBookingRules,
  type DoctorBookingRulesView,
  type InstitutionBookingRulesView,
} from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { DoctorDoc, InstitutionDoc, StaffDoc, UserDoc } from '../projections/documents';

/**
 * Cancellation and reschedule rules (issue 35): each doctor's own and each clinic's defaults as last set, one document
 * each by id. A doctor's rules in effect are read from at most a few of them (theirs, then their clinics'): what the
 * booking page and My Appointments show before a patient books or moves, as the command side decides it.
 */
export const DOCTOR_BOOKING_RULES = 'doctor_booking_rules';
export const INSTITUTION_BOOKING_RULES = 'institution_booking_rules';

export interface DoctorBookingRulesDoc {
  _id: string;
  min_notice_minutes: number;
  max_reschedules: number;
  late_cancellation: BookingRules['lateCancellation'];
  auto_accept_moves: boolean;
}

export interface InstitutionBookingRulesDoc {
  _id: string;
  min_notice_minutes: number;
  max_reschedules: number;
  late_cancellation: BookingRules['lateCancellation'];
  /** Its no-show policy (absent before clinics had one: off). */
  no_show_limit?: number;
  no_show_block_months?: number;
}

export const bookingRulesProjection = defineProjection({
  name: 'booking_rules',
  version: 1,
  collections: [DOCTOR_BOOKING_RULES, INSTITUTION_BOOKING_RULES],
  handles: ['DoctorBookingRulesSet', 'DoctorBookingRulesCleared', 'InstitutionBookingRulesSet'],
  // Nothing personal: an erasure leaves a doctor's rules (their page answers 404 once they are erased).
  ignores: [
    'sessions', 'privacy', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'UserRegistered', 'UserProfileUpdated', 'UserLanguageChosen', 'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet',
    'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'MessagingPreferencesSet', 'PhoneNumberVerified',
    'InstitutionSlugClaimed', 'InstitutionCreated', 'InstitutionStaffAdded', 'InstitutionStaffRemoved', 'InstitutionDisbanded', 'InstitutionUpdated',
    'InstitutionStaffInvited', 'InstitutionInvitationAccepted', 'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked',
    'InstitutionDoctorDeactivated', 'InstitutionDoctorActivated', 'InstitutionStaffRoleChanged',
  ],
  apply: async (event, store) => {
    switch (event.type) {
      case 'DoctorBookingRulesSet': {
        const { doctor_id, ...rules } = event.data;
        return store.collection<DoctorBookingRulesDoc>(DOCTOR_BOOKING_RULES).put({ _id: doctor_id, ...rules });
      }
      case 'DoctorBookingRulesCleared':
        return store.collection<DoctorBookingRulesDoc>(DOCTOR_BOOKING_RULES).delete(event.data.doctor_id);
      case 'InstitutionBookingRulesSet': {
        const { institution_id, ...rules } = event.data;
        return store.collection<InstitutionBookingRulesDoc>(INSTITUTION_BOOKING_RULES).put({ _id: institution_id, ...rules });
      }
    }
  },
});

const clinicRulesOf = (doc: InstitutionBookingRulesDoc): ClinicBookingRules => ({
  minNoticeMinutes: doc.min_notice_minutes,
  maxReschedules: doc.max_reschedules,
  lateCancellation: doc.late_cancellation,
  noShowPolicy: doc.no_show_limit ? { limit: doc.no_show_limit, blockMonths: doc.no_show_block_months ?? DEFAULT_NO_SHOW_BLOCK_MONTHS } : null,
});

/** A doctor's rules in effect, by id: their own document, else their active clinics' (one get each), else the product's. */
export function bookingRulesLookups(readStore: ReadStore) {
  const doctorRules = readStore.collection<DoctorBookingRulesDoc>(DOCTOR_BOOKING_RULES);
  const clinicRules = readStore.collection<InstitutionBookingRulesDoc>(INSTITUTION_BOOKING_RULES);
  const staff = readStore.collection<StaffDoc>('institution_staff');
  const institutions = readStore.collection<InstitutionDoc>('institutions');
  const effective = async (doctorId: string): Promise<Omit<DoctorBookingRulesView, 'doctor_id'>> => {
    const own = await doctorRules.get(doctorId);
    if (own) {
      const { _id: _i, ...rules } = own;
      void _i;
      return { ...rules, source: 'doctor' };
    }
    // The clinics they practise through, as the command side's BookingChecks names them (institutionsOfMember).
    const ids = [...new Set((await staff.find({ user_id: doctorId, is_active: true })).map((m) => m.institution_id))];
    const clinics = await Promise.all(ids.map(async (id) => ((await institutions.get(id))?.is_active ? await clinicRules.get(id) : null)));
    const { rules, source } = effectiveBookingRules(
      null,
      clinics.flatMap((doc) => (doc ? [clinicRulesOf(doc)] : [])),
    );
    return {
      min_notice_minutes: rules.minNoticeMinutes,
      max_reschedules: rules.maxReschedules,
      late_cancellation: rules.lateCancellation,
      auto_accept_moves: rules.autoAcceptMoves,
      source,
    };
  };
  const ofInstitution = async (institutionId: string): Promise<InstitutionBookingRulesView> => {
    const doc = await clinicRules.get(institutionId);
    if (doc) {
      const { _id: _i, ...rules } = doc;
      void _i;
      return { institution_id: institutionId, ...rules, no_show_limit: rules.no_show_limit ?? 0, no_show_block_months: rules.no_show_block_months ?? DEFAULT_NO_SHOW_BLOCK_MONTHS, set: true };
    }
    const d = DEFAULT_BOOKING_RULES;
    return {
      institution_id: institutionId,
      min_notice_minutes: d.minNoticeMinutes,
      max_reschedules: d.maxReschedules,
      late_cancellation: d.lateCancellation,
      no_show_limit: 0,
      no_show_block_months: DEFAULT_NO_SHOW_BLOCK_MONTHS,
      set: false,
    };
  };
  return { effective, ofInstitution };
}

/** The rules' reads: a doctor's in effect (anyone, as their public page), a clinic's defaults (its members). */
export function bookingRulesQueryRoutes(api: ApiRouter, readStore: ReadStore): void {
  const lookups = bookingRulesLookups(readStore);
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const users = readStore.collection<UserDoc>('users');

  api.implement('getDoctorBookingRules', {
    policy: policies.public,
    handler: async ({ params }) => {
      // Whoever has a public page (a doctor with a published profile and an active account) has rules to show.
      const doctor = await doctors.get(params.doctor_id);
      const user = doctor && doctor.doctor_number > 0 ? await users.get(doctor._id) : null;
      if (!doctor || !user?.active) throw notFound(API_TEXTS.doctorNotFound);
      return { body: { doctor_id: doctor._id, ...(await lookups.effective(doctor._id)) } };
    },
  });

  api.implement('getInstitutionBookingRules', {
    policy: policies.institution('read'),
    handler: async ({ params }) => ({ body: await lookups.ofInstitution(params.id) }),
  });
}
