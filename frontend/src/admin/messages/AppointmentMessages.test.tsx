import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Admin, Resource, TestMemoryRouter } from 'react-admin';
import type { AdminPermissions } from '@telemed/contracts/admin';
import type { ApiRoutes, MessageLogEntry } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';
import { json } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { I18nProvider } from '../../i18n/I18nProvider';
import hiAdmin from '../../i18n/catalogues/hi/admin.json';
import { authProvider, dataProvider, readSide } from '../providers';
import { useConsoleLanguage } from '../i18nProvider';
import { appointments } from '../appointments';
import { users } from '../users';
import { messages } from '.';

/** A clinic's member who may read its appointments, as GET /admin/permissions answers since issue 34. */
const CLINIC_MEMBER: AdminPermissions = {
  user_id: 'lata',
  kind: 'institution',
  institutions: [{ id: 'i1', name: 'Lotus Clinic', role: 'ADMIN', is_institution_admin: true, permissions: ['read', 'write', 'delete', 'manage_users'] }],
  resources: { institutions: ['list', 'show', 'edit'], appointments: ['list', 'show', 'export'], messages: ['show'] },
};
/** The same member before the message log was theirs to see (or a member without the right to read appointments' messages). */
const WITHOUT_MESSAGES: AdminPermissions = { ...CLINIC_MEMBER, resources: { institutions: ['list', 'show'], appointments: ['list', 'show', 'export'] } };
const PLATFORM_ADMIN: AdminPermissions = {
  user_id: 'op',
  kind: 'platform_admin',
  institutions: [],
  resources: { institutions: ['list', 'show'], appointments: ['list', 'show', 'export'], users: ['list', 'show', 'edit'], messages: ['list', 'show', 'edit'] },
};

const appointment: ApiRoutes['getAdminAppointment']['response'] = {
  id: 'a1',
  patient_id: 'u1',
  patient_name: 'Meera Iyer',
  doctor_id: 'd1',
  doctor_name: 'Dr. Ananya Sharma',
  doctor_specialty: 'General Physician',
  institution_id: 'i1',
  start: '2026-11-24T04:30:00Z',
  end: '2026-11-24T05:00:00Z',
  slot_date: '2026-11-24',
  start_time: '10:00',
  end_time: '10:30',
  status: 'confirmed',
  status_reason: null,
  notes: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-21T10:00:00Z',
};

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
  kind: 'appointment_approved',
  recipient_id: 'u1',
  to_masked: 'm•••@example.in',
  channel: 'email',
  status: 'delivered',
  attempts: 1,
  last_error: null,
  appointment_id: 'a1',
  due_at: '2026-11-21T10:00:00Z',
  updated_at: '2026-11-21T10:00:05Z',
};

/**
 * The console API as the query service answers it: the caller's permissions, the appointment, its history, its
 * institution (the page's reference), and the message log filtered by appointment, newest first, as ra-data-simple-rest
 * asks for it.
 */
function serve(permissions: AdminPermissions, log: MessageLogEntry[] | 'down' = [failed, delivered]) {
  const messageReads: URLSearchParams[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/admin/permissions') return json(200, permissions);
      if (url.pathname === '/api/v1/admin/appointments/a1') return json(200, appointment);
      if (url.pathname === '/api/v1/admin/appointments/a1/history') return json(200, { appointment_id: 'a1', events: [] });
      if (url.pathname === '/api/v1/admin/institutions') return json(200, [{ id: 'i1', name: 'Lotus Clinic' }]);
      if (url.pathname === '/api/v1/admin/messages') {
        messageReads.push(url.searchParams);
        if (log === 'down') return json(503, { detail: 'Service Unavailable' });
        const filter = JSON.parse(url.searchParams.get('filter') ?? '{}') as { appointment_id?: string };
        const data = log.filter((m) => m.appointment_id === filter.appointment_id).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
        return new Response(JSON.stringify(data), {
          headers: { 'Content-Type': 'application/json', 'Content-Range': `messages 0-${Math.max(data.length - 1, 0)}/${data.length}` },
        });
      }
      return json(404, { detail: 'Not Found', code: 'not_found' });
    }),
  );
  return { messageReads };
}

function Console() {
  const { i18nProvider, store } = useConsoleLanguage();
  return (
    <Admin dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} requireAuth disableTelemetry>
      <Resource name="appointments" {...appointments} />
      <Resource name="users" {...users} />
      <Resource name="messages" {...messages} />
    </Admin>
  );
}

