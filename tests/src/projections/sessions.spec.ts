import { describe, it } from 'node:test';
import { SPEC_TIME, event, freshId, projectionSpec } from '../support/projection-spec';
import { erased } from '../support/spec-events';

const sessions = projectionSpec('sessions');
const ENDED = '2026-03-02T11:00:00.000Z';

const started = (session_id: string, user_id: string, method: 'google' | 'password' | 'operator' = 'password') =>
  event('SessionStarted', { session_id, user_id, method, refresh_token_hash: 'h'.repeat(64), expires_at: '2026-04-01T09:00:00.000Z' });

describe('sessions projection', () => {
  it('a started session is open, with its user and sign-in method', () => {
    const session = freshId('session');
    const user = freshId('patient');
    return sessions.given().when(started(session, user, 'google')).then({ sessions: [{ _id: session, user_id: user, method: 'google', started_at: SPEC_TIME, ended_at: null, ended_reason: null }] });
  });

  it('an end closes that session only, with when and why', () => {
    const [first, second] = [freshId('session'), freshId('session')];
    const user = freshId('patient');
    return sessions
      .given(started(first, user), started(second, user))
      .when(event('SessionEnded', { session_id: first, user_id: user, reason: 'refresh_token_reused' }, { at: ENDED }))
      .then({
        sessions: [
          { _id: first, user_id: user, method: 'password', started_at: SPEC_TIME, ended_at: ENDED, ended_reason: 'refresh_token_reused' },
          { _id: second, user_id: user, method: 'password', started_at: SPEC_TIME, ended_at: null, ended_reason: null },
        ],
      });
  });

  it('a start delivered again does not reopen a session that ended after it', () => {
    const session = freshId('session');
    const user = freshId('patient');
    return sessions
      .given(started(session, user))
      .when(event('SessionEnded', { session_id: session, user_id: user, reason: 'logout' }, { at: ENDED }))
      .deliveredAgain('given')
      .then({ sessions: [{ _id: session, user_id: user, method: 'password', started_at: SPEC_TIME, ended_at: ENDED, ended_reason: 'logout' }] });
  });

  it('a refresh and account events leave the sessions as they were', () => {
    const session = freshId('session');
    const user = freshId('patient');
    return sessions
      .given(started(session, user))
      .when(event('SessionRefreshed', { session_id: session, refresh_token_hash: 'r'.repeat(64), expires_at: '2026-05-01T09:00:00.000Z' }), erased(user))
      .thenUnchanged();
  });
});
