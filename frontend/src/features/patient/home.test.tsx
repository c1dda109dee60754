import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import en from '../../i18n/catalogues/en/patient.json';
import { HomePage, NOT_ACCEPTING_BOOKINGS as NOT_ACCEPTING_ID } from './HomePage';
import { slotTomorrow } from '../../test/slots';

// What the screen says in English (outside an I18nProvider the screens are in English).
const NOT_ACCEPTING_BOOKINGS = en[NOT_ACCEPTING_ID];

const slot = slotTomorrow;
const LONG_NAME = 'Dr. Venkata Subrahmanya Lakshminarayanan'; // 40 characters

const doctorFacts = (doctor_id: string, name: string, accepting_bookings: boolean) => ({
  doctor_id,
  name,
  specialty: 'Cardiology',
  qualification: 'MBBS, MD, DM',
  consultation_fee: 799,
  appointment_duration_minutes: 30,
  phone_number: '+91 90000 12345',
  registration_number: 'WB-1',
  medical_council: null,
  city: null,
  languages: ['en', 'bn'],
  accepting_bookings,
});

/** The home page with the app's providers. */
function renderHomeOnly() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <ConfirmProvider>
          <MemoryRouter>
            <HomePage />
          </MemoryRouter>
        </ConfirmProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

/**
 * The server as the home page sees it: the patient's doctors with their slots; the list of all doctors (one taking
 * bookings, one deactivated, who takes none) and their slots. Records which URLs were asked for.
 */
function renderHome(options: { myDoctorAccepting?: boolean } = {}) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    if (url.startsWith('/api/v1/doctors/me')) {
      const accepting = options.myDoctorAccepting ?? true;
      const doctor = {
        ...doctorFacts('d1', LONG_NAME, accepting),
        availableSlots: accepting ? ['09:00', '09:30', '10:00', '10:30', '11:00', '17:00'].map((t, i) => slot(i + 1, t)) : [],
      };
      return new Response(JSON.stringify([doctor]), { status: 200 });
    }
    if (url.startsWith('/api/v1/doctors/?')) {
      return new Response(JSON.stringify([doctorFacts('d2', 'Dr. Open Slots', true), doctorFacts('d3', 'Dr. Deactivated', false)]), { status: 200 });
    }
    if (url.startsWith('/api/v1/doctors/d2/available-slots')) return new Response(JSON.stringify({ slots: [slot(7, '12:00')] }), { status: 200 });
    if (url.startsWith('/api/v1/wallet/me')) return new Response(JSON.stringify({ balance: 140, held: 60, rupees_per_credit: 1, packs: [{ credits: 100, price_rupees: 999 }] }), { status: 200 });
    return new Response('[]', { status: 200 });
  });
  renderHomeOnly();
  return asked;
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

  it("a doctor who takes no bookings says 'Not accepting bookings' in Add a Doctor, offers no slot and cannot be added", async () => {
    const asked = renderHome();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Doctor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a Doctor' });
    const rowOf = async (name: string) => (await within(dialog).findByTitle(name)).closest('li')!;

    const closed = await rowOf('Dr. Deactivated');
    expect(within(closed as HTMLElement).getByText(NOT_ACCEPTING_BOOKINGS)).toBeTruthy();
    expect(within(closed as HTMLElement).queryByRole('button', { name: /am|pm/i })).toBeNull();
    expect((within(closed as HTMLElement).getByRole('button', { name: 'Add Doctor' }) as HTMLButtonElement).disabled).toBe(true);
    expect(asked.some((url) => url.startsWith('/api/v1/doctors/d3/'))).toBe(false);

    const open = await rowOf('Dr. Open Slots');
    await waitFor(() => expect(within(open as HTMLElement).getAllByRole('button', { name: /12:00 pm/i })).toHaveLength(1));
    expect(within(open as HTMLElement).queryByText(NOT_ACCEPTING_BOOKINGS)).toBeNull();
    expect((within(open as HTMLElement).getByRole('button', { name: 'Add Doctor' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Add a Doctor finds doctors by the language they consult in: the list is asked again for that language only', async () => {
    const asked = renderHome();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Doctor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a Doctor' });
    await within(dialog).findByTitle('Dr. Open Slots');
    expect(asked.filter((url) => url.startsWith('/api/v1/doctors/?')).every((url) => !url.includes('language='))).toBe(true);
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Language' }));
    fireEvent.click(await screen.findByRole('option', { name: 'தமிழ்' }));
    await waitFor(() => expect(asked.some((url) => url.startsWith('/api/v1/doctors/?') && new URL(url, 'http://x').searchParams.get('language') === 'ta')).toBe(true));
  });

  it("one of the patient's doctors who takes no bookings says 'Not accepting bookings' on their card", async () => {
    renderHome({ myDoctorAccepting: false });
    const card = await screen.findByTestId('my-doctor');
    expect(within(card).getByText(NOT_ACCEPTING_BOOKINGS)).toBeTruthy();
    expect(within(card).queryByText('No upcoming appointments available')).toBeNull();
    expect(within(card).queryByRole('tab')).toBeNull();
    // Nor is its waitlist offered: nothing would ever be freed.
    expect(within(card).queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
  });

  it("a doctor with time free this week offers no waitlist; the waitlist joined is on the doctor's card", async () => {
    renderHome();
    const card = await screen.findByTestId('my-doctor');
    expect(within(card).queryByRole('button', { name: 'Join the waitlist' })).toBeNull();
    cleanup();
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.startsWith('/api/v1/doctors/me')) return new Response(JSON.stringify([{ ...doctorFacts('d1', 'Dr. Busy', true), availableSlots: [] }]), { status: 200 });
      if (url.startsWith('/api/v1/waitlist/me')) return new Response('[]', { status: 200 });
      return new Response('[]', { status: 200 });
    });
    renderHomeOnly();
    const busy = await screen.findByTestId('my-doctor');
    fireEvent.click(await within(busy).findByRole('button', { name: 'Join the waitlist' }));
    expect(await screen.findByRole('dialog', { name: 'Waitlist for Dr. Busy' })).toBeTruthy();
  });

  it("shows the patient's credits as the server keeps them, and what is held for their requests", async () => {
    renderHome();
    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('140'));
    expect(screen.getByTestId('credits-held').textContent).toBe('60 held for your requests');
  });
});
