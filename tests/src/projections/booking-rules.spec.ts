import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';

const bookingRules = projectionSpec('booking_rules');

/** Cancellation and reschedule rules (issue 35): a doctor's own and a clinic's defaults, one document each, as last set. */
describe('booking_rules projection', () => {
  it("keeps a doctor's rules as last set, each doctor's apart", () => {
    const doctor = freshId('doctor');
    const other = freshId('doctor');
    const rules = { min_notice_minutes: 1440, max_reschedules: 0, late_cancellation: 'no_show', auto_accept_moves: true } as const;
    return bookingRules
      .given(event('DoctorBookingRulesSet', { doctor_id: doctor, min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false }))
      .when(event('DoctorBookingRulesSet', { doctor_id: doctor, ...rules }), event('DoctorBookingRulesSet', { doctor_id: other, ...rules, auto_accept_moves: false }))
      .then({
        doctor_booking_rules: [
          { _id: doctor, ...rules },
          { _id: other, ...rules, auto_accept_moves: false },
        ],
        institution_booking_rules: [],
      });
  });

  it("forgets a doctor's rules they gave up, and keeps them when set again", () => {
    const [cleared, setAgain] = [freshId('doctor'), freshId('doctor')];
    const rules = { min_notice_minutes: 1440, max_reschedules: 0, late_cancellation: 'no_show', auto_accept_moves: true } as const;
    return bookingRules
      .given(event('DoctorBookingRulesSet', { doctor_id: cleared, ...rules }), event('DoctorBookingRulesSet', { doctor_id: setAgain, ...rules }))
      .when(event('DoctorBookingRulesCleared', { doctor_id: cleared }), event('DoctorBookingRulesCleared', { doctor_id: setAgain }), event('DoctorBookingRulesSet', { doctor_id: setAgain, ...rules }))
      .then({ doctor_booking_rules: [{ _id: setAgain, ...rules }], institution_booking_rules: [] });
  });

  it("keeps a clinic's defaults as last set, and nothing of its other events", () => {
    const clinic = freshId('institution');
    return bookingRules
      .given(event('InstitutionBookingRulesSet', { institution_id: clinic, min_notice_minutes: 60, max_reschedules: 1, late_cancellation: 'cancellation' }))
      .when(
        event('InstitutionBookingRulesSet', { institution_id: clinic, min_notice_minutes: 10080, max_reschedules: 5, late_cancellation: 'no_show' }),
        event('InstitutionDisbanded', { institution_id: clinic }),
      )
      .then({ doctor_booking_rules: [], institution_booking_rules: [{ _id: clinic, min_notice_minutes: 10080, max_reschedules: 5, late_cancellation: 'no_show' }] });
  });
});
