import { match } from 'ts-pattern';
import {
  MAX_ADJUSTMENT_CREDITS,
  STARTING_CREDITS,
  WALLET_TEXTS,
  conflict,
  invalid,
  paymentRequired,
  type DomainEventOf,
  type FeeChargeReason,
  type FeeReturnReason,
} from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * A patient's credits (issue 36), one stream per patient: the balance they may spend, the fees held for their
 * requests, and the payments already counted. Checking the balance and holding a fee are one decision on this stream
 * (its expected revision), as reserving a slot is on the slot's: two requests at once cannot both spend the same credits.
 */
export type WalletEvent = DomainEventOf<'WalletOpened' | 'CreditsBought' | 'FeeHeld' | 'FeeCharged' | 'FeeReturned' | 'CreditsAdjusted' | 'PackRefunded'>;

/** A pack bought, and what of it was refunded since. */
export interface Purchase {
  order_id: string;
  credits: number;
  amount_paise: number;
  refunded_credits: number;
  refunded_paise: number;
}

export type WalletState =
  | { status: 'none' }
  | {
      status: 'open';
      patient_id: string;
      /** Credits free to spend (held fees are not among them). */
      balance: number;
      /** Fees held, by appointment. */
      held: Readonly<Record<string, number>>;
      /** Payments already counted, by payment id (a capture told twice adds nothing the second time). */
      purchases: Readonly<Record<string, Purchase>>;
      /** Refunds already recorded (a refund told twice takes nothing the second time). */
      refunds: ReadonlySet<string>;
      /** Orders already paid: a pack is credited once, whatever other payment of its order is captured. */
      orders: ReadonlySet<string>;
    };

/**
 * A command to the wallet; `grant` is what a wallet not yet opened opens with (STARTING_CREDITS, by default the
 * product's 100), recorded by its first change.
 */
export type WalletCommand = WalletChange & { grant?: number };

type WalletChange =
  /** Hold a request's fee: refused (402) when the balance does not cover it; the same appointment's again holds nothing more. */
  | { type: 'HoldFee'; data: { patient_id: string; appointment_id: string; credits: number } }
  | { type: 'ChargeFee'; data: { patient_id: string; appointment_id: string; reason: FeeChargeReason } }
  | { type: 'ReturnFee'; data: { patient_id: string; appointment_id: string; reason: FeeReturnReason } }
  /** A pack whose payment the gateway captured (its signature verified before this is asked). */
  | { type: 'RecordPurchase'; data: { patient_id: string; order_id: string; payment_id: string; credits: number; amount_paise: number; gateway: string } }
  | { type: 'Adjust'; data: { patient_id: string; credits: number; reason: string; adjusted_by: string } }
  /**
   * Money of a pack given back by the gateway (`refund_id`), once: its share of the pack's credits is taken out, as far
   * as the free balance goes (what was already spent is recorded as uncovered, never a negative balance).
   */
  | { type: 'RecordRefund'; data: { patient_id: string; payment_id: string; refund_id: string; amount_paise: number } };

type Open = Extract<WalletState, { status: 'open' }>;

function withoutKey(record: Readonly<Record<string, number>>, key: string): Record<string, number> {
  const { [key]: _gone, ...rest } = record;
  void _gone;
  return rest;
}

export function evolveWallet(state: WalletState, event: WalletEvent): WalletState {
  if (event.type === 'WalletOpened') return { status: 'open', patient_id: event.data.patient_id, balance: event.data.credits, held: {}, purchases: {}, refunds: new Set(), orders: new Set() };
  if (state.status === 'none') return state;
  return match(event)
    .with({ type: 'CreditsBought' }, ({ data }): WalletState => ({
      ...state,
      balance: state.balance + data.credits,
      purchases: { ...state.purchases, [data.payment_id]: { order_id: data.order_id, credits: data.credits, amount_paise: data.amount_paise, refunded_credits: 0, refunded_paise: 0 } },
      orders: new Set([...state.orders, data.order_id]),
    }))
    .with({ type: 'FeeHeld' }, ({ data }): WalletState => ({ ...state, balance: state.balance - data.credits, held: { ...state.held, [data.appointment_id]: data.credits } }))
    .with({ type: 'FeeCharged' }, ({ data }): WalletState => ({ ...state, held: withoutKey(state.held, data.appointment_id) }))
    .with({ type: 'FeeReturned' }, ({ data }): WalletState => ({ ...state, balance: state.balance + data.credits, held: withoutKey(state.held, data.appointment_id) }))
    .with({ type: 'CreditsAdjusted' }, ({ data }): WalletState => ({ ...state, balance: state.balance + data.credits }))
    .with({ type: 'PackRefunded' }, ({ data }): WalletState => {
      const bought = state.purchases[data.payment_id];
      const purchases = bought
        ? { ...state.purchases, [data.payment_id]: { ...bought, refunded_credits: bought.refunded_credits + data.credits + data.uncovered_credits, refunded_paise: bought.refunded_paise + data.amount_paise } }
        : state.purchases;
      return { ...state, balance: state.balance - data.credits, purchases, refunds: new Set([...state.refunds, data.refund_id]) };
    })
    .exhaustive();
}

