import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Admin, Datagrid, List, Resource, TextField } from 'react-admin';
import { writePositions } from '../lib/api';
import { CATCH_UP_TEXTS, createCatchUp } from './catch-up';
import { dataProvider, readSide } from './providers';
import { AdminLayout } from './AdminApp';

describe('catch-up after a stale read', () => {
  afterEach(() => {
    cleanup();
    readSide.stop();
    vi.useRealTimers();
  });

  it('asks again with a growing delay until the read side has caught up, then counts one catch-up', async () => {
    vi.useFakeTimers();
    const asked: number[] = [];
    let ready = false;
    const catchUp = createCatchUp({ probe: async (p) => (asked.push(p), ready), firstDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 });
    catchUp.behind(7);
    expect(catchUp.get()).toEqual({ status: 'updating', caughtUp: 0 });
    await vi.advanceTimersByTimeAsync(100);
    expect(asked).toEqual([7]);
    catchUp.behind(9); // a later write while catching up: that one is awaited now
    await vi.advanceTimersByTimeAsync(199);
    expect(asked).toEqual([7]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual([7, 9]);
    ready = true;
    await vi.advanceTimersByTimeAsync(400);
    expect(catchUp.get()).toEqual({ status: 'current', caughtUp: 1 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toHaveLength(3);
  });

  it('gives up after its bound, says so, and starts again on request', async () => {
    vi.useFakeTimers();
    let asks = 0;
    const catchUp = createCatchUp({ probe: async () => (asks++, false), firstDelayMs: 100, maxDelayMs: 1000, giveUpAfterMs: 5000 });
    catchUp.behind(3);
    await vi.advanceTimersByTimeAsync(6000);
    expect(catchUp.get().status).toBe('behind');
    const asked = asks;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asks, 'no asking after giving up').toBe(asked);
    catchUp.retry();
    expect(catchUp.get().status).toBe('updating');
    catchUp.reached(3); // any current read of that position ends it
    expect(catchUp.get()).toEqual({ status: 'current', caughtUp: 1 });
  });

  it('the console shows the stale list marked as still updating, then the current one without a reload', async () => {
    writePositions.note(42); // the user's own write, not yet in the read models
    let projected = false;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
        calls.push(`${url.pathname} ${headers.get('X-Min-Position') ?? '-'}`);
        // As the query service answers: stale while its read models have not reached X-Min-Position.
        const stale = Number(headers.get('X-Min-Position') ?? 0) > (projected ? 42 : 41);
        const common = { 'Content-Type': 'application/json', ...(stale ? { 'X-Read-Model-Stale': 'true' } : {}) };
        if (url.pathname === '/api/v1/admin/permissions') return new Response(JSON.stringify({ kind: 'platform', resources: {} }), { headers: common });
        const rows = [{ id: 'u1', name: projected ? 'Meera Iyer (deactivated)' : 'Meera Iyer' }];
        return new Response(JSON.stringify(rows), { headers: { ...common, 'Content-Range': 'users 0-0/1' } });
      }),
    );
    render(
      <MemoryRouter initialEntries={['/users']}>
        <Admin dataProvider={dataProvider} layout={AdminLayout} disableTelemetry>
          <Resource
            name="users"
            list={
              <List>
                <Datagrid bulkActionButtons={false}>
                  <TextField source="name" />
                </Datagrid>
              </List>
            }
          />
        </Admin>
      </MemoryRouter>,
    );
    await screen.findByText('Meera Iyer');
    expect((await screen.findByTestId('still-updating')).textContent).toContain(CATCH_UP_TEXTS.updating);
    await act(async () => {
      projected = true;
    });
    await screen.findByText('Meera Iyer (deactivated)');
    await waitFor(() => expect(screen.queryByTestId('still-updating')).toBeNull());
    expect(calls.some((c) => c === '/api/v1/admin/permissions 42'), `asked the read side again: ${calls.join(', ')}`).toBe(true);
  });
});
