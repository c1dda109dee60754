import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Admin, Resource, TestMemoryRouter } from 'react-admin';
import type { AdminPermissions } from '@telemed/contracts/admin';
import type { MessageLogEntry } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';
import { json } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { I18nProvider } from '../../i18n/I18nProvider';
import hiErrors from '../../i18n/catalogues/hi/errors.json';
import hiAdmin from '../../i18n/catalogues/hi/admin.json';
import { authProvider, dataProvider, readSide } from '../providers';
import { useConsoleLanguage } from '../i18nProvider';
import { users } from '../users';
import { messages } from '.';

/** A platform admin as GET /admin/permissions answers: the message log is theirs. */
const PLATFORM_ADMIN: AdminPermissions = { user_id: 'op', kind: 'platform_admin', institutions: [], resources: { users: ['list', 'show', 'edit'], messages: ['list', 'edit'] } };

const failed: MessageLogEntry = {
  id: 'm1',
  kind: 'appointment_reminder',
  recipient_id: 'u1',
  to_masked: '+91•••••••210',
  channel: 'whatsapp',
  status: 'failed',
  attempts: 4,
  last_error: 'whatsapp: 131026 message undeliverable',
  appointment_id: 'a1',
  due_at: '2026-11-24T03:30:00Z',
  updated_at: '2026-11-24T04:00:00Z',
};
const delivered: MessageLogEntry = {
  id: 'm2',
  kind: 'sign_in_code',
  recipient_id: null,
  to_masked: 'a•••@example.in',
  channel: 'sms',
  status: 'delivered',
  attempts: 1,
  last_error: null,
  appointment_id: null,
  due_at: '2026-11-23T10:00:00Z',
  updated_at: '2026-11-23T10:00:05Z',
};

/**
 * The console API as the query and command services answer it (ra-data-simple-rest's conventions): the log filtered
 * as asked, and the resend route, which queues the failed message (its write's position in X-Event-Position) or
 * answers 409 when it is no longer failed.
 */
function serve({ resend }: { resend: 'queues' | 'conflict' }) {
  const lists: Array<{ query: URLSearchParams; minPosition: string | null }> = [];
  const resends: string[] = [];
  let queued = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      if (url.pathname === '/api/v1/admin/permissions') return json(200, PLATFORM_ADMIN);
      if (method === 'GET' && url.pathname === '/api/v1/admin/messages') {
        lists.push({ query: url.searchParams, minPosition: new Headers(init?.headers).get('X-Min-Position') });
        const filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as Partial<Record<keyof MessageLogEntry, string>>;
        const log = [queued ? { ...failed, status: 'queued' as const, attempts: 0 } : failed, delivered];
        const data = log.filter((m) => (!filter.status || m.status === filter.status) && (!filter.appointment_id || m.appointment_id === filter.appointment_id));
        return new Response(JSON.stringify(data), { headers: { 'Content-Type': 'application/json', 'Content-Range': `messages 0-${data.length - 1}/${data.length}` } });
      }
      if (method === 'POST' && url.pathname === '/api/v1/admin/messages/m1/resend') {
        resends.push(url.pathname);
        if (resend === 'conflict') return json(409, { detail: 'Only a message that failed can be sent again.', code: 'message_not_failed', values: [] });
        queued = true;
        return new Response(JSON.stringify({ id: 'm1', status: 'queued' }), { headers: { 'Content-Type': 'application/json', 'X-Event-Position': '9001' } });
      }
      return json(404, { detail: 'Not Found', code: 'not_found' });
    }),
  );
  return { lists, resends };
}

function Console() {
  const { i18nProvider, store } = useConsoleLanguage();
  return (
    <Admin dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} requireAuth disableTelemetry>
      <Resource name="users" {...users} />
      <Resource name="messages" {...messages} />
    </Admin>
  );
}

function renderConsole(language: LanguageCode = 'en') {
  return render(
    <I18nProvider language={language}>
      {/* react-admin's own memory router: under Vitest, react-router as the test imports it is another copy than
          react-admin's, whose Admin would not see a MemoryRouter's location and open its first resource. */}
      <TestMemoryRouter initialEntries={['/messages']}>
        <Console />
      </TestMemoryRouter>
    </I18nProvider>,
  );
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'op', user_id: 'op', name: 'Operator', email: null, account_type: 'admin' } });
});

