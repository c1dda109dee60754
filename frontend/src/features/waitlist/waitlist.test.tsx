import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { MyAppointments } from '../patient/MyAppointments';
import { JoinWaitlistDialog } from './JoinWaitlistDialog';
import { noTimeSoon, rangeProblem } from './waitlist';

const DAY = 86_400_000;
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the waitlist on the patient screens (issue 35)', () => {
  it('checks the days as the server does, and is offered only when no time is free in the coming week', () => {
    expect(rangeProblem('2026-12-08', '2026-12-14', '2026-12-07')).toBeNull();
    expect(rangeProblem('', '2026-12-14', '2026-12-07')).toBe('waitlist.daysRequired');
    expect(rangeProblem('2026-12-06', '2026-12-14', '2026-12-07')).toBe('waitlist.daysInPast');
    expect(rangeProblem('2026-12-10', '2026-12-09', '2026-12-07')).toBe('waitlist.daysOrder');
    expect(rangeProblem('2026-12-07', '2027-01-05', '2026-12-07')).toBeNull();
    expect(rangeProblem('2026-12-07', '2027-01-06', '2026-12-07')).toBe('waitlist.daysTooMany');
    const now = new Date('2026-12-07T10:00:00Z');
    expect(noTimeSoon([], now)).toBe(true);
    expect(noTimeSoon([{ start_at: new Date(now.getTime() + 8 * DAY).toISOString() }], now)).toBe(true);
    expect(noTimeSoon([{ start_at: new Date(now.getTime() + 2 * DAY).toISOString() }], now)).toBe(false);
  });

  it('joining sends the chosen days and the browser’s zone, after the privacy notice when none is agreed yet', async () => {
    const sent: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        sent.push({ url, body: JSON.parse(String(init.body)) });
        return url.endsWith('/waitlist') ? json(201, { doctor_id: 'd1', doctor_name: 'Dr. Rao', from: '', to: '', status: 'waiting', offer: null }) : json(201, {});
      }
      if (url.startsWith('/api/v1/users/me/consents')) return json(200, { has_current_consent: true, consents: [] });
      return json(200, []);
    });
    const closed = vi.fn();
    renderAt('/', <JoinWaitlistDialog open doctor={{ doctor_id: 'd1', name: 'Dr. Rao' }} onClose={closed} />);
    const dialog = await screen.findByRole('dialog', { name: 'Waitlist for Dr. Rao' });
    expect(dialog.textContent).toContain('held for you for 15 minutes');
    const from = within(dialog).getByLabelText('From') as HTMLInputElement;
    const to = within(dialog).getByLabelText('To') as HTMLInputElement;
    fireEvent.change(to, { target: { value: '2000-01-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    expect(await within(dialog).findByText('The last day cannot be before the first.')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(to, { target: { value: from.value } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(closed).toHaveBeenCalled());
    expect(sent).toEqual([{ url: '/api/v1/doctors/d1/waitlist', body: { from: from.value, to: from.value, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } }]);
  });

  it('My Appointments shows a held time first, to book with a reason or let go; a place without one says its days', async () => {
    const sent: Array<{ url: string; body: unknown }> = [];
    const places = [
      { doctor_id: 'd2', doctor_name: 'Dr. Iyer', from: '2026-12-08', to: '2026-12-14', status: 'waiting', offer: null },
      { doctor_id: 'd1', doctor_name: 'Dr. Rao', from: '2026-12-08', to: '2026-12-14', status: 'offered', offer: { slot_id: 7, start_at: inMinutes(24 * 60), end_at: inMinutes(24 * 60 + 30), until: inMinutes(12) } },
    ];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : null });
        return json(201, { appointment_id: 'a9', status: 'requested' });
      }
      if (url.startsWith('/api/v1/waitlist/me')) return json(200, places);
      return json(200, []);
    });
    renderAt('/', <MyAppointments />);
    const section = await screen.findByRole('region', { name: 'Your waitlist' });
    const [first, second] = within(section).getAllByTestId('waitlist-place');
    expect(within(first!).getByTestId('waitlist-offer').textContent).toContain('A time with Dr. Rao is held for you');
    expect(second!.textContent).toMatch(/^Waiting for a time with Dr. Iyer, 8 Dec – 14 Dec\./);

    fireEvent.click(within(first!).getByRole('button', { name: 'Book this time' }));
    const dialog = await screen.findByRole('dialog', { name: 'Book the held time' });
    const send = within(dialog).getByRole('button', { name: 'Send request' });
    expect(send).toHaveProperty('disabled', true);
    fireEvent.change(within(dialog).getByLabelText(/Reason for visit/), { target: { value: 'Fever since Sunday' } });
    fireEvent.click(send);
    await waitFor(() => expect(sent).toEqual([{ url: '/api/v1/doctors/d1/waitlist/accept', body: { notes: 'Fever since Sunday' } }]));
  });
});
