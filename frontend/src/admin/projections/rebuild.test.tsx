import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AdminContext, Notification, ResourceContextProvider, memoryStore, type DataProvider } from 'react-admin';
import { json } from '../../test/render';
import { REBUILD_POLL_MS, projections } from '.';

type State = 'live' | 'rebuilding';
const row = (state: State, percent = 0) => ({
  id: 'appointment_history',
  name: 'appointment_history',
  version: 3,
  position: 120,
  lag: 0,
  events_per_second: 0,
  state,
  progress: state === 'rebuilding' ? { applied: percent * 10, position: percent * 10, head: 1000, percent } : null,
  failure: null,
  checksum: null,
});

/**
 * The server as the operator meets it: live until Rebuild is pressed, then rebuilding for a few answers with its
 * progress moving, then live again. The page must keep asking on its own (nobody reloads it).
 */
function serverWithRebuild(answersWhileRebuilding: number) {
  let asked = false;
  let answersSince = 0;
  const getList = vi.fn(async () => {
    if (!asked) return { data: [row('live')], total: 1 };
    answersSince += 1;
    if (answersSince > answersWhileRebuilding) return { data: [row('live')], total: 1 };
    return { data: [row('rebuilding', Math.round(((answersSince - 1) / answersWhileRebuilding) * 100))], total: 1 };
  });
  const dataProvider = { getList, getMany: async () => ({ data: [] }), getManyReference: async () => ({ data: [], total: 0 }), getOne: async () => ({ data: row('live') }) } as unknown as DataProvider;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe('/api/v1/admin/projections/appointment_history/rebuild');
      expect(init?.method).toBe('POST');
      asked = true;
      return json(202, { status: 'rebuilding', name: 'appointment_history' });
    }),
  );
  return { dataProvider, getList };
}

describe('the projections page follows a rebuild to its end', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('polls while the projection rebuilds, shows its progress, and is live with Rebuild available again at the end', async () => {
    // Mock timers that also run on their own: the polls come when the test moves the clock, and waits still end.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dataProvider, getList } = serverWithRebuild(3);
    const List = projections.list;
    render(
      <MemoryRouter initialEntries={['/projections']}>
        <AdminContext dataProvider={dataProvider} store={memoryStore()}>
          <ResourceContextProvider value="projections">
            <List />
          </ResourceContextProvider>
          <Notification />
        </AdminContext>
      </MemoryRouter>,
    );
    const tableRow = async () => (await screen.findByText('appointment_history')).closest('tr')!;
    await within(await tableRow()).findByText('Live');
    await user.click(within(await tableRow()).getByRole('button', { name: 'Rebuild' }));
    // Progress moves without a reload: the page asks again on its own.
    await act(() => vi.advanceTimersByTimeAsync(REBUILD_POLL_MS));
    await within(await tableRow()).findByText(/Rebuilding [1-9]\d*%/);
    expect(within(await tableRow()).getByRole<HTMLButtonElement>('button', { name: 'Rebuild' }).disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(REBUILD_POLL_MS * 3));
    await screen.findByText('appointment_history is rebuilt and live');
    await within(await tableRow()).findByText('Live');
    await waitFor(async () => expect(within(await tableRow()).getByRole<HTMLButtonElement>('button', { name: 'Rebuild' }).disabled).toBe(false));
    // And once it is live the page stops asking.
    const calls = getList.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(REBUILD_POLL_MS * 5));
    expect(getList.mock.calls.length).toBe(calls);
  });
});
