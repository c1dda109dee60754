import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { I18nProvider } from '../../i18n/I18nProvider';
import { DoctorLandingPage } from './DoctorLandingPage';
import { WelcomePage } from './WelcomePage';

// A slot the day after tomorrow at 10:00 (the browser's time): shown as its weekday and date, not "Today"/"Tomorrow".
const date = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 2 * 86_400_000));
const start = new Date(`${date}T10:00:00`);
const DOCTOR = {
  doctor_id: 'doc-1',
  name: 'Dr. Farah Khan',
  specialty: 'ENT',
  qualification: 'MBBS, MS (ENT)',
  consultation_fee: 1650,
  appointment_duration_minutes: 30,
  registration_number: 'MMC-77',
  medical_council: 'Maharashtra Medical Council',
  city: 'Mumbai',
  languages: ['hi'],
  days: 7,
  accepting_bookings: true,
  slots: [{ slot_id: 11, slot_date: date, start_time: '10:00:00', end_time: '10:30:00', is_available: true, start_at: start.toISOString(), end_at: start.toISOString() }],
};

function renderInHindi(path: string) {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/v1/public/doctors/doc-1')) return new Response(JSON.stringify(DOCTOR), { status: 200 });
    return new Response('[]', { status: 200 });
  });
  render(
    <I18nProvider language="hi">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ToastProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/welcome" element={<WelcomePage />} />
              <Route path="/:doctorId" element={<DoctorLandingPage />} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('the public pages in Hindi', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.documentElement.lang = 'en'; // the provider set it
  });

  it("a doctor's page: headings, tabs and fee in Hindi; the picked time's date in Hindi in the sign-in dialog", async () => {
    renderInHindi('/doc-1');
    expect(await screen.findByRole('heading', { name: 'वीडियो परामर्श बुक करें' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Dr. Farah Khan' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'प्रैक्टिस की जानकारी' })).toBeTruthy();
    expect(screen.getByText('₹1,650 प्रति परामर्श')).toBeTruthy();
    expect(screen.getByText('₹1,650 · 30 मिनट · समय चुनें, फिर उसे कन्फ़र्म करने के लिए Google से साइन इन करें')).toBeTruthy();
    expect(screen.getByText('रजि. नं. MMC-77, Maharashtra Medical Council')).toBeTruthy();

    fireEvent.click(screen.getAllByRole('button', { name: /10:00/ })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'बुक करने के लिए साइन इन करें' });
    const day = new Intl.DateTimeFormat('hi-IN', { weekday: 'long', day: 'numeric', month: 'long' }).format(start);
    expect(within(dialog).getByText((text) => text.includes(day) && text.includes('₹1,650'))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'बंद करें' })).toBeTruthy();
  });

  it('the welcome page: its headings and plans in Hindi, prices in rupees', async () => {
    renderInHindi('/welcome');
    expect(await screen.findByRole('heading', { name: 'प्लान' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'आगे की योजना' })).toBeTruthy();
    expect(screen.getByText('₹2,999 प्रति माह')).toBeTruthy();
    expect(screen.getByText('प्रति परामर्श ₹299 से शुरू')).toBeTruthy();
    expect(screen.getAllByText('तैयार हो रहा है')).toHaveLength(3);
  });
});
