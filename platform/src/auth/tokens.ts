import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { accountTypeSchema, type AccountType } from '@telemed/contracts';

export interface AccessClaims {
  user_id: string;
  account_type: AccountType;
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token expired' : 'Invalid token');
    this.name = 'TokenError';
  }
}

const ALGORITHM = 'HS256';

export interface TokenServiceOptions {
  secret: Uint8Array;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** Signs and verifies access tokens: HS256 pinned, issuer and audience checked, short expiry. */
export class TokenService {
  constructor(private readonly options: TokenServiceOptions) {
    if (options.secret.length < 32) throw new Error('The token secret must be at least 32 bytes');
  }

  async issue(claims: AccessClaims, now: Date = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ account_type: claims.account_type })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.user_id)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.options.ttlSeconds)
      .setJti(randomUUID())
      .sign(this.options.secret);
  }

  async verify(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.options.secret, {
        algorithms: [ALGORITHM],
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const accountType = accountTypeSchema.safeParse(payload.account_type);
      if (!payload.sub || !accountType.success) throw new TokenError('invalid');
      return { user_id: payload.sub, account_type: accountType.data };
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
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
