import { feeInCredits, streams, type FeeChargeReason, type FeeReturnReason } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { walletDecider } from './wallet';

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
  await handleCommand(eventStore, streams.wallet(input.patient_id), walletDecider, {
    type: 'HoldFee',
    data: { patient_id: input.patient_id, appointment_id: input.appointment_id, credits },
    grant: input.grant,
  }, context);
  return credits;
}

/** What becomes of a held fee: kept for a reason, or given back in full. */
export type FeeOutcome = { charge: FeeChargeReason } | { return: FeeReturnReason };

/** Settles the appointment's held fee, once: nothing when none is held (a free visit, or settled already). */
export async function settleFee(eventStore: EventStore, input: { patient_id: string; appointment_id: string }, outcome: FeeOutcome, context: CommandContext) {
  const { patient_id, appointment_id } = input;
  const command = 'charge' in outcome
    ? { type: 'ChargeFee' as const, data: { patient_id, appointment_id, reason: outcome.charge } }
    : { type: 'ReturnFee' as const, data: { patient_id, appointment_id, reason: outcome.return } };
  return handleCommand(eventStore, streams.wallet(patient_id), walletDecider, command, context);
}
