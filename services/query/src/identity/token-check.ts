import { API_TEXTS } from '@telemed/contracts';
import type { ReadStore, TokenCheck } from '@telemed/platform';
import type { SessionDoc, UserDoc } from '../projections/documents';

/**
 * Refuses tokens of deactivated accounts, tokens issued before the account's last deactivation (a reactivation does
 * not bring back what was signed in before it: a stolen or forgotten session stays dead) and ended sessions, from the
 * read models. Beside the signature, a token must agree with what is stored: the account's type (the role every
 * policy reads) and the session's owner. Either can only disagree in a token signed with a leaked secret; checked
 * anyway, so that such a token is not an administrator's.
 */
export function readModelTokenCheck(readStore: ReadStore): TokenCheck {
  const users = readStore.collection<UserDoc>('users');
  const sessions = readStore.collection<SessionDoc>('sessions');
  return async (claims) => {
    const user = await users.get(claims.user_id);
    if (user && user.account_type !== claims.account_type) return API_TEXTS.invalidToken;
    if (user?.active === false) return API_TEXTS.accountDisabled;
    const deactivated = user?.deactivated_at ? Date.parse(user.deactivated_at) : null;
    if (claims.session_id) {
      const session = await sessions.get(claims.session_id);
      if (session && session.user_id !== claims.user_id) return API_TEXTS.invalidToken;
      if (session?.ended_at) return API_TEXTS.sessionEnded;
      if (session && deactivated !== null && Date.parse(session.started_at) <= deactivated) return API_TEXTS.sessionEnded;
    } else if (deactivated !== null && claims.issued_at !== undefined && claims.issued_at * 1000 <= deactivated) {
      return API_TEXTS.sessionEnded; // a token of no session: its second of issue (iat) against the deactivation
    }
    return null;
  };
}
