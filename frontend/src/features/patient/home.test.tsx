import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { HomePage, PAYMENT_NOT_CONNECTED } from './HomePage';

const tomorrow = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 86_400_000));
const slot = (id: number, time: string) => ({
  slot_id: id,
  slot_date: tomorrow,
  start_time: `${time}:00`,
  end_time: `${time}:00`,
  is_available: true,
  start_at: new Date(`${tomorrow}T${time}:00`).toISOString(),
  end_at: new Date(`${tomorrow}T${time}:00`).toISOString(),
});
const LONG_NAME = 'Dr. Venkata Subrahmanya Lakshminarayanan'; // 40 characters

function renderHome() {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/v1/doctors/me')) {
      const doctor = {
        doctor_id: 'd1',
        name: LONG_NAME,
        specialty: 'Cardiology',
        qualification: 'MBBS, MD, DM',
        consultation_fee: 799,
        appointment_duration_minutes: 30,
        phone_number: null,
        registration_number: 'WB-1',
        medical_council: null,
        availableSlots: ['09:00', '09:30', '10:00', '10:30', '11:00', '17:00'].map((t, i) => slot(i + 1, t)),
      };
      return new Response(JSON.stringify([doctor]), { status: 200 });
    }
    return new Response('[]', { status: 200 });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <HomePage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('patient home', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows each doctor's fee and their slots by day (4 shown, then '+N more'); a long name is cut with the whole name on hover", async () => {
    renderHome();
    const card = await screen.findByTestId('my-doctor');
    expect(within(card).getByTestId('doctor-fee').textContent).toBe('₹799');
    expect(within(card).getByTitle(LONG_NAME)).toBeTruthy();
    expect(within(card).getByRole('tab', { name: /Tomorrow/ })).toBeTruthy();
    expect(within(card).getAllByRole('button', { name: /am|pm/i })).toHaveLength(4);
    fireEvent.click(within(card).getByRole('button', { name: /2 more slots/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Available Appointments' });
    expect(within(dialog).getAllByRole('button', { name: /am|pm/i })).toHaveLength(6);
  });

  it('Purchase Credits says payment is not connected, adds a pack locally, and closes with its button or Escape', async () => {
    renderHome();
    expect(screen.getByTestId('credits').textContent).toBe('100');
    expect(screen.getByText(PAYMENT_NOT_CONNECTED)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    let dialog = await screen.findByRole('dialog', { name: 'Purchase Credits' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    dialog = await screen.findByRole('dialog', { name: 'Purchase Credits' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Purchase Credits' })).getByRole('button', { name: /^200 credits/ }));
    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('300'));
  });
});
