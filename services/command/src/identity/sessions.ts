import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { streams, type AccountType } from '@telemed/contracts';
import { HttpError, type EventStore, type TokenService } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { sessionDecider } from './session';

/** How long a session may be refreshed without signing in again: a long clinic day and then some. */
export const REFRESH_TOKEN_TTL_SECONDS = 14 * 24 * 3600;

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

async function issue(tokens: TokenService, user: { user_id: string; account_type: AccountType }, sessionId: string, secret: string, now: Date): Promise<IssuedTokens> {
  return {
    access_token: await tokens.issue({ ...user, session_id: sessionId }, now),
    refresh_token: `${sessionId}.${secret}`,
    token_type: 'bearer',
    expires_in: tokens.ttlSeconds,
  };
}

/** Starts a session: a short-lived access token and a refresh token (stored only as a digest). */
export async function startSession(
  deps: { eventStore: EventStore; tokens: TokenService },
  user: { user_id: string; account_type: AccountType },
  method: 'google' | 'password' | 'operator' | 'phone',
  context: CommandContext,
) {
  const session_id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  const result = await handleCommand(
    deps.eventStore,
    streams.session(session_id),
    sessionDecider,
    {
      type: 'StartSession',
      data: {
        session_id,
        user_id: user.user_id,
        method,
        refresh_token_hash: digest(secret),
        expires_at: new Date(context.now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      },
    },
    context,
  );
  return { tokens: await issue(deps.tokens, user, session_id, secret, context.now), position: result.position };
}

const invalidRefresh = () => new HttpError(401, 'Session expired');

/**
 * Each event store's kept folds of sessions (StreamFolds): a session stays active while it is refreshed (its expiry
 * slides), so its stream grows by one event per refresh for as long as the person keeps using it; a refresh reads
 * only the events since the last one instead of the whole stream. The state holds ids and token digests only.
 */
const sessionFoldsOf = foldsPerEventStore(sessionDecider);

type UserLookup = (userId: string) => Promise<{ user_id: string; account_type: AccountType; active: boolean; deactivated_at_position?: number } | null>;

/**
 * The session's account if it may still renew the session: active, and not deactivated since the session started
 * (reactivating the account does not bring the session back); otherwise null.
 */
async function accountRenewing(lookupUser: UserLookup, session: { user_id: string; started_at_position?: number }) {
  const user = await lookupUser(session.user_id);
  if (!user || !user.active) return null;
  if (user.deactivated_at_position !== undefined && (session.started_at_position ?? 0) < user.deactivated_at_position) return null;
  return user;
}

/** Exchanges a refresh token for new tokens, rotating it; a reused old token ends the whole session. */
export async function refreshSession(
  deps: { eventStore: EventStore; tokens: TokenService },
  refreshToken: string,
  lookupUser: UserLookup,
  context: CommandContext,
) {
  const parts = refreshToken.split('.');
  const [sessionId, secret] = parts;
  if (parts.length !== 2 || !sessionId || !secret || !/^[0-9a-f-]{36}$/.test(sessionId)) throw invalidRefresh();
  const stream = streams.session(sessionId);
  // Whose session it is, and whether they may still use it, before anything is written: a refresh refused for the
  // account (closed, or deactivated since the session started) leaves the session's stream as it was.
  let known;
  try {
    known = (await sessionFoldsOf(deps.eventStore).current(stream)).state;
  } catch {
    throw invalidRefresh();
  }
  if (known.status === 'none' || !(await accountRenewing(lookupUser, known))) throw invalidRefresh();
  const nextSecret = randomBytes(32).toString('base64url');
  let result;
  try {
    result = await handleCommand(
      deps.eventStore,
      stream,
      sessionDecider,
      {
        type: 'RefreshSession',
        data: {
          session_id: sessionId,
          presented_hash: digest(secret),
          next_hash: digest(nextSecret),
          expires_at: new Date(context.now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
          now: context.now,
        },
      },
      context,
      // Loaded on every attempt: a retry after a concurrent refresh reads only what that one wrote.
      () => sessionFoldsOf(deps.eventStore).current(stream),
    );
  } catch {
    throw invalidRefresh();
  }
  if (result.state.status !== 'active') throw invalidRefresh();
  // Asked again after the append: a deactivation that landed in between still refuses the new tokens.
  const user = await accountRenewing(lookupUser, result.state);
  if (!user) throw invalidRefresh();
  return { tokens: await issue(deps.tokens, user, sessionId, nextSecret, context.now), position: result.position };
}

/** Ends the session (sign-out): from the kept fold, not every refresh of a session used for days. */
export async function endSession(eventStore: EventStore, sessionId: string, actorId: string, context: CommandContext) {
  const stream = streams.session(sessionId);
  return handleCommand(eventStore, stream, sessionDecider, { type: 'EndSession', data: { session_id: sessionId, actor_id: actorId } }, context, () => sessionFoldsOf(eventStore).current(stream));
}
