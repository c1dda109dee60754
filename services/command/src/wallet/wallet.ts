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
export type WalletEvent = DomainEventOf<'WalletOpened' | 'CreditsBought' | 'FeeHeld' | 'FeeCharged' | 'FeeReturned' | 'CreditsAdjusted'>;

export type WalletState =
  | { status: 'none' }
  | {
      status: 'open';
      patient_id: string;
      /** Credits free to spend (held fees are not among them). */
      balance: number;
      /** Fees held, by appointment. */
      held: Readonly<Record<string, number>>;
      /** Payments already counted (a capture told twice adds nothing the second time). */
      payments: ReadonlySet<string>;
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
  | { type: 'Adjust'; data: { patient_id: string; credits: number; reason: string; adjusted_by: string } };

type Open = Extract<WalletState, { status: 'open' }>;

function withoutKey(record: Readonly<Record<string, number>>, key: string): Record<string, number> {
  const { [key]: _gone, ...rest } = record;
  void _gone;
  return rest;
}

export function evolveWallet(state: WalletState, event: WalletEvent): WalletState {
  if (event.type === 'WalletOpened') return { status: 'open', patient_id: event.data.patient_id, balance: event.data.credits, held: {}, payments: new Set(), orders: new Set() };
  if (state.status === 'none') return state;
  return match(event)
    .with({ type: 'CreditsBought' }, ({ data }): WalletState => ({
      ...state,
      balance: state.balance + data.credits,
      payments: new Set([...state.payments, data.payment_id]),
      orders: new Set([...state.orders, data.order_id]),
    }))
    .with({ type: 'FeeHeld' }, ({ data }): WalletState => ({ ...state, balance: state.balance - data.credits, held: { ...state.held, [data.appointment_id]: data.credits } }))
    .with({ type: 'FeeCharged' }, ({ data }): WalletState => ({ ...state, held: withoutKey(state.held, data.appointment_id) }))
    .with({ type: 'FeeReturned' }, ({ data }): WalletState => ({ ...state, balance: state.balance + data.credits, held: withoutKey(state.held, data.appointment_id) }))
    .with({ type: 'CreditsAdjusted' }, ({ data }): WalletState => ({ ...state, balance: state.balance + data.credits }))
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
      if (wallet.payments.has(data.payment_id) || wallet.orders.has(data.order_id)) return [];
      const { order_id, payment_id, credits, amount_paise, gateway } = data;
      return [{ type: 'CreditsBought', data: { patient_id, order_id, payment_id, credits, amount_paise, gateway } }];
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
