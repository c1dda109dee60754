import { z } from '../zod';
import {
  authorizeResponseSchema,
  googleLoginRequestSchema,
  loginResponseSchema,
  refreshRequestSchema,
  socketTicketResponseSchema,
  supportLoginRequestSchema,
  tokensSchema,
} from '../api';
import { defineRoutes } from './define';

const successSchema = z.object({ status: z.literal('success') });

/** The identity area's routes: schemas and answers (their names, methods and paths are in paths/identity.ts). */
export const identityRoutes = defineRoutes({
  loginWithPassword: {
    summary: 'Email and password sign-in for admins and support staff',
    tags: ['auth'],
    body: supportLoginRequestSchema,
    response: loginResponseSchema,
    errors: [401, 429],
  },
  refreshTokens: {
    summary: 'Exchange a refresh token for new tokens (the refresh token rotates)',
    tags: ['auth'],
    body: refreshRequestSchema,
    response: tokensSchema,
    errors: [401],
  },
  createSocketTicket: {
    summary:
      "A ticket for one notification socket of the caller's session, valid for seconds and once: the app opens /ws/{userId}?token=<ticket>, so no access token is ever in a socket's address (which browsers print when a socket drops)",
    tags: ['auth'],
    response: socketTicketResponseSchema,
  },
  logout: {
    summary: "End the caller's session: its tokens stop working",
    tags: ['auth'],
    response: successSchema,
  },
  startGoogleLogin: {
    summary: 'Start a Google sign-in: the authorization URL to send the browser to (state, nonce and PKCE kept in a cookie)',
    tags: ['auth'],
    response: authorizeResponseSchema,
    errors: [503],
  },
  finishGoogleLogin: {
    summary: 'Finish a Google sign-in: exchange the authorization code, verify the ID token, sign the user in (created on first sign-in)',
    tags: ['auth'],
    body: googleLoginRequestSchema,
    response: loginResponseSchema,
    errors: [401, 403],
  },
  deactivateUser: {
    summary: 'Deactivate an account (platform admins); its tokens stop working',
    tags: ['operations'],
    params: z.object({ user_id: z.string().min(1).max(64) }),
    response: successSchema,
    errors: [404, 409],
  },
});