function renderAppointment(language: LanguageCode = 'en') {
  return render(
    <I18nProvider language={language}>
      <TestMemoryRouter initialEntries={['/appointments/a1/show']}>
        <Console />
      </TestMemoryRouter>
    </I18nProvider>,
  );
}

const section = () => screen.findByTestId('appointment-messages');
const rowOf = async (text: string) => (await within(await section()).findByText(text)).closest('tr')!;
/** A phone's width: MUI's `down('md')` asks for a max-width, which matches. */
const onAPhone = () =>
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: /max-width/.test(query), media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }));

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'lata', user_id: 'lata', name: 'Lata Rao', email: null, account_type: 'patient' } });
});

afterEach(async () => {
  cleanup();
  readSide.stop();
  vi.unstubAllGlobals();
  await authProvider.logout(undefined);
});

describe("an appointment's messages on its page in the console", () => {
  it("a clinic's member sees them newest first, with their labels, the recipient masked and not linked; no Resend, and no whole log in the menu", async () => {
    const { messageReads } = serve(CLINIC_MEMBER);
    renderAppointment();
    const box = await section();
    within(box).getByText('Messages');
    const row = await rowOf('Consultation reminder');
    for (const header of ['When', 'Type', 'Channel', 'Recipient', 'Status', 'Attempts', 'Last error']) within(box).getByText(header);
    within(row).getByText('WhatsApp');
    within(row).getByText('+91•••••••210');
    within(row).getByText('Failed');
    within(row).getByText('4');
    within(row).getByText('whatsapp: 131026 message undeliverable');
    expect(row.textContent).toMatch(/2026/);
    expect(within(row).queryByRole('link'), 'accounts are not the clinic\'s to open').toBeNull();
    const rows = within(box).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).queryByText(/Consultation (reminder|confirmed)/)?.textContent)).toEqual(['Consultation reminder', 'Consultation confirmed']);
    within(rows[1]!).getByText('E-mail');
    within(rows[1]!).getByText('Delivered');
    expect(within(box).queryByRole('button', { name: 'Resend' }), 'sending again is the operators\'').toBeNull();

    // Asked as getManyReference asks: this appointment's, newest first.
    expect(JSON.parse(messageReads[0]!.get('filter')!)).toEqual({ appointment_id: 'a1' });
    expect(JSON.parse(messageReads[0]!.get('sort')!)).toEqual(['updated_at', 'DESC']);
    // The menu does not offer the whole log, which the server would refuse them.
    expect(screen.queryByRole('menuitem', { name: 'Messages' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Appointments' })).toBeTruthy();
  });

  it('a platform admin sees Resend on the failed message only', async () => {
    serve(PLATFORM_ADMIN);
    renderAppointment();
    await within(await rowOf('Consultation reminder')).findByRole('button', { name: 'Resend' });
    expect(within(await rowOf('Consultation confirmed')).queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('says so when the appointment has none, in the chosen language', async () => {
    serve(CLINIC_MEMBER, [{ ...failed, appointment_id: 'another' }]);
    renderAppointment('hi');
    await within(await section()).findByText(hiAdmin['admin.appointmentMessagesEmpty']);
    within(await section()).getByText(hiAdmin['admin.appointmentMessages']);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says in place when they could not be read, and the rest of the page stays', async () => {
    serve(CLINIC_MEMBER, 'down');
    renderAppointment();
    await within(await section()).findByText('The messages could not be loaded');
    screen.getByText('History');
  });

  it('on a phone, one message a row of wrapped lines, with Resend for the operator', async () => {
    onAPhone();
    serve(PLATFORM_ADMIN);
    renderAppointment();
    const box = await section();
    const item = (await within(box).findByText('Consultation reminder')).closest('li')!;
    expect(item.closest('table'), 'no table on a phone').toBeNull();
    expect(item.textContent).toContain('WhatsApp');
    expect(item.textContent).toContain('+91•••••••210');
    expect(item.textContent).toContain('4 attempts');
    expect(item.textContent).toContain('Failed');
    await within(item).findByRole('button', { name: 'Resend' });
    const other = within(box).getByText('Consultation confirmed').closest('li')!;
    expect(within(other).queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it('is not shown, nor asked for, without the permission', async () => {
    const { messageReads } = serve(WITHOUT_MESSAGES);
    renderAppointment();
    // The page is there (its history read and drawn) and its permissions known...
    await screen.findByText('History');
    await screen.findByText('Meera Iyer');
    expect(await authProvider.canAccess!({ resource: 'messages', action: 'show' })).toBe(false);
    // ...and it has no messages section.
    expect(screen.queryByTestId('appointment-messages')).toBeNull();
    expect(messageReads).toHaveLength(0);
  });
});
