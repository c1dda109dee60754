import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_BOOKING_RULES } from '@telemed/contracts/booking-rules';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { I18nProvider } from '../../i18n/I18nProvider';
import { MyAppointments } from './MyAppointments';
import { moveCheck } from './reschedule';
import { slotTomorrow } from '../../test/slots';

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

/** One of the patient's appointments as GET /appointments/me answers it. */
const appointment = (appointment_id: string, fields: { status?: string; start_at: string; reschedules?: number; consultation_held?: boolean }) => ({
  appointment_id,
  status: fields.status ?? 'confirmed',
  notes: 'Fever',
  created_at: new Date().toISOString(),
  rejection_reason: null,
  status_reason: null,
  cancellation_reason: null,
  doctor: { doctor_id: 'd1', name: 'Dr. Ananya Sharma', specialty: 'General Medicine' },
  patient: { name: 'Meera Iyer', phone_number: null },
  consultation_held: fields.consultation_held ?? false,
  reschedules: fields.reschedules ?? 0,
  slot: { slot_id: 1, slot_date: fields.start_at.slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at: fields.start_at },
});

/** A time of the dialog's slot picker, once the doctor's open times have come. */
const slotButton = (dialog: HTMLElement, slotId: number) =>
  waitFor(() => {
    const button = dialog.querySelector<HTMLButtonElement>(`[data-slot-id="${slotId}"]`);
    if (!button) throw new Error(`no slot ${slotId} yet`);
    return button;
  });

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The doctor's rules in effect as GET /doctors/d1/booking-rules answers them (the product's unless changed). */
const rulesView = (rules: Partial<{ min_notice_minutes: number; max_reschedules: number; auto_accept_moves: boolean }> = {}) => ({
  doctor_id: 'd1',
  min_notice_minutes: DEFAULT_BOOKING_RULES.minNoticeMinutes,
  max_reschedules: DEFAULT_BOOKING_RULES.maxReschedules,
  late_cancellation: DEFAULT_BOOKING_RULES.lateCancellation,
  auto_accept_moves: DEFAULT_BOOKING_RULES.autoAcceptMoves,
  source: 'default',
  ...rules,
});

