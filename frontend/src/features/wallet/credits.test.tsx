import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CREDIT_PACKS } from '@telemed/contracts/constants';
import { CreditsCard } from './CreditsCard';
import { checkoutReturnOf } from './wallet';

interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** The server as the card sees it: the wallet, an order at the local test gateway, and the payment's confirmation. */
function serve(options: { balance: number; confirm?: () => Response }) {
  const calls: Call[] = [];
  let balance = options.balance;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ url, method, body });
    if (url === '/api/v1/wallet/me') return Response.json({ balance, held: 0, rupees_per_credit: 1, packs: CREDIT_PACKS });
    if (url.startsWith('/api/v1/wallet/me/entries')) return Response.json(statement(url));
    if (url === '/api/v1/wallet/orders') return Response.json({ order_id: 'order_1', credits: 200, amount_paise: 189_900, checkout: { kind: 'local', url: '/payments/local/checkout/order_1' } }, { status: 201 });
    if (url === '/api/v1/wallet/orders/order_1/payment') {
      const answer = options.confirm?.() ?? Response.json({ order_id: 'order_1', status: 'paid', credits: 200 });
      if (answer.ok) balance += 200;
      return answer;
    }
    return Response.json({ detail: 'Not Found', code: 'not_found' }, { status: 404 });
  });
  return calls;
}

const entry = (i: number, kind: string, credits: number, extra: object = {}) => ({ entry_id: `e-${i}`, at: '2030-01-02T04:30:00Z', kind, credits, appointment_id: null, reason: null, amount_paise: null, payment_id: null, ...extra });

/** A statement of 21 lines: the first page of 20, then the last (the starting grant). */
function statement(url: string) {
  if (url.includes('before=e-20')) return [entry(21, 'opened', 100)];
  return [
    entry(1, 'returned', 450, { appointment_id: 'a-1', reason: 'rejected' }),
    entry(2, 'held', -450, { appointment_id: 'a-1' }),
    entry(3, 'charged', 0, { appointment_id: 'a-2', reason: 'consultation' }),
    entry(4, 'bought', 500, { amount_paise: 449_900, payment_id: 'pay_1' }),
    ...Array.from({ length: 16 }, (_, i) => entry(i + 5, 'adjusted', 1, { reason: 'adjustment' })),
  ];
}

function Address() {
  const location = useLocation();
  return <p data-testid="address">{location.pathname + location.search}</p>;
}

function renderCard(at = '/') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route
            path="/"
            element={
              <>
                <CreditsCard />
                <Address />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('credits card', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("a pack is ordered on the server and paid at the gateway's checkout page; nothing is added on the device", async () => {
    const calls = serve({ balance: 100 });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    renderCard();
    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('100'));
    fireEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Purchase Credits' });
    expect(within(dialog).getByText(/Pay by UPI, card or net banking/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /^200 credits/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payments/local/checkout/order_1'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ url: '/api/v1/wallet/orders', method: 'POST', body: { credits: 200 } });
    expect(screen.getByTestId('credits').textContent).toBe('100');
  });

  it('back from the checkout: the payment is confirmed with the server once, the address cleaned, the new balance shown', async () => {
    const calls = serve({ balance: 100 });
    renderCard('/?pack_order=order_1&payment_id=pay_1&signature=abc');
    expect(await screen.findByText('200 credits added. Thank you!')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('credits').textContent).toBe('300'));
    expect(screen.getByTestId('address').textContent).toBe('/');
    expect(calls.filter((c) => c.url.endsWith('/payment'))).toEqual([{ url: '/api/v1/wallet/orders/order_1/payment', method: 'POST', body: { payment_id: 'pay_1', signature: 'abc' } }]);
  });

  it("says so when the payment failed, was cancelled, or the server could not verify it, in the server's words", async () => {
    serve({ balance: 100, confirm: () => Response.json({ detail: 'The payment could not be verified', code: 'payment_signature_invalid' }, { status: 400 }) });
    renderCard('/?pack_order=order_1&payment_id=pay_1&signature=forged');
    expect(await screen.findByText('The payment could not be verified')).toBeTruthy();
    cleanup();
    renderCard('/?pack_order=order_1&payment=failed');
    expect(await screen.findByText('The payment failed and nothing was charged. You can try again.')).toBeTruthy();
    cleanup();
    renderCard('/?pack_order=order_1&payment=cancelled');
    expect(await screen.findByText('The payment was cancelled. Nothing was charged.')).toBeTruthy();
  });

  it('reads the return address as the gateway writes it', () => {
    expect(checkoutReturnOf('?x=1')).toBeNull();
    expect(checkoutReturnOf('?pack_order=o&payment_id=p&signature=s')).toEqual({ order_id: 'o', payment_id: 'p', signature: 's' });
    expect(checkoutReturnOf('?pack_order=o&payment=failed')).toEqual({ order_id: 'o', outcome: 'failed' });
    expect(checkoutReturnOf('?pack_order=o')).toEqual({ order_id: 'o', outcome: 'cancelled' });
  });

  it("the statement lists every change, newest first, and pages on", async () => {
    serve({ balance: 100 });
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: 'Statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your credits statement' });
    const list = await within(dialog).findByTestId('statement');
    await within(list).findByText('Fee returned: the doctor declined the request');
    expect(within(list).getByText('Held for a request')).toBeTruthy();
    expect(within(list).getByText('Fee kept: the consultation took place')).toBeTruthy();
    expect(within(list).getByText('Pack bought (₹4,499)')).toBeTruthy();
    expect(within(list).getByText('+450')).toBeTruthy();
    expect(within(list).getByText('-450')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show more' }));
    await within(list).findByText('Starting credits');
    expect(within(dialog).queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
