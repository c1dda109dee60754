import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { ensurePrivateDirectory } from '../private-files';
import { createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountTypeSchema, type AccountType } from '@telemed/contracts';
import { UrlSigner, type UrlSignerOptions } from './url-signer';
import { systemClock, type Clock } from '../clock';

export interface AccessClaims {
  user_id: string;
  account_type: AccountType;
  /** The session the token belongs to; logging out ends it. Operator tokens have none. */
  session_id?: string;
  /** When the token was issued (`iat`, seconds): one issued before the account's last deactivation is refused. */
  issued_at?: number;
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token expired' : 'Invalid token');
    this.name = 'TokenError';
  }
}

const ALGORITHM = 'HS256';
const VERIFIED_CACHE_SIZE = 10_000;
/**
 * A socket ticket opens one notification socket within this long. A browser writes a failed socket's address, query
 * and all, to its console: what it writes is a ticket already used or soon expired, never the access token.
 */
export const SOCKET_TICKET_TTL_SECONDS = 30;

export interface TokenServiceOptions {
  secret: Uint8Array;
  issuer: string;
  audience: string;
  ttlSeconds: number;
  /** What "now" is when a call gives no instant of its own: tokens are issued at it and checked against it. */
  clock?: Clock;
}

/** Signs and verifies access tokens: HS256 pinned, issuer and audience checked, short expiry. */
export class TokenService {
  /** Imported once: handing jose raw bytes would import a key on every sign and verify. */
  private readonly key: KeyObject;
  private readonly clock: Clock;

  constructor(private readonly options: TokenServiceOptions) {
    if (options.secret.length < 32) throw new Error('The token secret must be at least 32 bytes');
    this.key = createSecretKey(options.secret);
    this.clock = options.clock ?? systemClock;
  }

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  /** A signer of short-lived addresses under a key derived from this secret for `purpose` alone. */
  urlSigner(purpose: string, options: UrlSignerOptions): UrlSigner {
    return new UrlSigner(this.options.secret, purpose, options);
  }

  async issue(claims: AccessClaims, now: Date = this.clock()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ account_type: claims.account_type, ...(claims.session_id ? { sid: claims.session_id } : {}) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.user_id)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.options.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The audience of socket tickets: never accepted where an access token is asked for (its audience differs). */
  private get ticketAudience(): string {
    return `${this.options.audience}/socket`;
  }

  /** A ticket for one notification socket of this caller's session (`/ws/{userId}?token=<ticket>`). */
  async issueSocketTicket(claims: AccessClaims, now: Date = this.clock()): Promise<{ ticket: string; expires_at: string }> {
    const iat = Math.floor(now.getTime() / 1000);
    const ticket = await new SignJWT({ account_type: claims.account_type, ...(claims.session_id ? { sid: claims.session_id } : {}) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.user_id)
      .setIssuer(this.options.issuer)
      .setAudience(this.ticketAudience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + SOCKET_TICKET_TTL_SECONDS)
      .setJti(randomUUID())
      .sign(this.key);
    return { ticket, expires_at: new Date((iat + SOCKET_TICKET_TTL_SECONDS) * 1000).toISOString() };
  }

  /** Tickets used, until they expire: each opens one socket (in this process). */
  private readonly usedTickets = new Map<string, number>();

  /**
   * What a notification socket authenticates with: a socket ticket, once, or (the seeds' form, for clients other than
   * the app) an access token.
   */
  async verifySocketCredential(token: string, now: Date = this.clock()): Promise<AccessClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], issuer: this.options.issuer, audience: this.ticketAudience, requiredClaims: ['sub', 'exp', 'iat', 'jti'], currentDate: now }));
    } catch (error) {
      if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') return this.verify(token, now);
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      throw new TokenError('invalid');
    }
    for (const [jti, expiresAtMs] of this.usedTickets) {
      if (expiresAtMs > now.getTime()) break;
      this.usedTickets.delete(jti);
    }
    const accountType = accountTypeSchema.safeParse(payload.account_type);
    if (!payload.sub || !accountType.success || this.usedTickets.has(payload.jti!)) throw new TokenError('invalid');
    this.usedTickets.set(payload.jti!, payload.exp! * 1000);
    const claims: AccessClaims = { user_id: payload.sub, account_type: accountType.data, issued_at: payload.iat };
    if (typeof payload.sid === 'string') claims.session_id = payload.sid;
    return claims;
  }

  /** Tokens already verified, until they expire: the signature check is the costliest step of a request. */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  async verify(token: string, now: Date = this.clock()): Promise<AccessClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.expiresAtMs > now.getTime()) return cached.claims;
      this.verified.delete(token);
      throw new TokenError('expired');
    }
    const claims = await this.verifySignature(token, now);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    return claims;
  }

  private async verifySignature(token: string, now: Date): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: ['sub', 'exp', 'iat'],
        currentDate: now,
      });
      const accountType = accountTypeSchema.safeParse(payload.account_type);
      if (!payload.sub || !accountType.success) throw new TokenError('invalid');
      const claims: AccessClaims = { user_id: payload.sub, account_type: accountType.data, issued_at: payload.iat };
      if (typeof payload.sid === 'string') claims.session_id = payload.sid;
      this.verified.set(token, { claims, expiresAtMs: payload.exp! * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      throw new TokenError('invalid');
    }
  }
}

/**
 * The signing secret: TOKEN_SECRET when set; otherwise (never in production) a random one kept in the data
 * directory so that tokens survive a restart of the embedded product.
 */
export function loadTokenSecret(options: { secret?: string; dataDir: string; production: boolean }): Uint8Array {
  if (options.secret) return new TextEncoder().encode(options.secret);
  if (options.production) throw new Error('TOKEN_SECRET must be set in production (at least 32 characters)');
  const file = join(options.dataDir, 'token-secret');
  if (!existsSync(file)) {
    ensurePrivateDirectory(options.dataDir);
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** The token service and its secret, as the configuration says: tokens are issued and checked at `clock`'s time. */
export function tokensFromConfig(config: {
  TOKEN_SECRET?: string;
  dataDir: string;
  production: boolean;
  TOKEN_ISSUER: string;
  TOKEN_AUDIENCE: string;
  ACCESS_TOKEN_TTL_SECONDS: number;
}, clock: Clock = systemClock) {
  const secret = loadTokenSecret({ secret: config.TOKEN_SECRET, dataDir: config.dataDir, production: config.production });
  return {
    secret,
    tokens: new TokenService({ secret, issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE, ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS, clock }),
  };
}
