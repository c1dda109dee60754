import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  API_TEXTS,
  BOOKING_RULE_LIMITS,
  DEFAULT_BOOKING_RULES,
  DEFAULT_HOURS_OF_OPERATION,
  DEFAULT_ROLE_PERMISSIONS,
  INSTITUTION_TEXTS,
  bookingRulesProblem,
  effectiveBookingRules,
  type BookingRules,
  type ClinicBookingRules,
  bookingBlockedUntil,
  noShowPolicyOf,
  plusMonths,
} from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { userDecider, type UserEvent } from '../users/user';
import { institutionDecider, type InstitutionEvent } from '../institutions/institution';
import { clinicRulesFold, doctorRulesFold, rulesInEffect } from './booking-rules';

/** Cancellation and reschedule rules (issue 35): a doctor's own (user stream), a clinic's defaults (its stream). */

const users = deciderSpec(userDecider);
const institutions = deciderSpec(institutionDecider);

const doctorUser: UserEvent = { type: 'UserRegistered', data: { user_id: 'd-1', email: 'd@x.in', name: 'Dr. Rao', account_type: 'doctor', phone_number: null } };
const doctorRegistered: UserEvent = {
  type: 'DoctorRegistered',
  data: { doctor_id: 'd-1', doctor_number: 3, specialty: 'ENT', qualification: 'MS', consultation_fee: 500, appointment_duration_minutes: 30, registration_number: null, medical_council: null },
};
const patient: UserEvent = { type: 'UserRegistered', data: { user_id: 'p-1', email: 'p@x.in', name: 'Priya', account_type: 'patient', phone_number: null } };
const doctor = [doctorUser, doctorRegistered];

const strict: BookingRules = { minNoticeMinutes: 24 * 60, maxReschedules: 0, lateCancellation: 'no_show', autoAcceptMoves: true };
const strictSet: UserEvent = {
  type: 'DoctorBookingRulesSet',
  data: { doctor_id: 'd-1', min_notice_minutes: 1440, max_reschedules: 0, late_cancellation: 'no_show', auto_accept_moves: true },
};

const created: InstitutionEvent = {
  type: 'InstitutionCreated',
  data: {
    institution_id: 'i-1',
    name: 'Sunrise',
    slug: 'sunrise',
    address: 'MG Road',
    phone: '+91 80 4000 1234',
    email: 'c@s.in',
    hours_of_operation: DEFAULT_HOURS_OF_OPERATION,
    role_permissions: DEFAULT_ROLE_PERMISSIONS,
  },
};
const clinic: ClinicBookingRules = { minNoticeMinutes: 360, maxReschedules: 1, lateCancellation: 'cancellation', noShowPolicy: null };
const clinicSet: InstitutionEvent = {
  type: 'InstitutionBookingRulesSet',
  data: { institution_id: 'i-1', min_notice_minutes: 360, max_reschedules: 1, late_cancellation: 'cancellation', no_show_limit: 0, no_show_block_months: 3 },
};

const noticeRefusal = API_TEXTS.bookingRulesNoticeInvalid('10080', '15');
const movesRefusal = API_TEXTS.bookingRulesReschedulesInvalid('5');