function renderAppointments(language?: 'hi') {
  const page = (
    <ToastProvider>
      <ConfirmProvider>
        <MyAppointments />
      </ConfirmProvider>
    </ToastProvider>
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{language ? <I18nProvider language={language}>{page}</I18nProvider> : page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('whether a patient may move an appointment (as the server decides it)', () => {
  const start = Date.parse('2026-12-10T10:00:00Z');
  const facts = { status: 'confirmed', startAt: new Date(start).toISOString(), reschedules: 0, consultationBegun: false };
  const notice = DEFAULT_BOOKING_RULES.minNoticeMinutes * 60_000;

  it('up to the notice before its start, and no later', () => {
    expect(moveCheck(facts, start - notice)).toEqual({ allowed: true, movesLeft: DEFAULT_BOOKING_RULES.maxReschedules });
    expect(moveCheck(facts, start - notice + 1)).toEqual({ allowed: false, reason: 'too_late' });
  });

  it('as many times as the rules allow, a requested one as a confirmed one', () => {
    expect(moveCheck({ ...facts, status: 'requested', reschedules: DEFAULT_BOOKING_RULES.maxReschedules - 1 }, start - 2 * notice)).toEqual({ allowed: true, movesLeft: 1 });
    expect(moveCheck({ ...facts, reschedules: DEFAULT_BOOKING_RULES.maxReschedules }, start - 2 * notice)).toEqual({ allowed: false, reason: 'limit' });
  });

  it('not at all once closed or once its consultation has begun', () => {
    for (const status of ['cancelled', 'rejected', 'completed']) expect(moveCheck({ ...facts, status }, start - 2 * notice)).toBeNull();
    expect(moveCheck({ ...facts, consultationBegun: true }, start - 2 * notice)).toBeNull();
  });
});

describe("My Appointments: moving a patient's appointment", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    document.documentElement.lang = 'en';
  });

  it('shows Reschedule disabled, with the reason, inside the notice and at the limit; a moved one says how often', async () => {
    vi.stubGlobal('fetch', async (url: string) =>
      json(
        url.includes('/booking-rules')
          ? rulesView()
          : url.includes('section=upcoming')
          ? [appointment('soon', { start_at: inHours(1) }), appointment('twice', { start_at: inHours(72), reschedules: 2 }), appointment('later', { start_at: inHours(48), reschedules: 1 })]
          : [],
      ),
    );
    renderAppointments();
    const [soon, twice, later] = (await screen.findAllByTestId('appointment-card')) as [HTMLElement, HTMLElement, HTMLElement];

    const soonButton = within(soon).getByRole('button', { name: 'Reschedule' });
    expect(soonButton).toHaveProperty('disabled', true);
    const reason = 'It starts in less than 2 hours, so it can no longer be moved. You can still cancel it.';
    expect(within(soon).getByText(reason)).toBeTruthy();
    expect(document.getElementById(soonButton.getAttribute('aria-describedby')!)?.textContent).toBe(reason);
    expect(within(soon).getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', false);

    expect(within(twice).getByRole('button', { name: 'Reschedule' })).toHaveProperty('disabled', true);
    expect(within(twice).getByText('It has been moved 2 times, the most allowed, so it can no longer be moved.')).toBeTruthy();
    expect(within(twice).getByTestId('moved-times').textContent).toBe('Moved 2 times');

    expect(within(later).getByRole('button', { name: 'Reschedule' })).toHaveProperty('disabled', false);
    expect(within(later).getByTestId('moved-times').textContent).toBe('Moved once');
    expect(within(later).queryByTestId('move-refusal')).toBeNull();
  });

  it('the dialog states the rule, lists the same doctor’s open times, moves to the one picked, and the list shows it awaiting approval', async () => {
    const now = appointment('a1', { start_at: inHours(72) });
    const target = slotTomorrow(77, '11:30');
    const moved = { ...appointment('a1', { status: 'requested', start_at: target.start_at, reschedules: 1 }) };
    let current = now;
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url.split('?')[0]}`);
      if (url.includes('/booking-rules')) return json(rulesView());
      if (url.startsWith('/api/v1/doctors/d1/available-slots')) return json({ slots: [slotTomorrow(76, '09:00'), target] });
      if (init?.method === 'POST') {
        expect(JSON.parse(String(init.body))).toEqual({ slot_id: 77 });
        current = moved;
        return json({ appointment_id: 'a1', status: 'requested', slot_id: 77, start: target.start_at, end: target.end_at });
      }
      return json(url.includes('section=upcoming') ? [current] : []);
    });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    fireEvent.click(within(card).getByRole('button', { name: 'Reschedule' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reschedule appointment' });
    const rule = within(dialog).getByTestId('reschedule-rule');
    expect(rule.textContent).toContain('You can move an appointment up to 2 hours before it starts, at most 2 times.');
    expect(rule.textContent).toContain('You can move this appointment 2 more times.');
    expect(rule.textContent).toContain("It is confirmed now: at its new time it waits for the doctor's approval again.");
    const move = within(dialog).getByRole('button', { name: 'Move appointment' });
    expect(move).toHaveProperty('disabled', true);

    const slot = await slotButton(dialog, 77);
    fireEvent.click(slot);
    expect(slot.getAttribute('aria-pressed')).toBe('true');
    expect(within(dialog).getByTestId('reschedule-new-time').textContent).toMatch(/^New time: /);
    fireEvent.click(move);

    await screen.findByText('Appointment moved');
    expect(screen.getByText(/^New time with Dr\. Ananya Sharma: .*It is waiting for the doctor's approval\.$/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const updated = await screen.findByTestId('appointment-card');
    await within(updated).findByText('Awaiting approval');
    expect(within(updated).getByTestId('moved-times').textContent).toBe('Moved once');
    expect(calls).toContain('POST /api/v1/appointments/a1/reschedule');
  });

  it("a refusal from the server is said in the dialog in its words, and the open times are asked again", async () => {
    let slotReads = 0;
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('/booking-rules')) return json(rulesView());
      if (url.startsWith('/api/v1/doctors/d1/available-slots')) {
        slotReads += 1;
        return json({ slots: [slotTomorrow(77, '11:30')] });
      }
      if (init?.method === 'POST') return json({ detail: 'This slot is already booked', code: 'slot_taken' }, 409);
      return json(url.includes('section=upcoming') ? [appointment('a1', { start_at: inHours(72) })] : []);
    });
    renderAppointments();
    fireEvent.click(within(await screen.findByTestId('appointment-card')).getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule appointment' });
    fireEvent.click(await slotButton(dialog, 77));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move appointment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This slot is already booked');
    await waitFor(() => expect(slotReads).toBe(2));
    expect(within(dialog).getByRole('button', { name: 'Move appointment' })).toHaveProperty('disabled', true);
  });

  it("follows the doctor's own rules: their notice and limit, and a move that stays confirmed where they accept moves", async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.includes('/booking-rules')) return json(rulesView({ min_notice_minutes: 24 * 60, max_reschedules: 1, auto_accept_moves: true }));
      if (url.startsWith('/api/v1/doctors/d1/available-slots')) return json({ slots: [slotTomorrow(77, '11:30')] });
      return json(url.includes('section=upcoming') ? [appointment('soon', { start_at: inHours(12) }), appointment('later', { start_at: inHours(72) })] : []);
    });
    renderAppointments();
    const [soon, later] = (await screen.findAllByTestId('appointment-card')) as [HTMLElement, HTMLElement];
    // 12 hours ahead is inside this doctor's day of notice (the product's 2 hours would allow it).
    await within(soon).findByText('It starts in less than 24 hours, so it can no longer be moved. You can still cancel it.');
    expect(within(soon).getByRole('button', { name: 'Reschedule' })).toHaveProperty('disabled', true);

    fireEvent.click(within(later).getByRole('button', { name: 'Reschedule' }));
    const rule = within(await screen.findByRole('dialog', { name: 'Reschedule appointment' })).getByTestId('reschedule-rule');
    expect(rule.textContent).toContain('You can move an appointment up to 24 hours before it starts, at most once.');
    expect(rule.textContent).toContain('You can move this appointment 1 more time.');
    expect(rule.textContent).toContain('This doctor accepts moves: it stays confirmed at its new time.');
    expect(rule.textContent).not.toContain("waits for the doctor's approval again");
  });

  it('a doctor allowing no moves: says so, not "moved 0 times"', async () => {
    vi.stubGlobal('fetch', async (url: string) =>
      json(url.includes('/booking-rules') ? rulesView({ max_reschedules: 0 }) : url.includes('section=upcoming') ? [appointment('a1', { start_at: inHours(72) })] : []),
    );
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    expect((await within(card).findByTestId('move-refusal')).textContent).toBe('This doctor does not allow moving appointments. You can still cancel it.');
    expect(within(card).getByRole('button', { name: 'Reschedule' })).toHaveProperty('disabled', true);
    expect(moveCheck({ status: 'confirmed', startAt: inHours(72), reschedules: 0, consultationBegun: false }, Date.now(), { ...DEFAULT_BOOKING_RULES, maxReschedules: 0 })).toEqual({ allowed: false, reason: 'not_allowed' });
  });

  it('says the rule and the reason in Hindi', async () => {
    vi.stubGlobal('fetch', async (url: string) => json(url.includes('/booking-rules') ? rulesView() : url.includes('section=upcoming') ? [appointment('soon', { start_at: inHours(1) })] : []));
    renderAppointments('hi');
    const card = await screen.findByTestId('appointment-card');
    expect(await within(card).findByRole('button', { name: 'समय बदलें' })).toHaveProperty('disabled', true);
    expect(within(card).getByTestId('move-refusal').textContent).toBe('यह 2 घंटे से कम समय में शुरू हो रहा है, इसलिए अब इसका समय नहीं बदला जा सकता। आप इसे अब भी रद्द कर सकते हैं।');
  });
});
