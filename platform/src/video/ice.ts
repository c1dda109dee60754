import { createHmac } from 'node:crypto';
import { iceServersSchema, type IceServer } from '@telemed/contracts';

/** Parses `ICE_SERVERS` (a JSON array of RTCIceServer); a clear message when it is not one. */
export function parseIceServers(text: string): IceServer[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('ICE_SERVERS must be a JSON array of {urls, username?, credential?}');
  }
  const parsed = iceServersSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`ICE_SERVERS: ${issue?.message ?? 'invalid'} at ${issue?.path.join('.') ?? ''}`);
  }
  return parsed.data;
}

const isTurn = (url: string) => url.startsWith('turn:') || url.startsWith('turns:');

/**
 * coturn's REST scheme (`use-auth-secret`): username `<expiry unix seconds>:<user>`, credential
 * base64(HMAC-SHA1(secret, username)); the TURN server refuses it after the expiry.
 */
export function turnCredentials(secret: string, user: string, expiresAt: Date): { username: string; credential: string } {
  const username = `${Math.floor(expiresAt.getTime() / 1000)}:${user}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/** The ICE servers for one participant: TURN entries without their own credentials get time-limited ones when a secret is set. */
export function iceServersFor(servers: IceServer[], turnSecret: string | undefined, user: string, expiresAt: Date): IceServer[] {
  return servers.map((server) => {
    const urls = Array.isArray(server.urls) ? server.urls : [server.urls];
    if (!turnSecret || server.username || !urls.some(isTurn)) return server;
    return { ...server, ...turnCredentials(turnSecret, user, expiresAt) };
  });
}
