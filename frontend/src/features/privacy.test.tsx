import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderAt } from '../test/render';
import { sessionStore } from '../lib/session';
import { setSessionExpiredHandler } from '../lib/api';
import { call } from '../lib/client';
import { ACCESS_LOG_PAGE, AccessLogCard, DOCTOR_ERASURE_STEPS, DownloadDataCard, ERASURE_STEPS, EraseDataCard } from './auth/PrivacySections';

const entry = (n: number, overrides: Record<string, unknown> = {}) => ({
  id: `e${n}`,
  who: { user_id: `d${n}`, name: `Dr. Kabir ${n}`, role: 'doctor', institution_role: null },
  institution: null,
  what: { resource: 'pending_requests', description: "A doctor's appointment requests", route: 'GET /api/v1/appointments/pending', items: ['a1'] },
  when: new Date(Date.UTC(2030, 0, 1, 10, 60 - n)).toISOString(),
  why: 'care',
  why_label: 'Your care (the doctor treating you)',
  ...overrides,
});

function server(answers: Record<string, (init?: RequestInit) => Response>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).replace('/api/v1', '');
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      const answer = Object.entries(answers).find(([prefix]) => `${init?.method ?? 'GET'} ${path}`.startsWith(prefix));
      return answer ? answer[1](init) : json(404, { detail: 'Not found' });
    }),
  );
  return calls;
}