describe("a doctor's own booking rules (user decider)", () => {
  it('records every rule as it now stands', () => users(doctor).when({ type: 'SetBookingRules', data: strict }).then([strictSet]));

  it('records the same rules again as nothing, and a change of one rule as all of them', () => {
    users([...doctor, strictSet]).when({ type: 'SetBookingRules', data: strict }).then([]);
    users([...doctor, strictSet])
      .when({ type: 'SetBookingRules', data: { ...strict, autoAcceptMoves: false } })
      .then([{ type: 'DoctorBookingRulesSet', data: { ...strictSet.data, auto_accept_moves: false } as Extract<UserEvent, { type: 'DoctorBookingRulesSet' }>['data'] }]);
  });

  it("gives up the doctor's own rules once (their clinics' apply again); a doctor without rules of their own records nothing", () => {
    users([...doctor, strictSet]).when({ type: 'ClearBookingRules' }).then([{ type: 'DoctorBookingRulesCleared', data: { doctor_id: 'd-1' } }]);
    users([...doctor, strictSet, { type: 'DoctorBookingRulesCleared', data: { doctor_id: 'd-1' } }]).when({ type: 'ClearBookingRules' }).then([]);
    users(doctor).when({ type: 'ClearBookingRules' }).then([]);
    assert.equal(doctorRulesFold.evolve(doctorRulesFold.evolve(null, strictSet), { type: 'DoctorBookingRulesCleared', data: { doctor_id: 'd-1' } }), null);
  });

  it('takes the bounds themselves: no notice and no moves, a week of notice and five moves', () => {
    users(doctor)
      .when({ type: 'SetBookingRules', data: { ...DEFAULT_BOOKING_RULES, minNoticeMinutes: 0, maxReschedules: 0 } })
      .then([{ type: 'DoctorBookingRulesSet', data: { doctor_id: 'd-1', min_notice_minutes: 0, max_reschedules: 0, late_cancellation: 'cancellation', auto_accept_moves: false } }]);
    users(doctor)
      .when({ type: 'SetBookingRules', data: { ...DEFAULT_BOOKING_RULES, minNoticeMinutes: 10080, maxReschedules: 5 } })
      .then([{ type: 'DoctorBookingRulesSet', data: { doctor_id: 'd-1', min_notice_minutes: 10080, max_reschedules: 5, late_cancellation: 'cancellation', auto_accept_moves: false } }]);
  });

  const refused: Array<[string, Partial<BookingRules>, string]> = [
    ['a notice past a week', { minNoticeMinutes: 10095 }, noticeRefusal],
    ['a negative notice', { minNoticeMinutes: -15 }, noticeRefusal],
    ['a notice off the quarter hours', { minNoticeMinutes: 100 }, noticeRefusal],
    ['a notice of a fraction of a minute', { minNoticeMinutes: 15.5 }, noticeRefusal],
    ['six moves', { maxReschedules: 6 }, movesRefusal],
    ['a negative number of moves', { maxReschedules: -1 }, movesRefusal],
    ['a fraction of a move', { maxReschedules: 1.5 }, movesRefusal],
  ];
  for (const [what, change, message] of refused) {
    it(`refuses ${what} (422, naming the bounds)`, () => users(doctor).when({ type: 'SetBookingRules', data: { ...DEFAULT_BOOKING_RULES, ...change } }).thenThrows('invalid', message));
  }

  it('is only a doctor’s: a patient is refused, a deactivated account does not exist', () => {
    users([patient]).when({ type: 'SetBookingRules', data: strict }).thenThrows('forbidden', API_TEXTS.forbiddenRole);
    users([...doctor, { type: 'UserDeactivated', data: { user_id: 'd-1', reason: 'left' } }]).when({ type: 'SetBookingRules', data: strict }).thenThrows('not_found', API_TEXTS.userNotFound);
  });
});

describe("a clinic's default booking rules (institution decider)", () => {
  it('records them, then the same again as nothing', () => {
    institutions([created]).when({ type: 'SetBookingRules', data: clinic }).then([clinicSet]);
    institutions([created, clinicSet]).when({ type: 'SetBookingRules', data: clinic }).then([]);
  });
  it('refuses rules outside the bounds', () => {
    institutions([created]).when({ type: 'SetBookingRules', data: { ...clinic, minNoticeMinutes: 20 } }).thenThrows('invalid', noticeRefusal);
    institutions([created]).when({ type: 'SetBookingRules', data: { ...clinic, maxReschedules: 9 } }).thenThrows('invalid', movesRefusal);
  });
  it('of an institution that does not exist, or is disbanded, is refused', () => {
    institutions([]).when({ type: 'SetBookingRules', data: clinic }).thenThrows('not_found', INSTITUTION_TEXTS.institutionNotFound);
    institutions([created, { type: 'InstitutionDisbanded', data: { institution_id: 'i-1' } }]).when({ type: 'SetBookingRules', data: clinic }).thenThrows('conflict', INSTITUTION_TEXTS.disbanded);
  });
});

