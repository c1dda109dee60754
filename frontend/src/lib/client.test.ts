import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, queryString } from './client';
import { httpClient } from '../admin/providers';
import { sessionStore } from './session';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const patient = { id: 'u', user_id: 'u', name: 'N', email: null, account_type: 'patient' as const };

describe('typed client', () => {
  afterEach(() => {
    sessionStore.clear();
    vi.unstubAllGlobals();
  });

  it("calls a route by its name: the table's method, its path with the parameters encoded, the body as JSON", async () => {
    const seen: Array<{ url: string; method: string; body: unknown; auth: string | null }> = [];
    sessionStore.set({ token: 't', refreshToken: null, user: patient, authProvider: 'google' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        seen.push({ url, method: String(init.method), body: init.body ? JSON.parse(String(init.body)) : undefined, auth: new Headers(init.headers).get('Authorization') });
        return json(200, { appointment_id: 'a/1', status: 'cancelled' });
      }),
    );
    const answer = await call('cancelAppointment', { params: { id: 'a/1' }, body: { reason: 'Travel' } });
    expect(answer.status).toBe('cancelled');
    expect(seen).toEqual([{ url: '/api/v1/appointments/a%2F1/cancel', method: 'POST', body: { reason: 'Travel' }, auth: 'Bearer t' }]);
  });

  it('is typed from the route table (the typecheck fails if a line below compiles)', () => {
    const calls = [
      // @ts-expect-error a route the table does not have
      () => call('noSuchRoute'),
      // @ts-expect-error the body is required
      () => call('requestAppointment'),
      // @ts-expect-error a body of the wrong shape
      () => call('requestAppointment', { body: { slot_id: 'one', notes: 'x' } }),
      // @ts-expect-error the path parameter is required
      () => call('approveAppointment', {}),
    ];
    expect(calls).toHaveLength(4);
  });

  it("throws the server's detail with its status", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(409, { detail: 'This slot is no longer available', code: 'conflict' })));
    await expect(call('requestAppointment', { body: { slot_id: 1, notes: 'Fever' } })).rejects.toMatchObject({ status: 409, detail: 'This slot is no longer available' });
  });

  it('writes a query: repeated arrays, objects as JSON, nothing for what is left out', () => {
    expect(queryString({ a: 'x y', b: undefined, c: [1, 2], filter: { q: 'k' } })).toBe('?a=x+y&c=1&c=2&filter=%7B%22q%22%3A%22k%22%7D');
    expect(queryString({})).toBe('');
  });

  it("the console's client gives a body that is not JSON as it came (a CSV download)", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('time,actor\n2026-12-06,Asha\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })));
    const result = await httpClient('/api/v1/admin/appointments/a1/history?format=csv');
    expect(result.body).toBe('time,actor\n2026-12-06,Asha\n');
  });

  it("the console's dataProvider goes through the same transport: bearer, read-your-writes position, the token's renewal", async () => {
    sessionStore.set({ token: 'old', refreshToken: 'r1', user: patient, authProvider: 'google' });
    const calls: Array<[string, string | null, string | null]> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const headers = new Headers(init.headers);
        calls.push([url, headers.get('Authorization'), headers.get('X-Min-Position')]);
        if (url.endsWith('/auth/refresh')) return json(200, { access_token: 'new', refresh_token: 'r2' });
        if (url.endsWith('/approve')) return json(200, { appointment_id: 'a', status: 'confirmed' }, { 'X-Event-Position': '41' });
        return headers.get('Authorization') === 'Bearer new' ? json(200, [{ id: 'i1' }], { 'Content-Range': 'institutions 0-0/1' }) : json(401, { detail: 'Session expired' });
      }),
    );
    await call('approveAppointment', { params: { id: 'a' } }).catch(() => undefined);
    const result = await httpClient('/api/v1/admin/institutions');
    expect(result.json).toEqual([{ id: 'i1' }]);
    expect(result.headers.get('Content-Range')).toBe('institutions 0-0/1');
    expect(calls.slice(-3)).toEqual([
      ['/api/v1/admin/institutions', 'Bearer old', '41'],
      ['/api/v1/auth/refresh', null, null],
      ['/api/v1/admin/institutions', 'Bearer new', '41'],
    ]);
  });
});