afterEach(async () => {
  cleanup();
  readSide.stop();
  vi.unstubAllGlobals();
  // Forgets the permissions fetched for this session.
  await authProvider.logout(undefined);
});

describe("the console's message log", () => {
  it('lists the messages newest first with their kind, channel, masked recipient (linked to the account), status, attempts and last error; Resend only on the failed one', async () => {
    const { lists } = serve({ resend: 'queues' });
    renderConsole();
    const row = await rowOf('Consultation reminder');
    expect(JSON.parse(lists[0]!.query.get('sort')!)).toEqual(['updated_at', 'DESC']);
    const table = screen.getByRole('table');
    for (const header of ['When', 'Type', 'Channel', 'Recipient', 'Status', 'Attempts', 'Last error']) within(table).getByText(header);
    within(row).getByText('WhatsApp');
    within(row).getByText('Failed');
    within(row).getByText('4');
    within(row).getByText('whatsapp: 131026 message undeliverable');
    expect((await within(row).findByRole('link', { name: '+91•••••••210' })).getAttribute('href')).toBe('/users/u1/show');
    // The time in the viewer's format: a date and a time of day.
    expect(row.textContent).toMatch(/2026/);
    await within(row).findByRole('button', { name: 'Resend' });

    const other = await rowOf('Sign-in code');
    within(other).getByText('SMS');
    within(other).getByText('Delivered');
    within(other).getByText('a•••@example.in');
    expect(within(other).queryByRole('link'), 'no account to open').toBeNull();
    expect(within(other).queryByRole('button', { name: 'Resend' }), 'only a failed message is sent again').toBeNull();
    // The menu names the log.
    expect(screen.getAllByText('Messages').length).toBeGreaterThan(0);
  });

  it('filters by status and by appointment id, as ra-data-simple-rest sends them', async () => {
    const { lists } = serve({ resend: 'queues' });
    const user = userEvent.setup();
    renderConsole();
    await rowOf('Sign-in code');
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(screen.queryByText('Sign-in code')).toBeNull());
    expect(JSON.parse(lists.at(-1)!.query.get('filter')!)).toEqual({ status: 'failed' });
    await rowOf('Consultation reminder');

    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Appointment id' }));
    await user.type(await screen.findByRole('textbox', { name: 'Appointment id' }), 'a1');
    await waitFor(() => expect(JSON.parse(lists.at(-1)!.query.get('filter')!)).toEqual({ status: 'failed', appointment_id: 'a1' }));
    await rowOf('Consultation reminder');
  });

  it('sends a failed message again: a notice, and the list read again from that write on shows it queued', async () => {
    const { lists, resends } = serve({ resend: 'queues' });
    const user = userEvent.setup();
    renderConsole();
    await user.click(await within(await rowOf('Consultation reminder')).findByRole('button', { name: 'Resend' }));
    await screen.findByText('The message is queued to be sent again');
    expect(resends).toEqual(['/api/v1/admin/messages/m1/resend']);
    const row = await rowOf('Consultation reminder');
    await within(row).findByText('Queued');
    expect(within(row).queryByRole('button', { name: 'Resend' })).toBeNull();
    expect(lists.at(-1)!.minPosition, 'the list is read at least as new as the resend').toBe('9001');
  });

  it("says a 409 (the message is no longer failed) in the operator's language, and the row stays as it was", async () => {
    const { resends } = serve({ resend: 'conflict' });
    const user = userEvent.setup();
    renderConsole('hi');
    const row = await rowOf(hiAdmin['admin.messageKindAppointmentReminder']);
    await user.click(await within(row).findByRole('button', { name: hiAdmin['admin.resend'] }));
    await screen.findByText(hiErrors['errors.message_not_failed']);
    expect(resends).toHaveLength(1);
    within(await rowOf(hiAdmin['admin.messageKindAppointmentReminder'])).getByText(hiAdmin['admin.messageStatusFailed']);
  });

  it('is not offered to an institution member (the log is the platform admins\')', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { ...PLATFORM_ADMIN, kind: 'institution', resources: { appointments: ['list', 'show', 'export'] } })));
    expect(await authProvider.canAccess!({ resource: 'messages', action: 'list' })).toBe(false);
    expect(await authProvider.canAccess!({ resource: 'messages', action: 'edit' })).toBe(false);
    expect(await authProvider.canAccess!({ resource: 'appointments', action: 'list' })).toBe(true);
  });
});
