import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { MyAppointments } from './MyAppointments';

const REASON = 'Doctor is no longer available';
const start = new Date(Date.now() + 3 * 86_400_000).toISOString();
const appointment = (appointment_id: string, status: string, fields: { status_reason?: string; rejection_reason?: string; cancellation_reason?: string }) => ({
  appointment_id,
  status,
  notes: 'Follow-up',
  created_at: new Date().toISOString(),
  rejection_reason: fields.rejection_reason ?? null,
  status_reason: fields.status_reason ?? null,
  cancellation_reason: fields.cancellation_reason ?? null,
  doctor: { doctor_id: 'd1', name: 'Dr. Ananya Sharma', specialty: 'General Medicine' },
  patient: { name: 'Meera Iyer', phone_number: null },
  slot: { slot_id: 1, slot_date: start.slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at: start },
});

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
    const cards = await screen.findAllByTestId('appointment-card');
    expect(cards).toHaveLength(2);
    const [declined, cancelled] = cards as [HTMLElement, HTMLElement];
    expect(within(declined).getByText('Declined')).toBeTruthy();
    expect(within(declined).getByText(`Declined: ${REASON}`)).toBeTruthy();
    expect(within(cancelled).getByText('Cancelled by the doctor')).toBeTruthy();
    expect(within(cancelled).getByText(`Cancelled: ${REASON}`)).toBeTruthy();
  });
});