/** The wallet as it stands once opened: a first change opens it with the starting grant. */
function opened(state: WalletState, patientId: string, grant: number): { wallet: Open; events: WalletEvent[] } {
  if (state.status === 'open') return { wallet: state, events: [] };
  const open: WalletEvent = { type: 'WalletOpened', data: { patient_id: patientId, credits: grant } };
  return { wallet: evolveWallet(state, open) as Open, events: [open] };
}

function decideWallet(command: WalletCommand, state: WalletState): WalletEvent[] {
  const { wallet, events } = opened(state, command.data.patient_id, command.grant ?? STARTING_CREDITS);
  const patient_id = wallet.patient_id;
  const more = match(command)
    .with({ type: 'HoldFee' }, ({ data }): WalletEvent[] => {
      if (data.credits <= 0 || wallet.held[data.appointment_id] !== undefined) return [];
      if (wallet.balance < data.credits) throw paymentRequired(WALLET_TEXTS.insufficientCredits(String(data.credits), String(wallet.balance)));
      return [{ type: 'FeeHeld', data: { patient_id, appointment_id: data.appointment_id, credits: data.credits } }];
    })
    .with({ type: 'ChargeFee' }, ({ data }): WalletEvent[] => {
      const credits = wallet.held[data.appointment_id];
      return credits === undefined ? [] : [{ type: 'FeeCharged', data: { patient_id, appointment_id: data.appointment_id, credits, reason: data.reason } }];
    })
    .with({ type: 'ReturnFee' }, ({ data }): WalletEvent[] => {
      const credits = wallet.held[data.appointment_id];
      return credits === undefined ? [] : [{ type: 'FeeReturned', data: { patient_id, appointment_id: data.appointment_id, credits, reason: data.reason } }];
    })
    .with({ type: 'RecordPurchase' }, ({ data }): WalletEvent[] => {
      // A second payment of a paid order (two checkouts of one order) is the gateway's to refund, not a second pack.
      if (wallet.purchases[data.payment_id] || wallet.orders.has(data.order_id)) return [];
      const { order_id, payment_id, credits, amount_paise, gateway } = data;
      return [{ type: 'CreditsBought', data: { patient_id, order_id, payment_id, credits, amount_paise, gateway } }];
    })
    .with({ type: 'RecordRefund' }, ({ data }): WalletEvent[] => {
      const bought = wallet.purchases[data.payment_id];
      if (!bought || wallet.refunds.has(data.refund_id)) return [];
      const share = Math.min(bought.credits - bought.refunded_credits, Math.round((bought.credits * data.amount_paise) / bought.amount_paise));
      const credits = Math.max(0, Math.min(share, wallet.balance));
      const { order_id } = bought;
      return [{ type: 'PackRefunded', data: { patient_id, order_id, payment_id: data.payment_id, refund_id: data.refund_id, amount_paise: data.amount_paise, credits, uncovered_credits: Math.max(0, share - credits) } }];
    })
    .with({ type: 'Adjust' }, ({ data }): WalletEvent[] => {
      if (!Number.isInteger(data.credits) || data.credits === 0 || Math.abs(data.credits) > MAX_ADJUSTMENT_CREDITS) throw invalid(WALLET_TEXTS.adjustmentInvalid(String(MAX_ADJUSTMENT_CREDITS)));
      if (wallet.balance + data.credits < 0) throw conflict(WALLET_TEXTS.adjustmentBelowZero);
      return [{ type: 'CreditsAdjusted', data: { patient_id, credits: data.credits, reason: data.reason, adjusted_by: data.adjusted_by } }];
    })
    .exhaustive();
  // Nothing to record leaves the wallet unopened: reading a balance never writes.
  return more.length === 0 ? [] : [...events, ...more];
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveWallet,
  decide: decideWallet,
};
