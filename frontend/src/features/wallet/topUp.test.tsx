import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { json, renderAt } from '../../test/render';
import { slotFacts } from '../../test/slotFacts';
import { sessionStore } from '../../lib/session';
import { ConfirmAppointment } from '../patient/ConfirmAppointment';

type Call = { method: string; path: string; body: unknown };

/** The booking's routes: the slot, a current consent, the rules; a request refused for credits; a pack's order and its payment. */
function serve() {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = String(url).replace('/api/v1', '').split('?')[0]!;
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    if (path === '/slots/12') return json(200, slotFacts());
    if (path === '/users/me/consents') return json(200, { current_notice_version: 'v9', has_current_consent: true, consents: [] });
    if (path === '/doctors/d-1/booking-rules') return json(200, { doctor_id: 'd-1', min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false, source: 'default' });
    if (path === '/appointments' && method === 'POST') {
      return json(402, { detail: 'This consultation needs 450 credits and you have 100. Add credits to book it.', code: 'insufficient_credits', values: ['450', '100'] });
    }
    if (path === '/wallet/orders') return json(201, { order_id: 'order_1', credits: 500, amount_paise: 449_900, checkout: { kind: 'local', url: '/payments/local/checkout/order_1?return_to=x' } });
    if (path === '/wallet/orders/order_1/payment') return json(200, { order_id: 'order_1', status: 'paid', credits: 500 });
    if (path === '/wallet/me') return json(200, { balance: 600, held: 0, rupees_per_credit: 1, packs: [] });
    return json(404, { detail: 'Not Found', code: 'not_found' });
  });
  return calls;
}

beforeEach(() => {
  sessionStore.set({ token: 't', refreshToken: null, authProvider: 'google', user: { id: 'p-1', user_id: 'p-1', name: 'Priya', email: null, account_type: 'patient' } });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStore.clear();
  sessionStorage.clear();
});

describe('a booking refused for credits', () => {
  it('offers the pack that covers what is missing, and comes back to the booking with the reason kept', async () => {
    const calls = serve();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderAt('/confirm-appointment?slot_id=12', <ConfirmAppointment />);
    fireEvent.change(await screen.findByLabelText(/Reason for Visit/), { target: { value: 'Rash on both arms' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Request' }));
    await screen.findByText(/This consultation needs 450 credits and you have 100/);
    // 350 are missing: the 500 pack is the smallest that covers them.
    fireEvent.click(screen.getByRole('button', { name: 'Buy 500 credits for ₹4,499' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payments/local/checkout/order_1?return_to=x'));
    expect(calls.find((c) => c.path === '/wallet/orders')?.body).toEqual({ credits: 500, return_to: '/confirm-appointment?slot_id=12' });
    expect(sessionStorage.getItem('booking-draft:12')).toBe('Rash on both arms');

    // Back from the checkout: the payment confirmed once, the booking's address as it was, the reason still there.
    cleanup();
    renderAt('/confirm-appointment?slot_id=12&pack_order=order_1&payment_id=pay_1&signature=s', <ConfirmAppointment />);
    expect(await screen.findByText('500 credits added. Thank you!')).toBeTruthy();
    expect(screen.getByLabelText<HTMLTextAreaElement>(/Reason for Visit/).value).toBe('Rash on both arms');
    expect(calls.filter((c) => c.path === '/wallet/orders/order_1/payment')).toHaveLength(1);
    expect(screen.queryByTestId('top-up')).toBeNull();
  });
});
