import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTrustProxy } from './trust-proxy';

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    for (const off of [undefined, '', 'false', 'off', '0', ' ']) assert.equal(parseTrustProxy(off), false);
  });

  it('takes a hop count or named ranges, addresses and CIDRs, as Express does', () => {
    assert.equal(parseTrustProxy('1'), 1);
    assert.deepEqual(parseTrustProxy('loopback'), ['loopback']);
    assert.deepEqual(parseTrustProxy('loopback, 10.0.0.0/8,fd00::/8, 192.168.1.1, 172.16.0.0/255.240.0.0'), ['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.1', '172.16.0.0/255.240.0.0']);
  });

  it('refuses `true` (every client could choose its address) and anything Express would not take', () => {
    for (const bad of ['true', 'everyone', '10.0.0.0/33', '300.1.1.1', 'loopback,nope', '10.0.0.0/8/1']) assert.throws(() => parseTrustProxy(bad), /TRUST_PROXY/, bad);
  });
});
