import { API_TEXTS, NO_SHOW_WINDOW_MONTHS, STARTING_CREDITS, bookingBlockedUntil, conflict, noShowPolicyOf, plusMonths, streams, type BookingRules, type DomainEventOf } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { StreamFolds } from '../stream-folds';
import { accountStandingFold } from '../users/account-standing';
import { deactivatesDoctor, doctorDeactivationsFold } from '../institutions/doctor-deactivations';
import { requireConsent } from '../consents/service';
import { clinicRulesFold, doctorRulesFold, rulesInEffect } from './booking-rules';

/** A doctor's consultation fee in rupees, as their stream last set it (a fee is public: the fold may be kept). */
export const doctorFeeFold = {
  initialState: (): number => 0,
  evolve: (fee: number, event: { type: string; data: unknown }): number => {
    const known = event as DomainEventOf<'DoctorRegistered' | 'DoctorProfileUpdated'>;
    if (known.type === 'DoctorRegistered') return known.data.consultation_fee;
    if (known.type === 'DoctorProfileUpdated' && known.data.consultation_fee !== undefined) return known.data.consultation_fee;
    return fee;
  },
};

/** What booking looks up by id in the read models (then reads on the log). */
export interface BookingLookups {
  /** The institutions the doctor is currently on the staff of (ids only). */
  institutionsOfMember(userId: string): Promise<string[]>;
  /**
   * The starts of the patient's missed appointments starting since `since` (their no-shows, and their late cancellations
   * that counted as no-shows): the read model's (patient, start) index, at most a window of the patient's own history.
   */
  missedAppointmentsSince(patientId: string, since: Date): Promise<string[]>;
}

/**
 * The checks a booking makes on streams it does not write, each on a kept fold that reads only the stream's new
 * events (StreamFolds): a booking's cost does not grow with the doctor's, the patient's or an institution's history.
 */
export class BookingChecks {
  private readonly accounts: StreamFolds<ReturnType<typeof accountStandingFold.initialState>, never>;
  private readonly deactivations: StreamFolds<ReturnType<typeof doctorDeactivationsFold.initialState>, never>;
  private readonly doctorRules: StreamFolds<ReturnType<typeof doctorRulesFold.initialState>, never>;
  private readonly clinicRules: StreamFolds<ReturnType<typeof clinicRulesFold.initialState>, never>;
  private readonly fees: StreamFolds<number, never>;

  constructor(
    private readonly eventStore: EventStore,
    private readonly lookups: BookingLookups,
    /** What a patient's wallet opens with (STARTING_CREDITS), for a first booking that opens it. */
    readonly startingCredits: number = STARTING_CREDITS,
  ) {
    this.fees = new StreamFolds(eventStore, doctorFeeFold);
    this.accounts = new StreamFolds(eventStore, accountStandingFold);
    this.deactivations = new StreamFolds(eventStore, doctorDeactivationsFold);
    this.doctorRules = new StreamFolds(eventStore, doctorRulesFold);
    this.clinicRules = new StreamFolds(eventStore, clinicRulesFold);
  }

  /**
   * Does this doctor take bookings? Their account is active, and no institution they practise through has deactivated
   * them. Decided from the streams; the read model only names the institutions (a membership younger than its lag is
   * missed, a deactivation never is: it is in the institution's stream before the deactivation answers).
   */
  async doctorAcceptsBookings(doctorId: string): Promise<boolean> {
    const { state: account } = await this.accounts.current(streams.user(doctorId));
    if (!account?.active) return false;
    for (const institutionId of await this.lookups.institutionsOfMember(doctorId)) {
      const { state } = await this.deactivations.current(streams.institution(institutionId));
      if (deactivatesDoctor(state, doctorId)) return false;
    }
    return true;
  }

  /**
   * The cancellation and reschedule rules in effect for this doctor (issue 35): their own if they set them, else the
   * defaults of the clinics they practise through (each at its strictest), else DEFAULT_BOOKING_RULES. From the
   * streams, as doctorAcceptsBookings: the read model only names the clinics (a membership younger than its lag is
   * missed, and its clinic's defaults with it, until the read model has it).
   */
  async bookingRules(doctorId: string): Promise<BookingRules> {
    const { state: own } = await this.doctorRules.current(streams.user(doctorId));
    if (own) return own;
    const clinics = await Promise.all((await this.lookups.institutionsOfMember(doctorId)).map(async (id) => (await this.clinicRules.current(streams.institution(id))).state));
    return rulesInEffect(null, clinics);
  }

  /**
   * Throws a conflict naming the date it ends while a clinic's no-show policy (issue 35) stops this patient booking
   * with this doctor: the policy from the clinics' streams (the strictest of them), the misses from the read model.
   */
  async requireNotBlocked(doctorId: string, patientId: string, now: Date): Promise<void> {
    const clinics = await Promise.all((await this.lookups.institutionsOfMember(doctorId)).map(async (id) => (await this.clinicRules.current(streams.institution(id))).state));
    const policy = noShowPolicyOf(clinics.flatMap((clinic) => (clinic.active && clinic.rules ? [clinic.rules] : [])));
    if (!policy) return;
    const missed = await this.lookups.missedAppointmentsSince(patientId, plusMonths(now, -NO_SHOW_WINDOW_MONTHS));
    const until = bookingBlockedUntil(policy, missed, now);
    if (until) throw conflict(API_TEXTS.bookingBlockedByNoShows(String(policy.limit), String(NO_SHOW_WINDOW_MONTHS), until.toISOString().slice(0, 10)));
  }

  /** The doctor's consultation fee in rupees now, from their stream's events since the last look. */
  async doctorFee(doctorId: string): Promise<number> {
    return (await this.fees.current(streams.user(doctorId))).state;
  }

  /** Throws forbidden (403) unless the patient holds a consent to the current privacy notice (their own stream). */
  async requireConsent(patientId: string): Promise<void> {
    await requireConsent(this.eventStore, patientId, 'booking');
  }
}
