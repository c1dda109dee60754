import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { sessionStore } from '../../lib/session';
import { DoctorLandingPage } from './DoctorLandingPage';

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
};
const slot = (id: number, date: string, time: string) => ({
  slot_id: id,
  slot_date: date,
  start_time: `${time}:00`,
  end_time: `${time}:00`,
  is_available: true,
  start_at: new Date(`${date}T${time}:00`).toISOString(),
  end_at: new Date(`${date}T${time}:00`).toISOString(),
});
const DOCTOR = {
  doctor_id: 'doc-1',
  name: 'Dr. Farah Khan',
  specialty: 'ENT',
  qualification: 'MBBS, MS (ENT)',
  consultation_fee: 650,
  appointment_duration_minutes: 30,
  registration_number: 'MMC-77',
  medical_council: 'Maharashtra Medical Council',
  city: 'Mumbai' as string | null,
  languages: ['en', 'mr'] as string[],
  days: 7,
  accepting_bookings: true,
  slots: [slot(11, day(1), '09:00'), slot(12, day(1), '17:30'), slot(13, day(2), '10:00')],
};

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

function renderPage(calls: Array<{ url: string; method: string }>, doctor: typeof DOCTOR = DOCTOR) {
  vi.stubGlobal('fetch', async (url: string, init: { method?: string } = {}) => {
    calls.push({ url, method: init.method ?? 'GET' });
    if (url.startsWith('/api/v1/public/doctors/doc-1')) return new Response(JSON.stringify(doctor), { status: 200 });
    if (url.startsWith('/api/v1/public/doctors/')) return new Response(JSON.stringify({ detail: 'Doctor not found' }), { status: 404 });
    return new Response(JSON.stringify({ status: 'success' }), { status: 200 });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/doc-1']}>
          <Routes>
            <Route path="/:doctorId" element={<DoctorLandingPage />} />
            <Route path="/confirm-appointment" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('the public doctor page books real slots', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStore.clear();
    sessionStorage.clear();
  });

  it('says where the doctor practises and the languages they consult in, only when they gave them', async () => {
    renderPage([]);
    fireEvent.click(await screen.findByRole('tab', { name: 'Practice Info' }));
    expect(await screen.findByText('Practises in Mumbai')).toBeTruthy();
    // And the languages they consult in, named in the reader's language (issue 33).
    expect(screen.getByText('Consults in English and Marathi')).toBeTruthy();
    cleanup();
    renderPage([], { ...DOCTOR, city: null, languages: [] });
    fireEvent.click(await screen.findByRole('tab', { name: 'Practice Info' }));
    expect(await screen.findByText('Online consultations')).toBeTruthy();
    expect(screen.queryByText(/Practises in/)).toBeNull();
    expect(screen.queryByText(/Consults in/)).toBeNull();
  });

  it("shows the server's profile and the open slots by day; a visitor who picks one is asked to sign in", async () => {
    renderPage([]);
    expect(await screen.findByRole('heading', { name: 'Dr. Farah Khan' })).toBeTruthy();
    expect(screen.getByText('₹650 per consultation')).toBeTruthy();
    expect(screen.getByText('Mumbai')).toBeTruthy();
    const days = within(screen.getByRole('tablist', { name: 'Days with open slots for Dr. Farah Khan' })).getAllByRole('tab');
    expect(days.map((t) => t.textContent)).toEqual([expect.stringMatching(/^Tomorrow.*2 slots$/), expect.stringMatching(/1 slot$/)]);
    expect(screen.getByText('Morning')).toBeTruthy();
    expect(screen.getByText('Evening')).toBeTruthy();
    fireEvent.click(days[1]!);
    fireEvent.click(screen.getByRole('button', { name: /^10:00 am/i }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to book' });
    expect(within(dialog).getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a signed-in patient picks a time: the doctor is added to their list and the confirm page opens for that slot', async () => {
    sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'p', user_id: 'p', name: 'Meera', email: null, account_type: 'patient' } });
    const calls: Array<{ url: string; method: string }> = [];
    renderPage(calls);
    fireEvent.click(await screen.findByRole('button', { name: /^9:00 am/i }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/confirm-appointment\?slot_id=11&/));
    expect(calls).toContainEqual({ url: '/api/v1/users/subscribe', method: 'POST' });
  });

  it('a doctor who is not accepting bookings: the page says so plainly and offers no time', async () => {
    renderPage([], { ...DOCTOR, accepting_bookings: false, slots: [] });
    expect(await screen.findByRole('heading', { name: 'Dr. Farah Khan' })).toBeTruthy();
    expect(screen.getByText('Not accepting bookings')).toBeTruthy();
    expect(screen.getByText('Dr. Farah Khan is not accepting bookings at the moment. Please check again later.')).toBeTruthy();
    expect(screen.queryByRole('tablist', { name: /Days with open slots/ })).toBeNull();
  });
});
