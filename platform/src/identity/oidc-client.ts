import * as client from 'openid-client';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Only for the local development provider, which is served over plain HTTP on localhost. */
  allowHttp?: boolean;
}

export interface PendingLogin {
  state: string;
  nonce: string;
  code_verifier: string;
}

export interface VerifiedIdentity {
  subject: string;
  email: string;
  email_verified: boolean;
  name: string | null;
}

/**
 * The relying party: builds the authorization URL (PKCE, state, nonce, consent prompt, scopes openid email profile)
 * and exchanges an authorization code for a verified ID token. Discovery runs once, lazily.
 */
export class OidcClient {
  private config: Promise<client.Configuration> | null = null;

  constructor(private readonly options: OidcClientOptions) {}

  private configuration(): Promise<client.Configuration> {
    this.config ??= client
      .discovery(new URL(this.options.issuer), this.options.clientId, this.options.clientSecret, undefined, {
        execute: this.options.allowHttp ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.config = null;
        throw error;
      });
    return this.config;
  }

  async start(): Promise<{ authorization_url: string; pending: PendingLogin }> {
    const config = await this.configuration();
    const pending: PendingLogin = { state: client.randomState(), nonce: client.randomNonce(), code_verifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: 'openid email profile',
      prompt: 'consent',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(pending.code_verifier),
      code_challenge_method: 'S256',
    });
    return { authorization_url: url.href, pending };
  }

  /** Exchanges the code; openid-client checks the ID token's signature, issuer, audience, expiry and nonce. */
  async finish(code: string, pending: PendingLogin): Promise<VerifiedIdentity> {
    const config = await this.configuration();
    const callback = new URL(this.options.redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', pending.state);
    // The browser hands us only the code (the seeds' {token}); with a single configured provider, the issuer of
    // the response (RFC 9207) is by construction the one we sent the browser to.
    if (config.serverMetadata().authorization_response_iss_parameter_supported) callback.searchParams.set('iss', config.serverMetadata().issuer);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims || typeof claims.email !== 'string') throw new Error('The ID token has no e-mail address');
    return {
      subject: claims.sub,
      email: claims.email,
      email_verified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name : null,
    };
  }
}
