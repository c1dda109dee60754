import { generateKeyPairSync, randomBytes } from 'node:crypto';
import express, { type RequestHandler, type Router } from 'express';
import type { default as Provider, Configuration } from 'oidc-provider';
import { escapeHtml, standInPage } from '../http/stand-in-page';

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
 * Made on its first request, not at start: its key pair and its modules (oidc-provider, koa, got: half a second) are
 * paid only by a process someone signs in through.
 */
export function createLocalOidcProvider(options: LocalOidcProviderOptions): { handler: RequestHandler; interactions: Router } {
  let made: Promise<{ provider: Provider; callback: ReturnType<Provider['callback']> }> | null = null;
  const providerOnce = () => {
    made ??= import('oidc-provider').then(({ default: OidcProvider }) => {
      const provider = new OidcProvider(options.issuer, providerConfiguration(options));
      return { provider, callback: provider.callback() };
    });
    made.catch(() => (made = null));
    return made;
  };
  const handler: RequestHandler = (req, res, next) => {
    providerOnce().then(({ callback }) => void callback(req, res), next);
  };
  return { handler, interactions: interactionPages(async () => (await providerOnce()).provider) };
}

function providerConfiguration(options: LocalOidcProviderOptions): Configuration {
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
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${INTERACTIONS_PATH}/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 120, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
  };
  return configuration;
}

/** Where the provider's sign-in and consent pages live (mounted beside it). */
export const INTERACTIONS_PATH = '/oidc-login';

/** The local provider's own pages: pick a demo account or type any address, then consent. */
function interactionPages(providerOnce: () => Promise<Provider>): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false, limit: '10kb' }));
  router.get('/:uid', async (req, res, next) => {
    try {
      const provider = await providerOnce();
      const details = await provider.interactionDetails(req, res);
      const action = `${INTERACTIONS_PATH}/${encodeURIComponent(details.uid)}`;
      res.set('Cache-Control', 'no-store');
      if (details.prompt.name === 'login') {
        const accounts = Object.entries(LOCAL_DEMO_ACCOUNTS)
          .map(([email, name]) => `<form method="post" action="${action}/login"><input type="hidden" name="login" value="${escapeHtml(email)}"><button type="submit" class="secondary">${escapeHtml(name)} · ${escapeHtml(email)}</button></form>`)
          .join('');
        res.send(
          standInPage(
            'Sign in',
            `<h1>Sign in (development)</h1><p>This local identity provider stands in for Google while developing. Pick a demo account or type any e-mail address.</p>${accounts}
<form method="post" action="${action}/login"><label for="login">E-mail address</label><input id="login" name="login" type="email" required autocomplete="email"><button type="submit">Sign in</button></form>`,
          ),
        );
        return;
      }
      res.send(
        standInPage(
          'Allow access',
          `<h1>Allow Telemed to sign you in?</h1><p>Telemed will see your e-mail address and your name.</p>
<form method="post" action="${action}/consent"><button type="submit">Continue</button></form>
<form method="post" action="${action}/abort"><button type="submit" class="secondary">Cancel</button></form>`,
        ),
      );
    } catch (error) {
      next(error);
    }
  });
  router.post('/:uid/login', async (req, res, next) => {
    try {
      const provider = await providerOnce();
      const login = String((req.body as { login?: unknown }).login ?? '').trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(login)) {
        res.status(400).send(standInPage('Sign in', '<h1>Not an e-mail address</h1><p>Go back and type an e-mail address.</p>'));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    } catch (error) {
      next(error);
    }
  });
  router.post('/:uid/consent', async (req, res, next) => {
    try {
      const provider = await providerOnce();
      const details = await provider.interactionDetails(req, res);
      const accountId = details.session?.accountId;
      if (!accountId) throw new Error('No signed-in account for this consent');
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      if (!grant) throw new Error('Grant not found');
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      next(error);
    }
  });
  router.post('/:uid/abort', async (req, res, next) => {
    try {
      const provider = await providerOnce();
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled' }, { mergeWithLastSubmission: false });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
