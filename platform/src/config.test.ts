import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from './config';

describe('configuration', () => {
  it('defaults: port 8000, ./data, demo data on, the local identity provider at PUBLIC_URL/oidc', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 8000);
    assert.ok(config.dataDir.endsWith('/data'));
    assert.equal(config.DEMO_DATA, 'on');
    assert.equal(config.publicUrl, 'http://localhost:8000');
    assert.equal(config.identity.kind, 'local');
    assert.equal(config.identity.issuer, 'http://localhost:8000/oidc');
    assert.equal(config.identity.redirectUri, 'http://localhost:8000/auth/callback');
    assert.equal(config.ACCESS_TOKEN_TTL_SECONDS, 3600);
  });

  it('uses Google when a client is configured', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's', PUBLIC_URL: 'https://clinic.example.in/' });
    assert.deepEqual(
      { ...config.identity },
      { kind: 'google', issuer: 'https://accounts.google.com', clientId: 'id.apps.googleusercontent.com', clientSecret: 's', redirectUri: 'https://clinic.example.in/auth/callback' },
    );
    assert.throws(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' }), /GOOGLE_CLIENT_SECRET/);
  });

  it('production refuses the local identity provider, fault injection and bad values with a clear message', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set in production/);
    assert.throws(() => loadConfig({ NODE_ENV: 'production', FAULT_INJECTION: 'crash-after-slot-reserved' }), /FAULT_INJECTION is refused/);
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /Invalid configuration: PORT/);
    assert.throws(() => loadConfig({ TOKEN_SECRET: 'short' }), /TOKEN_SECRET/);
  });
});
