import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { parse as parseCookies, serialize } from 'cookie';
import type { PendingLogin } from './oidc-client';

const NAME = 'telemed_login';
const MAX_AGE_SECONDS = 600;

/**
 * Keeps a sign-in's state, nonce and PKCE verifier in an encrypted, HttpOnly cookie between the authorization
 * redirect and the code exchange, so any server replica can finish the sign-in.
 */
export class LoginCookie {
  private readonly key: Uint8Array;

  constructor(
    secret: Uint8Array,
    private readonly options: { path: string; secure: boolean },
  ) {
    this.key = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), 'telemed login cookie', 32));
  }

  async create(pending: PendingLogin): Promise<string> {
    const value = await new EncryptJWT({ ...pending })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime(`${MAX_AGE_SECONDS}s`)
      .encrypt(this.key);
    return serialize(NAME, value, { httpOnly: true, sameSite: 'lax', secure: this.options.secure, path: this.options.path, maxAge: MAX_AGE_SECONDS });
  }

  clear(): string {
    return serialize(NAME, '', { httpOnly: true, sameSite: 'lax', secure: this.options.secure, path: this.options.path, maxAge: 0 });
  }

  async read(cookieHeader: string | undefined): Promise<PendingLogin | null> {
    const value = cookieHeader ? parseCookies(cookieHeader)[NAME] : undefined;
    if (!value) return null;
    try {
      const { payload } = await jwtDecrypt(value, this.key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
      const { state, nonce, code_verifier } = payload as Partial<PendingLogin>;
      return state && nonce && code_verifier ? { state, nonce, code_verifier } : null;
    } catch {
      return null;
    }
  }
}
