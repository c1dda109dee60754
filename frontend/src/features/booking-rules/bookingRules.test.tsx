import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, RecordContextProvider } from 'react-admin';
import type { ApiRoutes } from '@telemed/contracts';
import { DEFAULT_BOOKING_RULES } from '@telemed/contracts/booking-rules';
import { json, renderAt } from '../../test/render';
import { slotFacts } from '../../test/slotFacts';
import { sessionStore } from '../../lib/session';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { I18nProvider } from '../../i18n/I18nProvider';
import { useT } from '../../i18n/useT';
import hiBookingRules from '../../i18n/catalogues/hi/bookingRules.json';
import { BookingRulesCard } from '../auth/BookingRulesCard';
import { ConfirmAppointment } from '../patient/ConfirmAppointment';
import { BookingRulesPanel } from '../../admin/institutions/BookingRulesPanel';
import { noticeWords, ruleSentences } from './text';
import { BookingRulesSummary } from './BookingRulesSummary';

type DoctorRules = ApiRoutes['getDoctorBookingRules']['response'];
type ClinicRules = ApiRoutes['getInstitutionBookingRules']['response'];
type Call = { method: string; path: string; body: unknown };

const clinicDefaults: DoctorRules = { doctor_id: 'd-1', min_notice_minutes: 360, max_reschedules: 1, late_cancellation: 'cancellation', auto_accept_moves: false, source: 'institution' };

/** The rules routes with state of their own (a save is what the next read gives), every request recorded. */
function serve(initial: { doctor?: DoctorRules; clinic?: ClinicRules; refuse?: { status: number; body: unknown } } = {}) {
  let doctor = initial.doctor ?? clinicDefaults;
  let clinic = initial.clinic;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = (init.method ?? 'GET').toUpperCase();
      const path = String(url).replace('/api/v1', '').split('?')[0]!;
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path, body });
      if (method === 'PUT' && initial.refuse) return json(initial.refuse.status, initial.refuse.body);
      if (path === '/slots/12') return json(200, slotFacts());
      if (path === '/users/me/consents') return json(200, { current_notice_version: 'v9', has_current_consent: true, consents: [] });
      if (path === '/doctors/d-1/booking-rules') return json(200, doctor);
      if (path === '/doctors/me/booking-rules' && method === 'PUT') return (doctor = { doctor_id: 'd-1', ...(body as Omit<DoctorRules, 'doctor_id' | 'source'>), source: 'doctor' }), json(200, doctor);
      if (path === '/institutions/i1/booking-rules' && method === 'GET' && clinic) return json(200, clinic);
      if (path === '/institutions/i1/booking-rules' && method === 'PUT') return (clinic = { institution_id: 'i1', ...(body as Omit<ClinicRules, 'institution_id' | 'set'>), set: true }), json(200, clinic);
      return json(404, { detail: 'Not found', code: 'not_found' });
    }),
  );
  return calls;
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT').map((c) => `${c.path} ${JSON.stringify(c.body)}`);
const field = (name: RegExp) => screen.getByRole<HTMLInputElement>('spinbutton', { name });

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd-1', user_id: 'd-1', name: 'Dr. Kavya Rao', email: null, account_type: 'doctor' } });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.clear();
});

