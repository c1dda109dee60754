import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NO_SHOW_DOCTOR_WAIT_MINUTES, NO_SHOW_GRACE_MINUTES, SLOT_MINUTES } from '@telemed/contracts/constants';
import { ToastProvider } from '../../lib/toasts';
import { ConfirmProvider } from '../../lib/confirm';
import { sessionStore } from '../../lib/session';
import { MyAppointments } from './MyAppointments';
import { openProposal, type Proposal } from './proposal';
import { canMarkAbsent } from '../doctor/absence';
import { slotTomorrow } from '../../test/slots';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const slotAt = (slot_id: number, start_at: string) => ({ slot_id, slot_date: start_at.slice(0, 10), start_time: '10:00:00', end_time: '10:30:00', start_at });

/** Other times offered: two slots, answerable for a day. */
const offer = (expires_at = inHours(24)): Proposal => ({ slots: [slotAt(71, inHours(30)), slotAt(72, inHours(54))], expires_at });

/** One of the patient's appointments as GET /appointments/me answers it. */
const patientAppointment = (appointment_id: string, fields: { status?: string; start_at?: string; proposal?: Proposal | null } = {}) => {
  const start_at = fields.start_at ?? inHours(72);
  return {
    appointment_id,
    status: fields.status ?? 'confirmed',
    notes: 'Fever',
    created_at: new Date().toISOString(),
    rejection_reason: null,
    status_reason: null,
    cancellation_reason: null,
    doctor: { doctor_id: 'd1', name: 'Dr. Ananya Sharma', specialty: 'General Medicine' },
    patient: { name: 'Meera Iyer', phone_number: null },
    consultation_held: false,
    reschedules: 0,
    proposal: fields.proposal ?? null,
    slot: slotAt(1, start_at),
  };
};

/** One of the doctor's appointments as GET /appointments/me answers it. */
const doctorAppointment = (appointment_id: string, fields: { status?: string; status_reason?: string; start_at?: string; proposal?: Proposal | null; consultation_held?: boolean } = {}) => {
  const start_at = fields.start_at ?? inHours(72);
  return {
    appointment_id,
    patient_id: 'p1',
    patient_name: 'Meera Iyer',
    notes: 'Fever',
    status: fields.status ?? 'confirmed',
    status_reason: fields.status_reason ?? null,
    rejection_reason: null,
    created_at: new Date().toISOString(),
    consultation_fee: 500,
    consultation_held: fields.consultation_held ?? false,
    moved_from: null,
    proposal: fields.proposal ?? null,
    slot: slotAt(1, start_at),
  };
};

const rulesView = { doctor_id: 'd1', min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false, source: 'default' };

type Call = { method: string; path: string; body: unknown };

/** The routes My Appointments reads and writes, each request recorded; `answer` decides the writes. */
function serve(lists: { upcoming: () => unknown[]; past?: () => unknown[] }, answer: (call: Call) => Response | undefined = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call: Call = { method: init?.method ?? 'GET', path: url.split('?')[0]!.replace('/api/v1', ''), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const written = answer(call);
    if (written) return written;
    if (call.path.endsWith('/booking-rules')) return json(rulesView);
    if (call.path === '/doctors/d1/available-slots') return json({ slots: [slotTomorrow(81, '09:00'), slotTomorrow(82, '09:30'), slotTomorrow(83, '10:00'), slotTomorrow(84, '10:30')] });
    if (call.path === '/appointments/me') return json(url.includes('section=upcoming') ? lists.upcoming() : (lists.past?.() ?? []));
    return json({ detail: 'not found' }, 404);
  });
  return calls;
}

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

const asDoctor = () => sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'd1', user_id: 'd1', name: 'Dr. Ananya Sharma', email: null, account_type: 'doctor' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.clear();
});

describe('an offer of other times, as the screens read it', () => {
  it('is open until it expires, without the times already begun', () => {
    const proposal = offer(inHours(1));
    expect(openProposal(proposal)).toEqual(proposal);
    expect(openProposal(proposal, Date.parse(proposal.expires_at))).toBeNull();
    expect(openProposal(null)).toBeNull();
    expect(openProposal({ ...proposal, slots: [slotAt(70, minutesAgo(5)), ...proposal.slots] })?.slots.map((s) => s.slot_id)).toEqual([71, 72]);
  });
});

