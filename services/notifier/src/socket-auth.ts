import { API_TEXTS, WS_CLOSE } from '@telemed/contracts';
import { TokenError, type Logger, type ReadCollection, type TokenCheck, type TokenService } from '@telemed/platform';

type Close = { code: number; reason: string };

/** Who a socket's credential says it is: a refusal with the close code the seeds give, or the session it belongs to. */
export type SocketAuthentication = { refused: Close } | { sessionId: string | null };

/**
 * Checks a socket's single-use ticket (or access token) for the user in its path, that the user exists and is active,
 * and that the session may still be used: before anything else happens on the socket.
 */
export function createSocketAuthenticator(deps: {
  tokens: TokenService;
  users: ReadCollection<{ _id: string; active?: boolean }>;
  checkToken?: TokenCheck;
  logger: Logger;
}): (userId: string, token: string | null) => Promise<SocketAuthentication> {
  return async (userId, token) => {
    if (!token) return { refused: WS_CLOSE.tokenRequired };
    try {
      const claims = await deps.tokens.verifySocketCredential(token);
      if (claims.user_id !== userId) return { refused: WS_CLOSE.userMismatch };
      const user = await deps.users.get(userId);
      if (!user || user.active === false) return { refused: WS_CLOSE.userNotFound };
      const refusal = await deps.checkToken?.(claims);
      if (refusal) return { refused: refusal === API_TEXTS.accountDisabled ? WS_CLOSE.userNotFound : WS_CLOSE.invalidToken };
      return { sessionId: claims.session_id ?? null };
    } catch (error) {
      if (error instanceof TokenError) return { refused: WS_CLOSE.invalidToken };
      deps.logger.error({ err: error }, 'socket authentication failed');
      return { refused: WS_CLOSE.authFailed };
    }
  };
}
