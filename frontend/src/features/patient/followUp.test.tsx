import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { slotTomorrow } from '../../test/slots';
import { MyAppointments } from './MyAppointments';
import { openFollowUp, slotsInWindow } from './followUp';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A completed consultation of the patient's as GET /appointments/me answers it, with the follow-up its doctor offered. */
const consultation = (appointment_id: string, follow_up: { until: string; fee: number; booked_appointment_id: string | null } | null) => ({
  appointment_id,
  status: 'completed',
  notes: 'Fever',
  created_at: inDays(-3),
  rejection_reason: null,
  status_reason: null,
  cancellation_reason: null,
  doctor: { doctor_id: 'd1', name: 'Dr. Ananya Sharma', specialty: 'General Medicine' },
  patient: { name: 'Meera Iyer', phone_number: null },
  consultation_held: true,
  reschedules: 0,
  proposal: null,
  follow_up,
  follow_up_of: null,
  slot: { slot_id: 1, slot_date: inDays(-2).slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at: inDays(-2) },
});

/** An open slot of the doctor's `days` from now. */
const slotIn = (slot_id: number, days: number) => ({ ...slotTomorrow(slot_id, '10:00'), slot_date: inDays(days).slice(0, 10), start_at: inDays(days), end_at: inDays(days) });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('follow-ups on My Appointments (issue 35)', () => {
  it('an offer is open while none is booked on it and its window lasts; only the times inside the window are offered', () => {
    const offer = { until: inDays(3), fee: 0, booked_appointment_id: null };
    expect(openFollowUp(offer)).toBe(offer);
    expect(openFollowUp({ ...offer, booked_appointment_id: 'f1' })).toBeNull();
    expect(openFollowUp({ ...offer, until: inDays(-1) })).toBeNull();
    expect(slotsInWindow([slotIn(1, 1), slotIn(2, 5)], offer).map((s) => s.slot_id)).toEqual([1]);
  });

  it('a completed consultation with an open offer shows Book follow-up, which books one of the doctor’s times in the window with follow_up_of', async () => {
    const requests: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.startsWith('/api/v1/doctors/d1/available-slots')) return json(200, { slots: [slotIn(41, 1), slotIn(42, 2), slotIn(43, 6)] });
      if (init?.method === 'POST') {
        requests.push(JSON.parse(String(init.body)));
        return json(201, { appointment_id: 'f1', status: 'requested' });
      }
      if (url.includes('section=past'))
        return json(200, [
          consultation('open', { until: inDays(3), fee: 0, booked_appointment_id: null }),
          consultation('paid', { until: inDays(5), fee: 250, booked_appointment_id: null }),
          consultation('taken', { until: inDays(3), fee: 0, booked_appointment_id: 'f0' }),
          consultation('lapsed', { until: inDays(-1), fee: 0, booked_appointment_id: null }),
          consultation('none', null),
        ]);
      return json(200, []);
    });
    renderAt('/', <MyAppointments />);
    const cards = await screen.findAllByTestId('appointment-card');
    const card = (id: string) => cards.find((c) => c.dataset.appointmentId === id)!;
    expect(within(card('open')).getByTestId('book-follow-up').textContent).toMatch(/^Book follow-up \(free until .+\)$/);
    expect(within(card('paid')).getByTestId('book-follow-up').textContent).toMatch(/^Book follow-up \(₹250 until .+\)$/);
    expect(within(card('taken')).queryByTestId('book-follow-up')).toBeNull();
    expect(within(card('taken')).getByTestId('follow-up-booked').textContent).toBe('Follow-up booked');
    expect(within(card('lapsed')).queryByTestId('book-follow-up')).toBeNull();
    expect(within(card('none')).queryByTestId('book-follow-up')).toBeNull();

    fireEvent.click(within(card('open')).getByTestId('book-follow-up'));
    const dialog = await screen.findByRole('dialog', { name: 'Book a follow-up' });
    expect(within(dialog).getByTestId('follow-up-window').textContent).toContain('Free of charge');
    const book = within(dialog).getByRole('button', { name: 'Request follow-up' });
    expect(book).toHaveProperty('disabled', true);
    const slot = await waitFor(() => {
      const button = dialog.querySelector<HTMLButtonElement>('[data-slot-id="41"]');
      if (!button) throw new Error('no slot 41 yet');
      return button;
    });
    // Two days of times in the window; the day after it is not offered.
    expect(within(dialog).getAllByRole('tab')).toHaveLength(2);
    fireEvent.click(slot);
    fireEvent.click(book);
    await screen.findByText('Follow-up requested');
    expect(requests).toEqual([{ slot_id: 41, notes: expect.stringMatching(/^Follow-up of my consultation on /), follow_up_of: 'open' }]);
  });
});
