import { WALLET_TEXTS, feeInCredits, paymentRequired, streams, type FeeChargeReason, type FeeReturnReason } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { walletDecider, type WalletCommand } from './wallet';

/**
 * Each event store's kept folds of wallets (StreamFolds): a wallet gains events with every booking and purchase, and a
 * booking reads only those since the last look. A wallet's state is numbers and ids, no personal data.
 */
const walletsOf = foldsPerEventStore(walletDecider);

/** The patient's wallet as it stands, from its kept fold. */
export function walletOf(eventStore: EventStore, patientId: string) {
  return walletsOf(eventStore).current(streams.wallet(patientId));
}

/** Decides a command on the patient's wallet from its kept fold (each retry after a conflict looks again). */
export function handleWalletCommand(eventStore: EventStore, patientId: string, command: WalletCommand, context: CommandContext) {
  const stream = streams.wallet(patientId);
  return handleCommand(eventStore, stream, walletDecider, command, context, () => walletsOf(eventStore).current(stream));
}

/**
 * Refuses (402) before anything is written when the patient's free credits do not cover the fee now. Only a first
 * look: the hold (holdFee) decides again on the wallet's stream, where requests at once are told apart.
 */
export async function requireCredits(eventStore: EventStore, input: { patient_id: string; fee_rupees: number; grant: number }): Promise<void> {
  const credits = feeInCredits(input.fee_rupees);
  if (credits === 0) return;
  const { state } = await walletsOf(eventStore).current(streams.wallet(input.patient_id));
  const balance = state.status === 'open' ? state.balance : input.grant;
  if (balance < credits) throw paymentRequired(WALLET_TEXTS.insufficientCredits(String(credits), String(balance)));
}

/**
 * A request's fee held on the patient's wallet (issue 36): the balance checked and the hold recorded in one decision
 * on the wallet's stream (its expected revision), so requests at once never spend the same credits; refused with 402
 * when the free balance does not cover it. A fee of nothing holds nothing.
 */
export async function holdFee(
  eventStore: EventStore,
  input: { patient_id: string; appointment_id: string; fee_rupees: number; grant: number },
  context: CommandContext,
): Promise<number> {
  const credits = feeInCredits(input.fee_rupees);
  if (credits === 0) return 0;
  await handleWalletCommand(eventStore, input.patient_id, { type: 'HoldFee', data: { patient_id: input.patient_id, appointment_id: input.appointment_id, credits }, grant: input.grant }, context);
  return credits;
}

/** What becomes of a held fee: kept for a reason, or given back in full. */
export type FeeOutcome = { charge: FeeChargeReason } | { return: FeeReturnReason };

/** Settles the appointment's held fee, once: nothing when none is held (a free visit, or settled already). */
export async function settleFee(eventStore: EventStore, input: { patient_id: string; appointment_id: string }, outcome: FeeOutcome, context: CommandContext) {
  const { patient_id, appointment_id } = input;
  const command: WalletCommand = 'charge' in outcome
    ? { type: 'ChargeFee', data: { patient_id, appointment_id, reason: outcome.charge } }
    : { type: 'ReturnFee', data: { patient_id, appointment_id, reason: outcome.return } };
  return handleWalletCommand(eventStore, patient_id, command, context);
}
