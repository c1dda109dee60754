import { API_TEXTS, notFound, type AccountType } from '@telemed/contracts';
import {
  HttpError,
  policies,
  verifyPassword,
  type ApiRouter,
  type LoginCookie,
  type LoginRateLimiter,
  type OidcClient,
  type TokenService,
} from '@telemed/platform';
import { positionHeader, requestContext, systemRequestContext, type CommandDeps } from '../context';
import { findUserIdByEmail, loadUser, registerUser } from '../users/service';
import { accountStanding } from '../users/account-standing';
import type { UserState } from '../users/user';
import { handleUserCommand } from '../users/load-user';
import { endSession, refreshSession, startSession } from './sessions';

export interface IdentityDeps extends CommandDeps {
  tokens: TokenService;
  loginLimiter: LoginRateLimiter;
}

export function roleOf(accountType: AccountType): 'admin' | 'doctor' | 'user' {
  return accountType === 'admin' ? 'admin' : accountType === 'doctor' ? 'doctor' : 'user';
}

export function sessionUser(user: Extract<UserState, { status: 'registered' }>) {
  return {
    id: user.user_id,
    user_id: user.user_id,
    name: user.name,
    email: user.email,
    account_type: user.account_type,
    role: roleOf(user.account_type),
  };
}


export function identityRoutes(api: ApiRouter, deps: IdentityDeps): void {
  api.implement('loginWithPassword', {
    policy: policies.public,
    handler: async ({ body, req }) => {
      const account = body.email.trim().toLowerCase();
      // Charged before the password is checked, so parallel guesses cannot all get through; req.ip honours TRUST_PROXY.
      const attempt = await deps.loginLimiter.attempt(account, req.ip ?? req.socket.remoteAddress ?? 'unknown');
      const userId = await findUserIdByEmail(deps.eventStore, account);
      const user = userId ? await loadUser(deps.eventStore, userId) : null;
      const registered = user?.status === 'registered' && user.active ? user : null;
      const ok = await verifyPassword(registered?.password_hash ?? null, body.password);
      if (!ok || !registered) throw new HttpError(401, API_TEXTS.loginFailed);
      await attempt.succeeded();
      const session = await startSession(deps, registered, 'password', requestContext(req, registered, deps.clock()));
      return {
        body: { status: 'success' as const, ...session.tokens, user: sessionUser(registered) },
        headers: positionHeader(session.position),
      };
    },
  });

  api.implement('refreshTokens', {
    policy: policies.public,
    handler: async ({ body, req }) => {
      const session = await refreshSession(
        deps,
        body.refresh_token,
        // An erased account's standing is inactive: its sessions end as a deactivated one's.
        (userId) => accountStanding(deps.eventStore, userId),
        systemRequestContext(req, deps.clock()),
      );
      return { body: session.tokens, headers: positionHeader(session.position) };
    },
  });

  api.implement('createSocketTicket', {
    policy: policies.anyUser,
    // On the wall clock, as the access tokens it stands in for are checked.
    handler: async ({ auth }) => ({ body: await deps.tokens.issueSocketTicket(auth), headers: { 'Cache-Control': 'no-store' } }),
  });

  api.implement('logout', {
    policy: policies.anyUser,
    handler: async ({ auth, req }) => {
      if (!auth.session_id) return { body: { status: 'success' as const } };
      const result = await endSession(deps.eventStore, auth.session_id, auth.user_id, requestContext(req, auth, deps.clock()));
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('deactivateUser', {
    policy: policies.roles('admin'),
    handler: async ({ params, auth, req }) => {
      if (params.user_id === auth.user_id) throw new HttpError(409, 'You cannot deactivate your own account');
      const result = await handleUserCommand(
        deps.eventStore,
        params.user_id,
        { type: 'DeactivateUser', data: { reason: 'deactivated by an administrator' } },
        requestContext(req, auth, deps.clock()),
      );
      if (result.state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });
}

/** Sign-in with Google (or, in development, the local OpenID Connect provider): the authorization-code flow. */
export function googleRoutes(api: ApiRouter, deps: IdentityDeps & { oidc: OidcClient; loginCookie: LoginCookie }): void {
  api.implement('startGoogleLogin', {
    policy: policies.public,
    handler: async ({ res }) => {
      const started = await deps.oidc.start().catch((error: unknown) => {
        deps.logger.error({ err: error }, 'identity provider unreachable');
        throw new HttpError(503, 'Sign-in is temporarily unavailable. Please try again.');
      });
      const { authorization_url, pending } = started;
      res.append('Set-Cookie', await deps.loginCookie.create(pending));
      res.set('Cache-Control', 'no-store');
      return { body: { authorization_url } };
    },
  });

  api.implement('finishGoogleLogin', {
    policy: policies.public,
    handler: async ({ body, req, res }) => {
      const pending = await deps.loginCookie.read(req.headers.cookie);
      res.append('Set-Cookie', deps.loginCookie.clear());
      if (!pending || (body.state !== undefined && body.state !== pending.state)) throw new HttpError(401, API_TEXTS.googleLoginFailed);
      let identity;
      try {
        identity = await deps.oidc.finish(body.token, pending);
      } catch (error) {
        deps.logger.warn({ err: error }, 'code exchange failed'); // the error's kind and scrubbed message (a claim could be in it)
        throw new HttpError(401, API_TEXTS.googleLoginFailed);
      }
      if (!identity.email_verified) throw new HttpError(401, API_TEXTS.googleLoginFailed);
      const context = systemRequestContext(req, deps.clock());
      let userId = await findUserIdByEmail(deps.eventStore, identity.email);
      // An erased account's address is free again, here as on every other path: nothing that remains may tie the
      // address to the erased account (identity/email.ts), so nothing can tell that it had one.
      if (!userId) {
        // First sign-in: a patient account. Doctors and staff were created with their address beforehand.
        userId = (await registerUser(deps.eventStore, { email: identity.email, name: identity.name ?? identity.email, account_type: 'patient' }, context)).user_id;
      }
      const user = await loadUser(deps.eventStore, userId);
      if (user.status !== 'registered' || !user.active) throw new HttpError(401, API_TEXTS.accountDisabled);
      const session = await startSession(deps, user, 'google', requestContext(req, user, deps.clock()));
      return { body: { status: 'success' as const, ...session.tokens, user: sessionUser(user) }, headers: positionHeader(session.position) };
    },
  });
}
