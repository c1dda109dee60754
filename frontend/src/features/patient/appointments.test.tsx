import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { MyAppointments } from './MyAppointments';
import { sessionStore } from '../../lib/session';

const REASON = 'Doctor is no longer available';
const start = new Date(Date.now() + 3 * 86_400_000).toISOString();
const appointment = (appointment_id: string, status: string, fields: { status_reason?: string; rejection_reason?: string; cancellation_reason?: string; consultation_held?: boolean }) => ({
  appointment_id,
  status,
  notes: 'Follow-up',
  created_at: new Date().toISOString(),
  rejection_reason: fields.rejection_reason ?? null,
  status_reason: fields.status_reason ?? null,
  cancellation_reason: fields.cancellation_reason ?? null,
  doctor: { doctor_id: 'd1', name: 'Dr. Ananya Sharma', specialty: 'General Medicine' },
  patient: { name: 'Meera Iyer', phone_number: null },
  consultation_held: fields.consultation_held ?? false,
  slot: { slot_id: 1, slot_date: start.slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at: start },
});

/** My Appointments with the providers the app gives it. */
function renderAppointments() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ToastProvider>
          <ConfirmProvider>
            <MyAppointments />
          </ConfirmProvider>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a patient's appointments closed because the doctor takes no bookings", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('show the reason: declined for a request, cancelled by the doctor for a confirmed one', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      const past = url.includes('section=past')
        ? [
            appointment('a1', 'rejected', { rejection_reason: REASON }),
            appointment('a2', 'cancelled', { status_reason: 'cancelled_by_doctor', cancellation_reason: REASON }),
          ]
        : [];
      return new Response(JSON.stringify(past), { status: 200 });
    });
    renderAppointments();
    const cards = await screen.findAllByTestId('appointment-card');
    expect(cards).toHaveLength(2);
    const [declined, cancelled] = cards as [HTMLElement, HTMLElement];
    expect(within(declined).getByText('Declined')).toBeTruthy();
    expect(within(declined).getByText(`Declined: ${REASON}`)).toBeTruthy();
    expect(within(cancelled).getByText('Cancelled by the doctor')).toBeTruthy();
    expect(within(cancelled).getByText(`Cancelled: ${REASON}`)).toBeTruthy();
  });
});

describe("a doctor's cancellation", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStore.clear();
  });

  it('asks for a reason for the patient and sends it with the cancellation', async () => {
    sessionStore.set({ token: 't', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Ananya Sharma', email: null, account_type: 'doctor' }, authProvider: 'google' });
    const posts: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return new Response(JSON.stringify({ appointment_id: 'a9', status: 'cancelled' }), { status: 200 });
      }
      const upcoming = url.includes('section=upcoming')
        ? [{ appointment_id: 'a9', patient_id: 'p1', patient_name: 'Meera Iyer', notes: 'Cough', status: 'confirmed', status_reason: null, rejection_reason: null, created_at: start, consultation_fee: 399, consultation_held: false, slot: appointment('a9', 'confirmed', {}).slot }]
        : [];
      return new Response(JSON.stringify(upcoming), { status: 200 });
    });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel appointment?' });
    expect(within(dialog).getByText(/Are you sure you want to cancel this appointment\? \(Meera Iyer,/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason for the patient (optional)'), { target: { value: '  Called away to an emergency  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    await waitFor(() => expect(posts).toEqual([{ url: '/api/v1/appointments/a9/cancel', body: { reason: 'Called away to an emergency' } }]));
  });
});

describe('an appointment whose consultation has begun', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers Join now and no Cancel: it ends with the call (the server refuses a cancel with 409)', async () => {
    const soon = new Date(Date.now() + 5 * 60_000).toISOString();
    vi.stubGlobal('fetch', async (url: string) => {
      const upcoming = url.includes('section=upcoming')
        ? [
            { ...appointment('live', 'confirmed', { consultation_held: true }), slot: { slot_id: 2, slot_date: soon.slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at: soon } },
            appointment('later', 'confirmed', {}),
          ]
        : [];
      return new Response(JSON.stringify(upcoming), { status: 200 });
    });
    renderAppointments();
    const [live, later] = (await screen.findAllByTestId('appointment-card')) as [HTMLElement, HTMLElement];
    expect(within(live).getByRole('button', { name: 'Join now' })).toBeTruthy();
    expect(within(live).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(later).getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });
});
