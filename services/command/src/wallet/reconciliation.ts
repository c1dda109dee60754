import type { GatewayPayment } from '@telemed/platform';

/** What the reconciliation reads of the wallets (from the read models): the packs credited in a window. */
export interface WalletLookups {
  purchasesBetween(from: Date, to: Date): Promise<Array<{ payment_id: string; patient_id: string; amount_paise: number; at: string }>>;
}

/**
 * The gateway's payments against the wallets' credits (issue 36): a captured payment no wallet counted is money taken
 * for nothing (a second payment of a paid order, a credit lost), a credit whose payment the gateway does not show as
 * taken is a pack given for nothing. A payment the gateway refunded since counts as taken.
 */
export function reconcile(taken: readonly GatewayPayment[], credited: Awaited<ReturnType<WalletLookups['purchasesBetween']>>) {
  const kept = taken.filter((p) => p.status === 'captured' || p.status === 'refunded');
  const creditedIds = new Set(credited.map((c) => c.payment_id));
  const takenIds = new Set(kept.map((p) => p.payment_id));
  return {
    matched: kept.filter((p) => creditedIds.has(p.payment_id)).length,
    gateway_only: kept.filter((p) => !creditedIds.has(p.payment_id)).map(({ payment_id, order_id, amount_paise, status }) => ({ payment_id, order_id, amount_paise, status })),
    wallet_only: credited.filter((c) => !takenIds.has(c.payment_id)),
  };
}
