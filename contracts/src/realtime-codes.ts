/** Close codes and limits of the real-time channel, without a schema library, so the frontend can import them. */

/** Close codes and reasons. 4001–4005 are the seeds' authentication errors (the client does not reconnect). */
export const WS_CLOSE = {
  tokenRequired: { code: 4001, reason: 'Authentication token is required' },
  invalidToken: { code: 4002, reason: 'Invalid authentication token' },
  userMismatch: { code: 4003, reason: 'User ID mismatch or invalid token payload' },
  userNotFound: { code: 4004, reason: 'User not found' },
  authFailed: { code: 4005, reason: 'Authentication failed' },
  idle: { code: 4008, reason: 'No heartbeat' },
  /** More sockets of one user than allowed: the oldest is closed (the client does not reconnect). */
  tooManySockets: { code: 4009, reason: 'Too many connections for this user' },
  /** The client sent faster than allowed. */
  rateLimited: { code: 1008, reason: 'Message rate limit exceeded' },
  /** The client did not read what was sent to it. */
  tooSlow: { code: 1008, reason: 'Client is not reading its messages' },
  shutdown: { code: 1001, reason: 'Server shutting down' },
  userInitiated: { code: 1000, reason: 'User initiated disconnect' },
} as const;

export const WS_AUTH_CLOSE_CODES: readonly number[] = [4001, 4002, 4003, 4004, 4005];
/** Codes after which the client must not reconnect on its own. */
export const WS_TERMINAL_CLOSE_CODES: readonly number[] = [...WS_AUTH_CLOSE_CODES, WS_CLOSE.tooManySockets.code];

/**
 * The largest frame a client may send: a heartbeat is a few dozen bytes, a consultation's WebRTC offer or answer a
 * few kilobytes (its SDP is capped at 12 000 characters).
 */
export const WS_MAX_INCOMING_BYTES = 16 * 1024;

/** Largest session description (SDP) a client may relay; real offers are a few kilobytes. */
export const SIGNAL_SDP_MAX_LENGTH = 12_000;
