import { z } from './zod';
import { BOOKING_RULE_LIMITS, LATE_CANCELLATION_KINDS, NO_SHOW_POLICY_LIMITS, NO_SHOW_WINDOW_MONTHS } from './booking-rules';

/** The booking rules (issue 35) on the wire and in events: snake_case, within BOOKING_RULE_LIMITS. */

const { minNoticeMinutes: notice, maxReschedules: moves } = BOOKING_RULE_LIMITS;

/** The fields a doctor's and a clinic's rules share, as events and requests hold them. */
export const bookingRuleFields = {
  min_notice_minutes: z
    .number()
    .int()
    .min(notice.min)
    .max(notice.max)
    .multipleOf(notice.step)
    .openapi({ description: `How long before its start a patient may still move an appointment, in minutes (${notice.min} to ${notice.max}, in steps of ${notice.step})` }),
  max_reschedules: z.number().int().min(moves.min).max(moves.max).openapi({ description: `How many times one appointment may be moved (${moves.min} to ${moves.max})` }),
  late_cancellation: z.enum(LATE_CANCELLATION_KINDS).openapi({ description: "What a patient's cancellation inside the notice counts as" }),
};

/** A doctor's own rules: the shared ones, and whether a confirmed appointment the patient moves stays confirmed. */
export const doctorBookingRulesRequestSchema = z
  .strictObject({ ...bookingRuleFields, auto_accept_moves: z.boolean() })
  .openapi('DoctorBookingRulesRequest');

const { limit, blockMonths } = NO_SHOW_POLICY_LIMITS;
/** A clinic's no-show policy (issue 35): `no_show_limit` 0 (the default) leaves it off. */
export const noShowPolicyFields = {
  no_show_limit: z
    .number()
    .int()
    .min(0)
    .max(limit.max)
    .openapi({ description: `How many missed appointments in ${NO_SHOW_WINDOW_MONTHS} months stop a patient booking with the clinic's doctors (0: never; up to ${limit.max})` }),
  no_show_block_months: z
    .number()
    .int()
    .min(blockMonths.min)
    .max(blockMonths.max)
    .openapi({ description: `For how many months after the latest of them (${blockMonths.min} to ${blockMonths.max})` }),
};

/** A clinic's defaults for the doctors who practise through it (auto-accepting moves is each doctor's own choice), and its no-show policy (off when left out). */
export const institutionBookingRulesRequestSchema = z
  .strictObject({ ...bookingRuleFields, no_show_limit: noShowPolicyFields.no_show_limit.optional(), no_show_block_months: noShowPolicyFields.no_show_block_months.optional() })
  .openapi('InstitutionBookingRulesRequest');

/** A doctor's rules in effect, and where they come from: their own, their clinics' defaults, or the product's. */
export const doctorBookingRulesSchema = z
  .object({
    doctor_id: z.string(),
    ...bookingRuleFields,
    auto_accept_moves: z.boolean(),
    source: z.enum(['doctor', 'institution', 'default']),
  })
  .openapi('DoctorBookingRules');

/** A clinic's defaults as set, or the product's while it has set none (`set` false). */
export const institutionBookingRulesSchema = z
  .object({ institution_id: z.string(), ...bookingRuleFields, ...noShowPolicyFields, set: z.boolean() })
  .openapi('InstitutionBookingRules');

export type DoctorBookingRulesView = z.infer<typeof doctorBookingRulesSchema>;
export type InstitutionBookingRulesView = z.infer<typeof institutionBookingRulesSchema>;
