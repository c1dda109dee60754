import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { intlLocale } from '@telemed/contracts/languages';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { I18nProvider } from '../../i18n/I18nProvider';
import { HomePage } from './HomePage';
import { slotTomorrow, tomorrow } from '../../test/slots';

const slot = slotTomorrow;

describe('patient home in Hindi', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.documentElement.lang = 'en'; // the provider set it
  });

  it("speaks Hindi: the heading, the credits, the doctor's fee in rupees, and the day of their slots in Hindi", async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.startsWith('/api/v1/doctors/me')) {
        const doctor = {
          doctor_id: 'd1',
          name: 'Dr. Ananya Sharma',
          specialty: 'Cardiology',
          qualification: 'MBBS, MD',
          consultation_fee: 1499,
          appointment_duration_minutes: 30,
          phone_number: null,
          registration_number: 'WB-1',
          medical_council: null,
          city: null,
          languages: ['hi'],
          accepting_bookings: true,
          availableSlots: [slot(1, '09:00'), slot(2, '17:30')],
        };
        return new Response(JSON.stringify([doctor]), { status: 200 });
      }
      return new Response('[]', { status: 200 });
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ToastProvider>
          <ConfirmProvider>
            <MemoryRouter>
              <I18nProvider language="hi">
                <HomePage />
              </I18nProvider>
            </MemoryRouter>
          </ConfirmProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    // The Hindi catalogue loads asynchronously: the heading turns Hindi when it has.
    expect(await screen.findByRole('heading', { name: 'आपके डॉक्टर' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'डॉक्टर जोड़ें' })).toBeTruthy();
    expect(screen.getByText('क्रेडिट जोड़ें')).toBeTruthy();

    const card = await screen.findByTestId('my-doctor');
    expect(within(card).getByTestId('doctor-fee').textContent).toBe('₹1,499');
    expect(within(card).getByText('प्रति परामर्श')).toBeTruthy();
    expect(within(card).getByText('रजि. नं. WB-1')).toBeTruthy();
    // Tomorrow's tab: its word and its date in Hindi (month names in Hindi, Western digits), and how many times it has.
    const dayMonth = new Intl.DateTimeFormat(intlLocale('hi'), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${tomorrow}T00:00:00Z`));
    expect(dayMonth).toMatch(/^\d+ [\u0900-\u097F]+$/); // e.g. '7 दिस॰'
    const tab = within(card).getByRole('tab', { name: /कल/ });
    expect(tab.textContent).toContain(dayMonth);
    expect(tab.textContent).toContain('2 खाली समय');
    expect(within(card).getByRole('tablist', { name: 'Dr. Ananya Sharma के खाली समय वाले दिन' })).toBeTruthy();
    expect(within(card).getByText('सुबह')).toBeTruthy();
    expect(within(card).getByText('शाम')).toBeTruthy();
  });
});
