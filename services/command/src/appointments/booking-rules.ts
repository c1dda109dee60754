import { effectiveBookingRules, type BookingRules, type ClinicBookingRules, type DomainEventOf } from '@telemed/contracts';
import { rulesOf } from '../users/user';
import { clinicRulesOf } from '../institutions/institution';

/**
 * The booking rules (issue 35) as two small folds, kept per stream by BookingChecks (StreamFolds): a doctor's own from
 * their user stream, a clinic's defaults from its stream. Neither holds personal data.
 */

type DoctorRulesEvent = DomainEventOf<'DoctorBookingRulesSet' | 'DoctorBookingRulesCleared'>;
type ClinicRulesEvent = DomainEventOf<'InstitutionCreated' | 'InstitutionDisbanded' | 'InstitutionBookingRulesSet'>;

/** The doctor's own rules, or null while they have set none. */
export const doctorRulesFold = {
  initialState: (): BookingRules | null => null,
  evolve: (state: BookingRules | null, event: { type: string; data: unknown }): BookingRules | null => {
    const known = event as DoctorRulesEvent;
    if (known.type === 'DoctorBookingRulesSet') return rulesOf(known.data);
    return known.type === 'DoctorBookingRulesCleared' ? null : state;
  },
};

/** A clinic's defaults while it is active (a disbanded clinic's apply to nobody). */
export interface ClinicRules {
  active: boolean;
  rules: ClinicBookingRules | null;
}

export const clinicRulesFold = {
  initialState: (): ClinicRules => ({ active: false, rules: null }),
  evolve: (state: ClinicRules, event: { type: string; data: unknown }): ClinicRules => {
    const known = event as ClinicRulesEvent;
    switch (known.type) {
      case 'InstitutionCreated':
        return { ...state, active: true };
      case 'InstitutionDisbanded':
        return { ...state, active: false };
      case 'InstitutionBookingRulesSet':
        return { ...state, rules: clinicRulesOf(known.data) };
      default:
        return state;
    }
  },
};

/** The rules in effect for a doctor, from their own and their clinics' folds (see effectiveBookingRules). */
export function rulesInEffect(own: BookingRules | null, clinics: readonly ClinicRules[]): BookingRules {
  const defaults = clinics.flatMap((clinic) => (clinic.active && clinic.rules ? [clinic.rules] : []));
  return effectiveBookingRules(own, defaults).rules;
}