describe('the rules in effect for a doctor', () => {
  it("are the doctor's own when set, whatever their clinics say", () => assert.deepEqual(effectiveBookingRules(strict, [clinic]), { rules: strict, source: 'doctor' }));
  it("are the product's without any", () => assert.deepEqual(effectiveBookingRules(null, []), { rules: DEFAULT_BOOKING_RULES, source: 'default' }));
  it("are a clinic's defaults, never auto-accepting moves (the doctor's own choice)", () =>
    assert.deepEqual(effectiveBookingRules(null, [clinic]), { rules: { minNoticeMinutes: 360, maxReschedules: 1, lateCancellation: 'cancellation', autoAcceptMoves: false }, source: 'institution' }));
  it('of several clinics, each rule at its strictest, in any order', () => {
    const other: ClinicBookingRules = { minNoticeMinutes: 60, maxReschedules: 0, lateCancellation: 'no_show', noShowPolicy: null };
    const expected = { rules: { minNoticeMinutes: 360, maxReschedules: 0, lateCancellation: 'no_show', autoAcceptMoves: false }, source: 'institution' };
    assert.deepEqual(effectiveBookingRules(null, [clinic, other]), expected);
    assert.deepEqual(effectiveBookingRules(null, [other, clinic]), expected);
  });

  it('from the kept folds: a disbanded clinic, or one with no defaults, counts for nothing', () => {
    const fold = <S>(f: { initialState(): S; evolve(s: S, e: { type: string; data: unknown }): S }, events: Array<{ type: string; data: unknown }>) => events.reduce(f.evolve, f.initialState());
    const own = fold(doctorRulesFold, [doctorUser, doctorRegistered, strictSet]);
    assert.deepEqual(own, strict);
    assert.equal(fold(doctorRulesFold, doctor), null);
    const active = fold(clinicRulesFold, [created, clinicSet]);
    const disbanded = fold(clinicRulesFold, [created, { ...clinicSet, data: { ...clinicSet.data, min_notice_minutes: 4320 } }, { type: 'InstitutionDisbanded', data: { institution_id: 'i-1' } }]);
    const silent = fold(clinicRulesFold, [created]);
    assert.deepEqual(rulesInEffect(null, [active, disbanded, silent]), { minNoticeMinutes: 360, maxReschedules: 1, lateCancellation: 'cancellation', autoAcceptMoves: false });
    assert.deepEqual(rulesInEffect(null, [disbanded, silent]), DEFAULT_BOOKING_RULES);
    assert.deepEqual(rulesInEffect(own, [active]), strict);
  });

  it('bounds: every quarter hour up to a week and 0 to 5 moves, nothing else', () => {
    const { minNoticeMinutes: notice } = BOOKING_RULE_LIMITS;
    for (let n = notice.min; n <= notice.max; n += notice.step) assert.equal(bookingRulesProblem({ minNoticeMinutes: n, maxReschedules: 2 }), null, `${n}`);
    for (const n of [-15, 1, 14, 16, notice.max + 15, Number.NaN, Infinity]) assert.equal(bookingRulesProblem({ minNoticeMinutes: n, maxReschedules: 2 }), 'notice', `${n}`);
    for (const m of [0, 1, 2, 3, 4, 5]) assert.equal(bookingRulesProblem({ minNoticeMinutes: 120, maxReschedules: m }), null);
    for (const m of [-1, 6, 0.5]) assert.equal(bookingRulesProblem({ minNoticeMinutes: 120, maxReschedules: m }), 'reschedules');
  });
});

describe("a clinic's no-show policy (issue 35)", () => {
  const now = new Date('2027-06-15T10:00:00Z');
  const policy = { limit: 2, blockMonths: 3 };
  it('is off without a clinic that sets one, and the strictest of several', () => {
    assert.equal(noShowPolicyOf([clinic]), null);
    assert.deepEqual(noShowPolicyOf([{ noShowPolicy: { limit: 3, blockMonths: 1 } }, clinic, { noShowPolicy: { limit: 5, blockMonths: 6 } }]), { limit: 3, blockMonths: 6 });
  });
  it('blocks once the limit of misses in the last 12 months is reached, for its months after the latest', () => {
    const missed = ['2027-01-10T04:00:00Z', '2027-05-01T04:00:00Z'];
    assert.deepEqual(bookingBlockedUntil(policy, missed, now), new Date('2027-08-01T04:00:00Z'));
    assert.equal(bookingBlockedUntil(policy, missed.slice(1), now), null, 'under the limit');
    assert.equal(bookingBlockedUntil(policy, missed, new Date('2027-08-01T04:00:00Z')), null, 'the block has ended');
    assert.equal(bookingBlockedUntil(policy, ['2026-06-01T04:00:00Z', '2027-05-01T04:00:00Z'], now), null, 'a miss older than 12 months does not count');
    assert.equal(bookingBlockedUntil(null, missed, now), null, 'no policy');
  });
  it('counts months as the calendar does', () => assert.deepEqual(plusMonths(new Date('2027-01-31T04:00:00Z'), 1), new Date('2027-02-28T04:00:00Z')));
});