describe("My Appointments: the patient answers the doctor's offer", () => {
  it('lists each offered time with Accept and until when; accepting one moves it there, says so and refreshes the list', async () => {
    const proposal = offer();
    let current = patientAppointment('a1', { proposal });
    const calls = serve({ upcoming: () => [current] }, (call) => {
      if (call.method !== 'POST') return undefined;
      current = patientAppointment('a1', { start_at: proposal.slots[1]!.start_at });
      return json({ appointment_id: 'a1', status: 'confirmed', slot_id: 72, start: proposal.slots[1]!.start_at, end: inHours(54.5) });
    });
    renderAppointments();
    const panel = await screen.findByRole('region', { name: 'Dr. Ananya Sharma offered other times' });
    expect(within(panel).getByTestId('proposal-answer-by').textContent).toMatch(/^Answer by /);
    const times = within(panel).getAllByTestId('proposed-time');
    expect(times.map((t) => t.getAttribute('data-slot-id'))).toEqual(['71', '72']);
    fireEvent.click(within(times[1]!).getByRole('button', { name: /^Accept / }));

    await screen.findByText('New time accepted');
    expect(screen.getByText(/^Your appointment with Dr\. Ananya Sharma is confirmed for /)).toBeTruthy();
    expect(calls).toContainEqual({ method: 'POST', path: '/appointments/a1/proposal/accept', body: { slot_id: 72 } });
    await waitFor(() => expect(screen.queryByTestId('proposal-panel')).toBeNull());
  });

  it('declining asks first, saying it cancels the appointment; confirmed, it is declined and the list refreshed', async () => {
    let current = patientAppointment('a1', { proposal: offer() });
    const calls = serve({ upcoming: () => [current] }, (call) => {
      if (call.method !== 'POST') return undefined;
      current = { ...patientAppointment('a1'), status: 'cancelled' };
      return json({ appointment_id: 'a1', status: 'cancelled' });
    });
    renderAppointments();
    const panel = await screen.findByTestId('proposal-panel');
    fireEvent.click(within(panel).getByRole('button', { name: 'Decline' }));

    const question = await screen.findByRole('dialog', { name: 'Decline the other times?' });
    expect(question.textContent).toMatch(/Declining cancels your appointment with Dr\. Ananya Sharma for .*You can book another time afterwards\./);
    fireEvent.click(within(question).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(within(panel).getByRole('button', { name: 'Decline' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Decline the other times?' })).getByRole('button', { name: 'Decline and cancel' }));
    await screen.findByText('You declined the other times Dr. Ananya Sharma offered.');
    expect(calls).toContainEqual({ method: 'POST', path: '/appointments/a1/proposal/decline', body: undefined });
    await waitFor(() => expect(screen.queryByTestId('proposal-panel')).toBeNull());
  });

  it("a refusal (the time was taken meanwhile) is said in the server's words and the list is asked again", async () => {
    let reads = 0;
    serve(
      {
        upcoming: () => {
          reads += 1;
          return [patientAppointment('a1', { proposal: offer() })];
        },
      },
      (call) => (call.method === 'POST' ? json({ detail: 'This slot is already booked', code: 'slot_taken' }, 409) : undefined),
    );
    renderAppointments();
    const panel = await screen.findByTestId('proposal-panel');
    const readsBefore = reads;
    fireEvent.click(within(within(panel).getAllByTestId('proposed-time')[0]!).getByRole('button', { name: /^Accept / }));
    await screen.findByText('The time could not be accepted.');
    expect(screen.getByText('This slot is already booked')).toBeTruthy();
    await waitFor(() => expect(reads).toBeGreaterThan(readsBefore));
  });

  it('an expired offer is not shown', async () => {
    serve({ upcoming: () => [patientAppointment('a1', { proposal: offer(minutesAgo(1)) })] });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    await within(card).findByText('Confirmed');
    expect(within(card).queryByTestId('proposal-panel')).toBeNull();
  });
});

describe("My Appointments: the doctor offers other times", () => {
  it('lists their own open times, takes at most three, sends them, and the row says it waits for the patient', async () => {
    asDoctor();
    let current = doctorAppointment('a1', { status: 'requested' });
    const calls = serve({ upcoming: () => [current] }, (call) => {
      if (call.method !== 'POST') return undefined;
      current = doctorAppointment('a1', { status: 'requested', proposal: offer() });
      return json({ appointment_id: 'a1', status: 'requested' });
    });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    expect(within(card).queryByRole('button', { name: 'Mark patient absent' })).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Offer other times' }));

    const dialog = await screen.findByRole('dialog', { name: 'Offer other times' });
    const send = within(dialog).getByRole('button', { name: /^Offer \d+ times?$/ });
    expect(send).toHaveProperty('disabled', true);
    const slot = async (id: number) =>
      waitFor(() => {
        const button = dialog.querySelector<HTMLButtonElement>(`[data-slot-id="${id}"]`);
        if (!button) throw new Error(`no slot ${id} yet`);
        return button;
      });
    for (const id of [81, 82, 83]) fireEvent.click(await slot(id));
    expect(within(dialog).getByTestId('offer-times-count').textContent).toBe('Chosen: 3 of 3');
    expect(within(dialog).getByText('That is the most you can offer (3). Remove one to pick another.')).toBeTruthy();
    expect(await slot(84)).toHaveProperty('disabled', true);
    expect((await slot(82)).getAttribute('aria-pressed')).toBe('true');
    // Picking one again takes it back, and another can be picked.
    fireEvent.click(await slot(82));
    expect(await slot(84)).toHaveProperty('disabled', false);
    fireEvent.click(await slot(84));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Offer 3 times' }));

    await screen.findByText('Other times offered to Meera Iyer');
    expect(calls).toContainEqual({ method: 'POST', path: '/appointments/a1/propose-times', body: { slot_ids: [81, 83, 84] } });
    expect(calls).toContainEqual({ method: 'GET', path: '/doctors/d1/available-slots', body: undefined });
    const waiting = await within(await screen.findByTestId('appointment-card')).findByTestId('offer-waiting');
    expect(waiting.textContent).toContain('Other times offered — waiting for the patient');
  });

  it('is not offered once the consultation has begun', async () => {
    asDoctor();
    serve({ upcoming: () => [doctorAppointment('a1', { consultation_held: true, start_at: inHours(1) })] });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    await within(card).findByText('Confirmed');
    expect(within(card).queryByRole('button', { name: 'Offer other times' })).toBeNull();
  });
});

describe('marking the patient absent', () => {
  const start = Date.parse('2026-12-10T10:00:00Z');
  const facts = { status: 'confirmed', startAt: new Date(start).toISOString() };

  it(`from ${NO_SHOW_DOCTOR_WAIT_MINUTES} minutes after the start until ${NO_SHOW_GRACE_MINUTES} minutes after the end, of a confirmed one only`, () => {
    expect(canMarkAbsent(facts, start + NO_SHOW_DOCTOR_WAIT_MINUTES * MINUTE - 1)).toBe(false);
    expect(canMarkAbsent(facts, start + NO_SHOW_DOCTOR_WAIT_MINUTES * MINUTE)).toBe(true);
    const until = start + (SLOT_MINUTES + NO_SHOW_GRACE_MINUTES) * MINUTE;
    expect(canMarkAbsent(facts, until - 1)).toBe(true);
    expect(canMarkAbsent(facts, until)).toBe(false);
    for (const status of ['requested', 'completed', 'no_show', 'cancelled']) expect(canMarkAbsent({ ...facts, status }, start + 15 * MINUTE)).toBe(false);
  });

  it("shows on the doctor's row inside the window only; asked first, it closes the appointment as the patient's no-show", async () => {
    asDoctor();
    const lateStart = minutesAgo(NO_SHOW_DOCTOR_WAIT_MINUTES + 1);
    let current = doctorAppointment('late', { start_at: lateStart });
    const early = doctorAppointment('early', { start_at: minutesAgo(NO_SHOW_DOCTOR_WAIT_MINUTES - 5) });
    const calls = serve({ upcoming: () => [early, current] }, (call) => {
      if (call.method !== 'POST') return undefined;
      current = doctorAppointment('late', { start_at: lateStart, status: 'no_show', status_reason: 'patient_absent' });
      return json({ appointment_id: 'late', status: 'no_show' });
    });
    renderAppointments();
    const [earlyCard, lateCard] = (await screen.findAllByTestId('appointment-card')) as [HTMLElement, HTMLElement];
    expect(within(earlyCard).queryByRole('button', { name: 'Mark patient absent' })).toBeNull();
    fireEvent.click(within(lateCard).getByRole('button', { name: 'Mark patient absent' }));

    const question = await screen.findByRole('dialog', { name: 'Mark the patient absent?' });
    expect(question.textContent).toContain('Meera Iyer has not joined the appointment of');
    fireEvent.click(within(question).getByRole('button', { name: 'Mark absent' }));
    await screen.findByText('Closed as missed: the patient did not attend');
    expect(calls).toContainEqual({ method: 'POST', path: '/appointments/late/no-show', body: undefined });
    await waitFor(() => expect(screen.getAllByTestId('appointment-card')[1]!.getAttribute('data-status')).toBe('no_show'));
    expect(within(screen.getAllByTestId('appointment-card')[1]!).getByText('Patient did not attend')).toBeTruthy();
  });

  it('a past row still inside the grace after its end keeps the button', async () => {
    asDoctor();
    serve({ upcoming: () => [], past: () => [doctorAppointment('ended', { start_at: minutesAgo(SLOT_MINUTES + 5) })] });
    renderAppointments();
    const card = await screen.findByTestId('appointment-card');
    expect(within(card).getByRole('button', { name: 'Mark patient absent' })).toBeTruthy();
  });
});
