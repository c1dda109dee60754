import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import Provider, { type Configuration } from 'oidc-provider';

/** The demo accounts the local provider knows by name; any other e-mail address signs in as a new person. */
export const LOCAL_DEMO_ACCOUNTS: Record<string, string> = {
  'patient@demo.telemed.local': 'Priya Patel',
  'doctor1@demo.telemed.local': 'Dr. Ananya Sharma',
  'admin@demo.telemed.local': 'Institution Admin',
};

export interface LocalOidcProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

const nameFor = (email: string) =>
  LOCAL_DEMO_ACCOUNTS[email] ??
  email
    .split('@')[0]!
    .split(/[._-]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/**
 * A real OpenID Connect provider for development and tests (never in production): the same authorization-code
 * flow as Google, with its own sign-in and consent pages. The login is an e-mail address; no password is checked.
 */
export function createLocalOidcProvider(options: LocalOidcProviderOptions): { provider: Provider; handler: RequestHandler } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    // Put the e-mail and name in the ID token itself, as Google does.
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    findAccount: async (_ctx, id) => {
      const email = id.trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) return undefined;
      // The provider requires the account id to be the login as typed; the address itself is normalised.
      return {
        accountId: id,
        claims: async () => ({ sub: id, email, email_verified: true, name: nameFor(email) }),
      };
    },
    jwks: { keys: [privateKey.export({ format: 'jwk' }) as never] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 600, AuthorizationCode: 120, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  };
  const provider = new Provider(options.issuer, configuration);
  const callback = provider.callback();
  return { provider, handler: (req, res) => void callback(req, res) };
}
