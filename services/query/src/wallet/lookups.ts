import type { ReadStore } from '@telemed/platform';
import { WALLET_ENTRIES, type WalletEntryDoc } from './projection';

/** What the write side's reconciliation reads of the wallets (issue 36): the packs credited in a window. */
export function walletLookups(readStore: ReadStore) {
  const entries = readStore.collection<WalletEntryDoc>(WALLET_ENTRIES);
  return {
    purchasesBetween: async (from: Date, to: Date) =>
      (await entries.find({ kind: 'bought', at: { $gte: from.toISOString(), $lte: to.toISOString() } }, { sort: { at: 1 } })).map((e) => ({
        payment_id: e.payment_id ?? '',
        patient_id: e.patient_id,
        amount_paise: e.amount_paise ?? 0,
        at: e.at,
      })),
  };
}
