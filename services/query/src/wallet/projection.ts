import type { FeeChargeReason, FeeReturnReason, RecordedEvent } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';

/**
 * Patients' credits (issue 36): one document per wallet (what is free and what is held, as the wallet's stream has
 * them) and one entry per change for the patient's statement, read a page at a time by (patient, log position).
 */
export const WALLETS = 'wallets';
export const WALLET_ENTRIES = 'wallet_entries';

export interface WalletDoc {
  _id: string;
  balance: number;
  held: number;
  updated_at: string;
}

export interface WalletEntryDoc {
  _id: string;
  patient_id: string;
  position: number;
  at: string;
  kind: 'opened' | 'bought' | 'held' | 'charged' | 'returned' | 'adjusted' | 'refunded';
  credits: number;
  /** What the change moved between free and held: a hold moves credits in, a charge or a return moves them out. */
  held_change: number;
  appointment_id: string | null;
  reason: FeeChargeReason | FeeReturnReason | 'adjustment' | null;
  amount_paise: number | null;
  payment_id: string | null;
}

type WalletEventType = 'WalletOpened' | 'CreditsBought' | 'FeeHeld' | 'FeeCharged' | 'FeeReturned' | 'CreditsAdjusted' | 'PackRefunded';

/** The statement's line for an event of the wallet's stream. */
function entryOf(event: RecordedEvent & { type: WalletEventType }): Omit<WalletEntryDoc, '_id' | 'patient_id' | 'position' | 'at'> {
  const none = { appointment_id: null, reason: null, amount_paise: null, payment_id: null };
  switch (event.type) {
    case 'WalletOpened':
      return { ...none, kind: 'opened', credits: event.data.credits, held_change: 0 };
    case 'CreditsBought':
      return { ...none, kind: 'bought', credits: event.data.credits, held_change: 0, amount_paise: event.data.amount_paise, payment_id: event.data.payment_id };
    case 'FeeHeld':
      return { ...none, kind: 'held', credits: -event.data.credits, held_change: event.data.credits, appointment_id: event.data.appointment_id };
    case 'FeeCharged':
      return { ...none, kind: 'charged', credits: 0, held_change: -event.data.credits, appointment_id: event.data.appointment_id, reason: event.data.reason };
    case 'FeeReturned':
      return { ...none, kind: 'returned', credits: event.data.credits, held_change: -event.data.credits, appointment_id: event.data.appointment_id, reason: event.data.reason };
    case 'CreditsAdjusted':
      return { ...none, kind: 'adjusted', credits: event.data.credits, held_change: 0, reason: 'adjustment' };
    case 'PackRefunded':
      return { ...none, kind: 'refunded', credits: -event.data.credits, held_change: 0, amount_paise: event.data.amount_paise, payment_id: event.data.payment_id };
  }
}

async function apply(event: RecordedEvent, store: CollectionSource): Promise<void> {
  const patient_id = (event.data as { patient_id: string }).patient_id;
  const entry = entryOf(event as RecordedEvent & { type: WalletEventType });
  const wallets = store.collection<WalletDoc>(WALLETS);
  const before = await wallets.get(patient_id);
  await wallets.put({
    _id: patient_id,
    balance: (before?.balance ?? 0) + entry.credits,
    held: (before?.held ?? 0) + entry.held_change,
    updated_at: event.metadata.occurred_at,
  });
  await store.collection<WalletEntryDoc>(WALLET_ENTRIES).put({ _id: event.event_id, patient_id, position: event.position, at: event.metadata.occurred_at, ...entry });
}

export const walletProjection = defineProjection({
  name: 'wallets',
  version: 3,
  collections: [WALLETS, WALLET_ENTRIES],
  // A patient's statement by position; a pack's receipt by its payment.
  indexes: [
    { collection: WALLET_ENTRIES, fields: ['patient_id', 'position'] },
    { collection: WALLET_ENTRIES, fields: ['patient_id', 'payment_id'] },
    // The reconciliation's window of packs credited.
    { collection: WALLET_ENTRIES, fields: ['kind', 'at'] },
  ],
  handles: ['WalletOpened', 'CreditsBought', 'FeeHeld', 'FeeCharged', 'FeeReturned', 'CreditsAdjusted', 'PackRefunded'],
  // An erased patient's statement keeps no personal data (amounts and ids only): the records of money are kept.
  ignores: ['accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'PackOrdered', 'PackPaymentFailed'],
  apply,
});
