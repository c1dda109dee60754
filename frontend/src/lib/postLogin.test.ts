import { afterEach, describe, expect, it } from 'vitest';
import { isSafeReturnPath, postLogin } from './postLogin';

describe('the destination kept through sign-in', () => {
  afterEach(() => sessionStorage.clear());
  it('keeps only paths of this app', () => {
    for (const ok of ['/my-appointments', '/confirm-appointment?slot_id=12', '/profile']) expect(isSafeReturnPath(ok)).toBe(true);
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', '/auth/callback?code=x', '/a\nb', 42]) expect(isSafeReturnPath(bad)).toBe(false);
  });
  it('is read once', () => {
    postLogin.save({ path: '/confirm-appointment?slot_id=7', subscribeTo: 'doc-1' });
    expect(postLogin.take()).toEqual({ path: '/confirm-appointment?slot_id=7', subscribeTo: 'doc-1' });
    expect(postLogin.take()).toBeNull();
  });
  it('saving nothing (or an unsafe path) forgets an earlier intent', () => {
    postLogin.save({ path: '/profile' });
    postLogin.save(undefined);
    expect(postLogin.take()).toBeNull();
    postLogin.save({ path: '/profile' });
    postLogin.save({ path: '//evil.example' });
    expect(postLogin.take()).toBeNull();
  });
  it('ignores what was tampered with', () => {
    sessionStorage.setItem('post_login_intent', '{"path":"//evil.example"}');
    expect(postLogin.take()).toBeNull();
    sessionStorage.setItem('post_login_intent', 'not json');
    expect(postLogin.take()).toBeNull();
  });
});
