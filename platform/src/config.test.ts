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
    assert.equal(config.trustProxy, false, 'no proxy is trusted unless TRUST_PROXY says so');
    assert.equal(config.METRICS_TOKEN, undefined);
    assert.equal(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN, undefined, 'empty (as compose passes it) is unset');
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
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /Invalid configuration: TRUST_PROXY/);
    assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000' }), /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/);
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN/);
    assert.throws(() => loadConfig({ DATA_MASTER_KEY: 'not-32-bytes' }), /Invalid configuration: DATA_MASTER_KEY must be 32 random bytes/);
    assert.throws(() => loadConfig({ DATA_MASTER_KEY: 'A'.repeat(64), DATA_MASTER_KEY_PREVIOUS: 'short' }), /DATA_MASTER_KEY_PREVIOUS/);
  });
});
