import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRoutes } from '@telemed/contracts';
import { CREDIT_PACKS } from '@telemed/contracts/constants';
import { call } from '../../lib/client';
import { openRazorpayCheckout } from './razorpay';

/** The patient's credits as the server keeps them (issue 36). */
export type Wallet = ApiRoutes['getMyWallet']['response'];
export type PackOrder = ApiRoutes['createPackOrder']['response'];

export const walletKey = ['wallet', 'me'] as const;

export function useWallet(enabled = true) {
  return useQuery({ queryKey: walletKey, enabled, queryFn: () => call('getMyWallet') });
}

/** What the checkout ended in, as the page shows it. */
export type CheckoutOutcome = { kind: 'paid'; credits: number } | { kind: 'pending' } | { kind: 'failed' } | { kind: 'cancelled' };

/** The patient's return from the local test gateway's checkout: `/home?pack_order=…` and what happened there. */
export function checkoutReturnOf(search: string): { order_id: string; payment_id: string; signature: string } | { order_id: string; outcome: 'failed' | 'cancelled' } | null {
  const query = new URLSearchParams(search);
  const order_id = query.get('pack_order');
  if (!order_id) return null;
  const payment_id = query.get('payment_id');
  const signature = query.get('signature');
  if (payment_id && signature) return { order_id, payment_id, signature };
  return { order_id, outcome: query.get('payment') === 'failed' ? 'failed' : 'cancelled' };
}

/** The checkout's word sent to the server, which adds the credits once the gateway confirms the capture. */
export async function confirmPayment(input: { order_id: string; payment_id: string; signature: string }): Promise<CheckoutOutcome> {
  const outcome = await call('confirmPackPayment', { params: { order_id: input.order_id }, body: { payment_id: input.payment_id, signature: input.signature } });
  return outcome.status === 'paid' ? { kind: 'paid', credits: outcome.credits } : { kind: 'pending' };
}

/**
 * Buying a pack: the server's order, then the gateway's checkout. Razorpay's opens over the page and answers here; the
 * local test gateway's is a page of its own, which sends the patient back to `/home?pack_order=…` (checkoutReturnOf).
 */
export function useBuyPack(options: { name: string; onOutcome: (outcome: CheckoutOutcome) => void; returnTo?: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credits: number): Promise<CheckoutOutcome | null> => {
      const order = await call('createPackOrder', { body: { credits, ...(options.returnTo ? { return_to: options.returnTo } : {}) } });
      if (order.checkout.kind === 'local') {
        window.location.assign(order.checkout.url);
        return null;
      }
      const answer = await openRazorpayCheckout({ key: order.checkout.key_id, order_id: order.checkout.order_id, amount: order.checkout.amount_paise, name: options.name });
      if (!answer) return { kind: 'cancelled' };
      return confirmPayment({ order_id: order.order_id, payment_id: answer.razorpay_payment_id, signature: answer.razorpay_signature });
    },
    onSuccess: (outcome) => outcome && options.onOutcome(outcome),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKey }),
  });
}

const CHECKOUT_PARAMS = ['pack_order', 'payment_id', 'signature', 'payment'];

/** The page's query without what the checkout added to it (the booking's own parameters stay). */
export function withoutCheckoutParams(search: string): string {
  const query = new URLSearchParams(search);
  for (const name of CHECKOUT_PARAMS) query.delete(name);
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

/**
 * Back from a checkout that is a page of its own (`?pack_order=…`): the payment confirmed with the server, once, and
 * the checkout's parameters taken off the address so that a reload does not ask again.
 */
export function useCheckoutReturn(onOutcome: (outcome: CheckoutOutcome) => void, onError: (error: unknown) => void) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  useEffect(() => {
    const back = checkoutReturnOf(location.search);
    if (!back || handled.current === back.order_id) return;
    handled.current = back.order_id;
    void navigate({ pathname: location.pathname, search: withoutCheckoutParams(location.search) }, { replace: true });
    if ('outcome' in back) {
      onOutcome({ kind: back.outcome });
      return;
    }
    confirmPayment(back)
      .then(onOutcome, onError)
      .finally(() => void queryClient.invalidateQueries({ queryKey: walletKey }));
  }, [location.search, location.pathname, navigate, queryClient, onOutcome, onError]);
}

/** The smallest pack on sale that covers what is missing (the largest when none does). */
export function packCovering(shortfall: number): (typeof CREDIT_PACKS)[number] {
  return CREDIT_PACKS.find((pack) => pack.credits >= shortfall) ?? CREDIT_PACKS[CREDIT_PACKS.length - 1]!;
}
