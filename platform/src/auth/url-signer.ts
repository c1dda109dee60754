import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface UrlGrant {
  /** Unix seconds after which the grant no longer opens anything. */
  exp: number;
  /** base64url HMAC-SHA256 of the resource, the subject and `exp`. */
  sig: string;
}

export interface UrlSignerOptions {
  /** How long a grant lasts at least. */
  ttlSeconds: number;
  /** Expiry is rounded up to a multiple of this, so grants minted close together are the same address (browser caches). */
  bucketSeconds: number;
}

/**
 * Short-lived capability addresses for things an `<img>` must load without a bearer token (a draft's pictures): a
 * grant names one resource and the one subject it was minted for, expires, and is checked by HMAC with a key derived
 * from the server's secret for this purpose only (so it can never be mistaken for, or made into, an access token).
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(
    secret: Uint8Array,
    purpose: string,
    private readonly options: UrlSignerOptions,
  ) {
    if (secret.length < 32) throw new Error('The signing secret must be at least 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `telemed url grant: ${purpose}`, 32));
  }

  private mac(resource: string, subject: string, exp: number): string {
    return createHmac('sha256', this.key).update(`${resource}\n${subject}\n${exp}`).digest('base64url');
  }

  sign(resource: string, subject: string, now: Date): UrlGrant {
    const { ttlSeconds, bucketSeconds } = this.options;
    const exp = Math.ceil((Math.floor(now.getTime() / 1000) + ttlSeconds) / bucketSeconds) * bucketSeconds;
    return { exp, sig: this.mac(resource, subject, exp) };
  }

  /** True when the grant was minted for this resource and subject and has not expired (nor claims to last too long). */
  verify(resource: string, subject: string, grant: { exp?: unknown; sig?: unknown }, now: Date): boolean {
    const exp = typeof grant.exp === 'string' && /^\d{1,12}$/.test(grant.exp) ? Number(grant.exp) : typeof grant.exp === 'number' ? grant.exp : NaN;
    if (!Number.isSafeInteger(exp) || typeof grant.sig !== 'string') return false;
    const nowSeconds = now.getTime() / 1000;
    if (exp <= nowSeconds || exp > nowSeconds + this.options.ttlSeconds + this.options.bucketSeconds) return false;
    const expected = Buffer.from(this.mac(resource, subject, exp));
    const given = Buffer.from(grant.sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
