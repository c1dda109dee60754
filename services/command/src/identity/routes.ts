import {
  API_TEXTS,
  loginResponseSchema,
  notFound,
  refreshRequestSchema,
  streams,
  supportLoginRequestSchema,
  tokensSchema,
  z,
  type AccountType,
} from '@telemed/contracts';
import { HttpError, policies, verifyPassword, type ApiRouter, type LoginRateLimiter, type TokenService } from '@telemed/platform';
import { handleCommand } from '../decider';
import { positionHeader, requestContext, systemRequestContext, type CommandDeps } from '../context';
import { findUserIdByEmail, loadUser } from '../users/service';
import { userDecider, type UserState } from '../users/user';
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
  api.route({
    method: 'post',
    path: '/auth/support',
    summary: 'Email and password sign-in for admins and support staff',
    tags: ['auth'],
    policy: policies.public,
    body: supportLoginRequestSchema,
    response: loginResponseSchema,
    errors: [401, 429],
    handler: async ({ body, req }) => {
      const account = body.email.trim().toLowerCase();
      await deps.loginLimiter.before(account, req.ip ?? 'unknown');
      const userId = await findUserIdByEmail(deps.eventStore, account);
      const user = userId ? await loadUser(deps.eventStore, userId) : null;
      const registered = user?.status === 'registered' && user.active ? user : null;
      const ok = await verifyPassword(registered?.password_hash ?? null, body.password);
      if (!ok || !registered) {
        await deps.loginLimiter.failed(account);
        throw new HttpError(401, API_TEXTS.loginFailed);
      }
      await deps.loginLimiter.succeeded(account);
      const session = await startSession(deps, registered, 'password', requestContext(req, registered, deps.clock()));
      return {
        body: { status: 'success' as const, ...session.tokens, user: sessionUser(registered) },
        headers: positionHeader(session.position),
      };
    },
  });

  api.route({
    method: 'post',
    path: '/auth/refresh',
    summary: 'Exchange a refresh token for new tokens (the refresh token rotates)',
    tags: ['auth'],
    policy: policies.public,
    body: refreshRequestSchema,
    response: tokensSchema,
    errors: [401],
    handler: async ({ body, req }) => {
      const session = await refreshSession(
        deps,
        body.refresh_token,
        async (userId) => {
          const user = await loadUser(deps.eventStore, userId);
          return user.status === 'registered' ? { user_id: user.user_id, account_type: user.account_type, active: user.active } : null;
        },
        systemRequestContext(req, deps.clock()),
      );
      return { body: session.tokens, headers: positionHeader(session.position) };
    },
  });

  api.route({
    method: 'post',
    path: '/auth/logout',
    summary: "End the caller's session: its tokens stop working",
    tags: ['auth'],
    policy: policies.anyUser,
    response: z.object({ status: z.literal('success') }),
    handler: async ({ auth, req }) => {
      if (!auth.session_id) return { body: { status: 'success' as const } };
      const result = await endSession(deps.eventStore, auth.session_id, auth.user_id, requestContext(req, auth, deps.clock()));
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });

  api.route({
    method: 'delete',
    path: '/admin/users/:user_id',
    summary: 'Deactivate an account (platform admins); its tokens stop working',
    tags: ['operations'],
    policy: policies.roles('admin'),
    params: z.object({ user_id: z.string().min(1).max(64) }),
    response: z.object({ status: z.literal('success') }),
    errors: [404],
    handler: async ({ params, auth, req }) => {
      if (params.user_id === auth.user_id) throw new HttpError(409, 'You cannot deactivate your own account');
      const result = await handleCommand(
        deps.eventStore,
        streams.user(params.user_id),
        userDecider,
        { type: 'DeactivateUser', data: { reason: 'deactivated by an administrator' } },
        requestContext(req, auth, deps.clock()),
      );
      if (result.state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });
}