describe('booking rules in words (issue 35)', () => {
  function Words({ minutes }: { minutes: number[] }) {
    const t = useT();
    return <p>{minutes.map((m) => noticeWords(t, m)).join(' | ')}</p>;
  }
  function Sentences({ rules }: { rules: Parameters<typeof ruleSentences>[1] }) {
    const t = useT();
    return <p>{ruleSentences(t, rules).join(' ')}</p>;
  }

  it('says a notice in days, hours and minutes, and the rules as the patient reads them', () => {
    render(<Words minutes={[0, 15, 45, 60, 90, 120, 1440, 1455, 10080]} />);
    screen.getByText('0 minutes | 15 minutes | 45 minutes | 1 hour | 1 hour 30 minutes | 2 hours | 1 day | 24 hours 15 minutes | 7 days');
    cleanup();
    render(<Sentences rules={DEFAULT_BOOKING_RULES} />);
    screen.getByText(
      "You can move this appointment up to 2 hours before it starts, at most 2 times. You can cancel it at any time before it starts. A confirmed appointment you move waits for the doctor's approval again.",
    );
    cleanup();
    render(<Sentences rules={{ minNoticeMinutes: 1440, maxReschedules: 0, lateCancellation: 'no_show', autoAcceptMoves: true }} />);
    screen.getByText('This doctor does not allow appointments to be moved once booked. Cancelling less than 1 day before it starts counts as a missed appointment.');
    cleanup();
    render(<Sentences rules={{ minNoticeMinutes: 0, maxReschedules: 1, lateCancellation: 'no_show', autoAcceptMoves: true }} />);
    screen.getByText('You can move this appointment until it starts, once at most. You can cancel it at any time before it starts. A confirmed appointment stays confirmed when you move it.');
  });

  it('Request Appointment shows the doctor’s rules before the request is sent', async () => {
    const calls = serve({ doctor: { ...clinicDefaults, min_notice_minutes: 90, max_reschedules: 2, late_cancellation: 'no_show' } });
    renderAt('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    const rules = await screen.findByTestId('booking-rules');
    within(rules).getByText('Changes and cancellations');
    within(rules).getByText('You can move this appointment up to 1 hour 30 minutes before it starts, at most 2 times.');
    within(rules).getByText('Cancelling less than 1 hour 30 minutes before it starts counts as a missed appointment.');
    expect(calls.some((c) => c.path === '/doctors/d-1/booking-rules')).toBe(true);
    expect(screen.getByRole('button', { name: 'Send Request' })).toBeTruthy();
  });

  it('says what the rules mean for a time that already starts inside the notice', () => {
    const now = Date.parse('2030-01-02T02:00:00Z');
    const soon = '2030-01-02T03:30:00Z';
    render(<BookingRulesSummary rules={{ minNoticeMinutes: 120, maxReschedules: 2, lateCancellation: 'no_show', autoAcceptMoves: false }} startsAt={soon} now={now} />);
    expect(screen.getByTestId('inside-notice').textContent).toBe(
      'It starts in less than 2 hours, so once booked it can no longer be moved, and cancelling it counts as a missed appointment.',
    );
    cleanup();
    render(<BookingRulesSummary rules={{ minNoticeMinutes: 120, maxReschedules: 0, lateCancellation: 'no_show', autoAcceptMoves: false }} startsAt={soon} now={now} />);
    expect(screen.getByTestId('inside-notice').textContent).toBe('It starts in less than 2 hours, so once booked, cancelling it counts as a missed appointment.');
    cleanup();
    render(<BookingRulesSummary rules={DEFAULT_BOOKING_RULES} startsAt={soon} now={now - 60 * 60_000} />);
    expect(screen.queryByTestId('inside-notice')).toBeNull();
  });
});

describe("the doctor's Booking rules card", () => {
  it('starts from the rules in effect (the clinic’s, said so), checks each field as typed, and saves all four', async () => {
    const calls = serve();
    renderAt('/profile', <BookingRulesCard doctorId="d-1" />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Booking rules' })).toBeTruthy();
    await screen.findByText("You have not set your own rules, so your clinic's apply.");
    expect(field(/Minimum notice/).value).toBe('360');
    expect(field(/Moves allowed/).value).toBe('1');
    screen.getByText('That is 6 hours. From 0 to 10080 minutes, in steps of 15.');

    fireEvent.change(field(/Minimum notice/), { target: { value: '100' } });
    screen.getByText('Enter minutes from 0 to 10080, in steps of 15.');
    fireEvent.change(field(/Moves allowed/), { target: { value: '6' } });
    screen.getByText('Enter a whole number from 0 to 5.');
    const save = screen.getByRole('button', { name: 'Save rules' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.click(save);
    expect(puts(calls)).toEqual([]);

    fireEvent.change(field(/Minimum notice/), { target: { value: '1440' } });
    fireEvent.change(field(/Moves allowed/), { target: { value: '0' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /counts as/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'A missed appointment (no-show)' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Accept moves automatically' }));
    // What patients will read, as they will read it.
    screen.getByText('This doctor does not allow appointments to be moved once booked.');
    screen.getByText('Cancelling less than 1 day before it starts counts as a missed appointment.');
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    expect(await screen.findByText('Booking rules saved')).toBeTruthy();
    expect(puts(calls)).toEqual(['/doctors/me/booking-rules {"min_notice_minutes":1440,"max_reschedules":0,"late_cancellation":"no_show","auto_accept_moves":true}']);
    await waitFor(() => screen.getByText('These are your own rules.'));
  });

  it("says the server's refusal (here in Hindi), and keeps what was typed", async () => {
    serve({ refuse: { status: 422, body: { detail: 'The number of moves allowed must be between 0 and 5', code: 'booking_rules_reschedules_invalid', values: ['5'] } } });
    render(
      <I18nProvider language="hi">
        <Providers>
          <BookingRulesCard doctorId="d-1" />
        </Providers>
      </I18nProvider>,
    );
    await screen.findByRole('heading', { level: 2, name: hiBookingRules['bookingRules.cardTitle'] });
    fireEvent.change(screen.getAllByRole<HTMLInputElement>('spinbutton')[0]!, { target: { value: '45' } });
    fireEvent.click(screen.getByRole('button', { name: hiBookingRules['bookingRules.save'] }));
    expect(await screen.findByText('बदलावों की अनुमत संख्या 0 से 5 के बीच होनी चाहिए')).toBeTruthy();
    expect(screen.getAllByRole<HTMLInputElement>('spinbutton')[0]!.value).toBe('45');
  });
});

/** renderAt's providers, inside a language's I18nProvider. */
function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <ConfirmProvider>{children}</ConfirmProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}

describe("the clinic's default booking rules in the console", () => {
  const renderPanel = (language: 'en' | 'hi' = 'en') =>
    render(
      <I18nProvider language={language}>
        <AdminContext>
          <RecordContextProvider value={{ id: 'i1' }}>
            <BookingRulesPanel />
          </RecordContextProvider>
        </AdminContext>
      </I18nProvider>,
    );

  it('shows the standard rules while none are set, checks the fields, and saves the clinic’s defaults (no auto-accept: each doctor’s own)', async () => {
    const calls = serve({ clinic: { institution_id: 'i1', min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', no_show_limit: 0, no_show_block_months: 3, set: false } });
    renderPanel();
    expect(await screen.findByRole('heading', { level: 2, name: 'Default booking rules' })).toBeTruthy();
    await screen.findByTestId('clinic-rules-not-set');
    expect(screen.queryByRole('switch')).toBeNull();
    fireEvent.change(field(/Moves allowed/), { target: { value: '9' } });
    screen.getByText('Enter a whole number from 0 to 5.');
    expect(screen.getByRole('button', { name: 'Save rules' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(field(/Moves allowed/), { target: { value: '1' } });
    fireEvent.change(field(/Minimum notice/), { target: { value: '2880' } });
    screen.getByText('That is 2 days. From 0 to 10080 minutes, in steps of 15.');
    // The no-show policy: off at 0; a limit out of bounds is named and keeps Save off.
    fireEvent.change(field(/Missed appointments that stop bookings/), { target: { value: '11' } });
    screen.getByText('Enter a whole number from 0 to 10');
    expect(screen.getByRole('button', { name: 'Save rules' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(field(/Missed appointments that stop bookings/), { target: { value: '3' } });
    fireEvent.change(field(/Stop bookings for/), { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(puts(calls)).toEqual(['/institutions/i1/booking-rules {"min_notice_minutes":2880,"max_reschedules":1,"late_cancellation":"cancellation","no_show_limit":3,"no_show_block_months":6}']),
    );
    await waitFor(() => expect(screen.queryByTestId('clinic-rules-not-set')).toBeNull());
  });

  it('speaks the chosen language', async () => {
    serve({ clinic: { institution_id: 'i1', min_notice_minutes: 60, max_reschedules: 0, late_cancellation: 'no_show', no_show_limit: 0, no_show_block_months: 3, set: true } });
    renderPanel('hi');
    expect(await screen.findByRole('heading', { level: 2, name: hiBookingRules['bookingRules.clinicTitle'] })).toBeTruthy();
    await screen.findByText(hiBookingRules['bookingRules.moveNever']);
    screen.getByText('शुरू होने से 1 घंटा से कम पहले रद्द करने पर इसे छूटा हुआ अपॉइंटमेंट माना जाएगा।');
  });
});
