import { afterEach, describe, expect, it, vi } from 'vitest';
import { STALE_READ_RETRIES, request, setSessionExpiredHandler } from './api';
import { sessionStore } from './session';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('the transport', () => {
  afterEach(() => sessionStore.clear());

  it('renews an expired access token once with the refresh token and retries', async () => {
    sessionStore.set({ token: 'old', refreshToken: 'r1', user: { id: 'u', user_id: 'u', name: 'N', email: null, account_type: 'patient' }, authProvider: 'google' });
    const calls: Array<[string, string | null]> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push([url, new Headers(init.headers).get('Authorization')]);
        if (url.endsWith('/auth/refresh')) return json(200, { access_token: 'new', refresh_token: 'r2' });
        return new Headers(init.headers).get('Authorization') === 'Bearer new' ? json(200, { ok: true }) : json(401, { detail: 'Session expired' });
      }),
    );
    expect(await request('/users/me')).toEqual({ ok: true });
    expect(calls.map((c) => c[0])).toEqual(['/api/v1/users/me', '/api/v1/auth/refresh', '/api/v1/users/me']);
    expect(sessionStore.get()?.token).toBe('new');
    expect(sessionStore.get()?.refreshToken).toBe('r2');
  });

  it('when renewal fails, reports the session expired and throws the detail', async () => {
    sessionStore.set({ token: 'old', refreshToken: 'r1', user: { id: 'u', user_id: 'u', name: 'N', email: null, account_type: 'patient' }, authProvider: 'google' });
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.endsWith('/auth/refresh') ? json(401, { detail: 'Session expired' }) : json(401, { detail: 'Session expired' }))));
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    await expect(request('/users/me')).rejects.toMatchObject({ status: 401, detail: 'Session expired' });
    expect(expired).toHaveBeenCalledOnce();
  });

  it("asks again, a few times, a read that came back stale (behind the user's own write), and then takes what it gets", async () => {
    let served = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        served += 1;
        return served < 3 ? json(200, { version: served }, { 'X-Read-Model-Stale': 'true' }) : json(200, { version: served });
      }),
    );
    expect(await request('/blogs/')).toEqual({ version: 3 });
    served = 0;
    vi.stubGlobal('fetch', vi.fn(async () => ((served += 1), json(200, { version: served }, { 'X-Read-Model-Stale': 'true' }))));
    expect(await request('/blogs/')).toEqual({ version: STALE_READ_RETRIES + 1 });
  });

  it('sends X-Min-Position on reads after a write', async () => {
    const seen: Array<string | null> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        seen.push(new Headers(init.headers).get('X-Min-Position'));
        return json(200, {}, { 'X-Event-Position': '42' });
      }),
    );
    await request('/appointments', { method: 'POST', body: {} });
    await request('/appointments/me');
    expect(seen).toEqual([null, '42']);
  });
});