describe('profile: privacy sections', () => {
  beforeEach(() => sessionStore.set({ token: 't', refreshToken: null, user: { id: 'p1', user_id: 'p1', name: 'Asha', email: null, account_type: 'patient' }, authProvider: 'google' }));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  it('Who saw my data lists who (name and role), what, why and when, and pages to older entries', async () => {
    const first = Array.from({ length: ACCESS_LOG_PAGE }, (_, i) => entry(i + 1));
    first[1] = entry(2, {
      who: { user_id: 'm1', name: 'Meera Admin', role: 'patient', institution_role: 'ADMIN' },
      institution: { id: 'i1', name: 'Lotus Clinic' },
      what: { resource: 'institution_appointments', description: "An institution's appointments", route: 'GET /api/v1/institutions/:id/appointments', items: ['a1'] },
      why: 'institution_audit',
      why_label: 'Institution audit (the clinic of your doctor)',
    });
    const calls = server({
      'GET /users/me/access-log?limit=10&cursor=42': () =>
        json(200, {
          entries: [
            entry(11, { who: { user_id: 'x', name: null, role: 'admin', institution_role: null }, why_label: 'Platform administration (operators)' }),
            entry(12, { who: { user_id: 'd1', name: 'Dr. Kabir 1', role: 'doctor', institution_role: null }, what: first[0]!.what }),
            entry(13, { who: { user_id: 'd1', name: 'Dr. Kabir 1', role: 'doctor', institution_role: null }, what: first[0]!.what }),
          ],
          next_cursor: null,
        }),
      'GET /users/me/access-log?limit=10': () => json(200, { entries: first, next_cursor: '42' }),
    });
    renderAt('/profile', <AccessLogCard />);
    expect(screen.getByRole('heading', { level: 2, name: 'Who saw my data' })).toBeTruthy();
    const list = await screen.findByTestId('access-log');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(ACCESS_LOG_PAGE);
    expect(within(items[0]!).getByText('Dr. Kabir 1')).toBeTruthy();
    expect(within(items[0]!).getByText('Doctor')).toBeTruthy();
    expect(within(items[0]!).getByText('Why: Your care (the doctor treating you)')).toBeTruthy();
    expect(within(items[1]!).getByText('Institution administrator')).toBeTruthy();
    expect(within(items[1]!).getByText('at Lotus Clinic')).toBeTruthy();
    expect(within(items[1]!).getByText("An institution's appointments")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(ACCESS_LOG_PAGE + 1));
    expect(within(list).getByText('A closed account')).toBeTruthy();
    expect(within(list).getByText('Platform administrator')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();
    // The same doctor's list read again that day is one line with its count.
    expect(within(list).getAllByText('Dr. Kabir 1')).toHaveLength(1);
    expect(within(within(list).getAllByRole('listitem')[0]!).getByText(/^3 times on/)).toBeTruthy();
    expect(calls).toEqual(['GET /users/me/access-log?limit=10', 'GET /users/me/access-log?limit=10&cursor=42']);
  });

  it('says so when nobody saw the data', async () => {
    server({ 'GET /users/me/access-log': () => json(200, { entries: [], next_cursor: null }) });
    renderAt('/profile', <AccessLogCard />);
    expect(await screen.findByText('Nobody else has seen your data yet.')).toBeTruthy();
  });

  it('Download my data saves the export as a dated JSON file', async () => {
    const exported = { format: 'telemed-personal-data-export/1', exported_at: '2030-01-02T03:04:05.000Z', subject_user_id: 'p1' };
    const calls = server({ 'GET /users/me/export': () => json(200, exported) });
    const created: Blob[] = [];
    // jsdom has no object URLs: these two stand in for the browser's, and are put back after.
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (blob: Blob) => (created.push(blob), 'blob:x');
    URL.revokeObjectURL = () => {};
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderAt('/profile', <DownloadDataCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(clicked).toEqual(['telemed-my-data-2030-01-02.json']));
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(created[0]!);
    });
    expect(JSON.parse(text)).toEqual(exported);
    expect(calls).toEqual(['GET /users/me/export']);
    click.mockRestore();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('Erase my data asks first, saying exactly what happens; keeping the data sends nothing', async () => {
    const calls = server({});
    renderAt('/profile', <EraseDataCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Erase my data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase all your data?' });
    for (const step of Object.values(ERASURE_STEPS)) expect(within(dialog).getByText(step, { exact: false })).toBeTruthy();
    expect(within(dialog).getByText(/destroyed/)).toBeTruthy();
    expect(within(dialog).getByText(/signed out/)).toBeTruthy();
    expect(within(dialog).getByText(/legal hold/)).toBeTruthy();
    // Since the clinical records (issue 14): the uploaded reports and the chat go, the doctors' records stay three years.
    expect(within(dialog).getByText(/medical reports you uploaded, your consultation chat/)).toBeTruthy();
    expect(within(dialog).getByText(/consultation notes, prescriptions and prescription files your doctors wrote.*three years and then destroyed/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep my data' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);
    expect(sessionStore.get()).not.toBeNull();
  });

  it("a doctor's confirmation says what is kept of a doctor, not a patient's clinical records", async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Rao', email: null, account_type: 'doctor' }, authProvider: 'google' });
    server({});
    renderAt('/profile', <EraseDataCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Erase my data' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase all your data?' });
    for (const step of Object.values(DOCTOR_ERASURE_STEPS)) expect(within(dialog).getByText(step, { exact: false })).toBeTruthy();
    expect(within(dialog).getByText(/prescriptions and consultation notes you issued/)).toBeTruthy();
    expect(within(dialog).getByText(/specialty, qualification, city and consultation fee/)).toBeTruthy();
    expect(within(dialog).queryByText(/your doctors wrote/)).toBeNull();
  });

  it('erasing posts the request, shows what was kept and why from the answer, then signs out', async () => {
    const calls = server({
      'GET /appointments/me': () => json(401, { detail: 'Session expired' }),
      'POST /users/me/erasure': () =>
        json(200, { erased_at: '2030-01-02T03:04:05Z', kept: [{ what: 'Appointment records without personal details', why: 'Doctors keep teleconsultation records for three years' }] }),
    });
    renderAt('/profile', <EraseDataCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Erase my data' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Erase all your data?' })).getByRole('button', { name: 'Erase my data' }));
    const done = await screen.findByRole('dialog', { name: 'Your data was erased' });
    expect(within(done).getByText(/Appointment records without personal details: Doctors keep teleconsultation records for three years/)).toBeTruthy();
    expect(calls).toEqual(['POST /users/me/erasure']);
    expect(sessionStore.get()).not.toBeNull();
    // The server has ended the session: a refused read now is expected, not 'Session expired' over the dialog.
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    await expect(call('listMyAppointments')).rejects.toMatchObject({ status: 401 });
    expect(expired).not.toHaveBeenCalled();
    fireEvent.click(within(done).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(sessionStore.get()).toBeNull());
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    // A later session is an ordinary one again: its 401 is 'Session expired'.
    sessionStore.set({ token: 't2', refreshToken: null, user: { id: 'p1', user_id: 'p1', name: 'Asha', email: null, account_type: 'patient' }, authProvider: 'google' });
    await expect(call('listMyAppointments')).rejects.toMatchObject({ status: 401 });
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('a refused erasure shows the server detail and keeps the session', async () => {
    server({ 'POST /users/me/erasure': () => json(409, { detail: 'This account was already erased' }) });
    renderAt('/profile', <EraseDataCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Erase my data' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Erase all your data?' })).getByRole('button', { name: 'Erase my data' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getAllByText('This account was already erased').length).toBeGreaterThan(0);
    expect(sessionStore.get()).not.toBeNull();
  });
});
