import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { erased, registered } from '../support/spec-events';

const standing = projectionSpec('account_standing');
const CLOSED = '2026-03-03T10:00:00.000Z';
const REOPENED = '2026-03-05T10:00:00.000Z';
const CLOSED_AGAIN = '2026-03-07T10:00:00.000Z';

const deactivated = (user_id: string, reason: string, at = CLOSED) => event('UserDeactivated', { user_id, reason }, { at, actor: { user_id: freshId('admin'), role: 'admin' } });
const closing = (log: Log, e: SpecEvent<'UserDeactivated'>, reactivated_at: string | null = null) => ({
  _id: `${e.data.user_id}:${log.positionOf(e)}`,
  user_id: e.data.user_id,
  deactivated_at: e.metadata.occurred_at,
  reason: e.data.reason,
  reactivated_at,
});

describe('account_standing projection (each closing of an account)', () => {
  it('a deactivation is a closing with its reason, still in force', () => {
    const user = freshId('doctor');
    const e = deactivated(user, 'Registration lapsed');
    return standing
      .given(registered({ user_id: user, account_type: 'doctor' }))
      .when(e)
      .then((log) => ({ account_deactivations: [closing(log, e)] }));
  });

  it('a reactivation ends the closing in force; a later closing is one of its own', () => {
    const user = freshId('doctor');
    const first = deactivated(user, 'Registration lapsed');
    const second = deactivated(user, 'Complaint under review', CLOSED_AGAIN);
    return standing
      .given(first)
      .when(event('UserReactivated', { user_id: user }, { at: REOPENED }), second)
      .then((log) => ({ account_deactivations: [closing(log, first, REOPENED), closing(log, second)] }));
  });

  it("an erasure blanks the reasons and keeps the dates; another person's stay", () => {
    const user = freshId('patient');
    const other = freshId('patient');
    const first = deactivated(user, 'Abusive messages');
    const theirs = deactivated(other, 'Duplicate account');
    return standing
      .given(first, event('UserReactivated', { user_id: user }, { at: REOPENED }), theirs)
      .when(erased(user))
      .then((log) => ({ account_deactivations: [{ ...closing(log, first, REOPENED), reason: ERASED_VALUE }, closing(log, theirs)] }));
  });

  it('a deactivation delivered again does not reopen the closing a reactivation ended', () => {
    const user = freshId('patient');
    const e = deactivated(user, 'Duplicate account');
    return standing
      .given(e)
      .when(event('UserReactivated', { user_id: user }, { at: REOPENED }))
      .deliveredAgain('given')
      .then((log) => ({ account_deactivations: [closing(log, e, REOPENED)] }));
  });

  it('registration, profile and consent events leave the closings as they were', () => {
    const user = freshId('patient');
    return standing
      .given(deactivated(user, 'Duplicate account'))
      .when(registered({ user_id: freshId('patient') }), event('UserProfileUpdated', { user_id: user, name: 'New name' }), event('ClinicalRecordsDestroyed', { user_id: user }))
      .thenUnchanged();
  });
});
