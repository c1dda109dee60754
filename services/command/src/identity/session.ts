import { match } from 'ts-pattern';
import { conflict, notFound, type DomainEventOf } from '@telemed/contracts';
import { logPositionOf, type Decider } from '../decider';

/** A signed-in session: its refresh token rotates on every use; a reused old one ends the session. */
export type SessionEvent = DomainEventOf<'SessionStarted' | 'SessionRefreshed' | 'SessionEnded'>;

/**
 * The refresh tokens a session has rotated away from, newest first, as a shared list: a refresh adds one cell and
 * copies nothing, so folding a session refreshed n times costs n, not n² (a Set copied per refresh did).
 */
export type PreviousHashes = { readonly hash: string; readonly rest: PreviousHashes } | null;

export function wasPreviousHash(previous: PreviousHashes, hash: string): boolean {
  for (let cell = previous; cell !== null; cell = cell.rest) if (cell.hash === hash) return true;
  return false;
}

export type SessionState =
  | { status: 'none' }
  | {
      status: 'active' | 'ended';
      user_id: string;
      refresh_token_hash: string;
      previous_hashes: PreviousHashes;
      expires_at: string;
      /** The log position of SessionStarted, when folded from the log (the account's later deactivations end it). */
      started_at_position?: number;
    };

export type SessionCommand =
  | { type: 'StartSession'; data: { session_id: string; user_id: string; method: 'google' | 'password' | 'operator' | 'phone'; refresh_token_hash: string; expires_at: string } }
  | { type: 'RefreshSession'; data: { session_id: string; presented_hash: string; next_hash: string; expires_at: string; now: Date } }
  | { type: 'EndSession'; data: { session_id: string; actor_id: string } };

export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) =>
    match(event)
      .with({ type: 'SessionStarted' }, ({ data }): SessionState => ({
        status: 'active',
        user_id: data.user_id,
        refresh_token_hash: data.refresh_token_hash,
        previous_hashes: null,
        expires_at: data.expires_at,
        started_at_position: logPositionOf(event),
      }))
      .with({ type: 'SessionRefreshed' }, ({ data }): SessionState =>
        state.status === 'none'
          ? state
          : {
              ...state,
              refresh_token_hash: data.refresh_token_hash,
              previous_hashes: { hash: state.refresh_token_hash, rest: state.previous_hashes },
              expires_at: data.expires_at,
            },
      )
      .with({ type: 'SessionEnded' }, (): SessionState => (state.status === 'none' ? state : { ...state, status: 'ended' }))
      .exhaustive(),
  decide: (command, state) =>
    match(command)
      .with({ type: 'StartSession' }, ({ data }): SessionEvent[] => {
        if (state.status !== 'none') throw conflict('Session exists');
        return [{ type: 'SessionStarted', data }];
      })
      .with({ type: 'RefreshSession' }, ({ data }): SessionEvent[] => {
        if (state.status === 'none') throw notFound('Session not found');
        if (state.status === 'ended') throw conflict('Session ended');
        if (wasPreviousHash(state.previous_hashes, data.presented_hash)) {
          return [{ type: 'SessionEnded', data: { session_id: data.session_id, user_id: state.user_id, reason: 'refresh_token_reused' } }];
        }
        if (state.refresh_token_hash !== data.presented_hash) throw notFound('Session not found');
        if (new Date(state.expires_at).getTime() <= data.now.getTime()) {
          return [{ type: 'SessionEnded', data: { session_id: data.session_id, user_id: state.user_id, reason: 'expired' } }];
        }
        return [{ type: 'SessionRefreshed', data: { session_id: data.session_id, refresh_token_hash: data.next_hash, expires_at: data.expires_at } }];
      })
      .with({ type: 'EndSession' }, ({ data }): SessionEvent[] => {
        if (state.status === 'none' || state.user_id !== data.actor_id) throw notFound('Session not found');
        if (state.status === 'ended') return [];
        return [{ type: 'SessionEnded', data: { session_id: data.session_id, user_id: state.user_id, reason: 'logout' } }];
      })
      .exhaustive(),
};
