import { streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, readStream, type CommandContext } from '../decider';
import { appointmentDecider, type AppointmentState, type MoveTarget } from './appointment';

/** A follow-up booked earlier that closed without taking place no longer holds its offer (AppointmentFollowUpBooked). */
function closedUnheld(state: AppointmentState): boolean {
  if (state.status === 'none') return state.voided === true;
  return state.status === 'rejected' || state.status === 'cancelled' || state.status === 'expired';
}

/** What a follow-up's request records: the earlier consultation it follows, and the fee its offer set. */
export interface FollowUpTerms {
  follow_up_of: { appointment_id: string; start: string };
  fee: number;
}

/**
 * A follow-up booking (issue 35), decided on the earlier appointment's stream. `prepareFollowUp` decides it before
 * anything is written (a refused follow-up reserves no slot); `claim` records it there (AppointmentFollowUpBooked) once
 * the slot is reserved and before the new appointment's request, with the expected revision: of two bookings on one
 * offer, the second decides again on the first's claim and is refused. A crash between the claim and the request
 * leaves a claim whose appointment the reservation healer voids, which frees the offer (closedUnheld).
 */
export async function prepareFollowUp(
  eventStore: EventStore,
  input: { patient_id: string; follow_up_of: string; appointment_id: string; to: MoveTarget | null },
) {
  const stream = streams.appointment(input.follow_up_of);
  const loaded = await readStream(eventStore, stream, appointmentDecider);
  const booked = loaded.state.status === 'none' ? null : (loaded.state.follow_up?.booked ?? null);
  const lapsed = booked !== null && closedUnheld((await readStream(eventStore, streams.appointment(booked), appointmentDecider)).state) ? booked : null;
  const command = (to: MoveTarget | null) => ({
    type: 'BookFollowUp' as const,
    data: { actor_id: input.patient_id, follow_up_appointment_id: input.appointment_id, to, lapsed },
  });
  appointmentDecider.decide(command(input.to), loaded.state);
  const { state } = loaded;
  if (state.status === 'none' || !state.follow_up) throw new Error('unreachable: the decision above refuses these');
  const terms: FollowUpTerms = { follow_up_of: { appointment_id: input.follow_up_of, start: state.appointment.start }, fee: state.follow_up.fee };
  return {
    terms,
    claim: (to: MoveTarget, context: CommandContext) => handleCommand(eventStore, stream, appointmentDecider, command(to), context, loaded),
  };
}

/**
 * After final notes saying a follow-up is required (issue 35): its doctor's offer, recorded on the appointment's stream
 * (see AppointmentFollowUpOffered for why there). Nothing when the notes are a draft or need no follow-up, or the
 * appointment's consultation did not take place; the same offer again records nothing.
 */
export async function offerFollowUp(
  eventStore: EventStore,
  appointmentId: string,
  input: { doctor_id: string; doctor_fee: number; within_days?: number; fee?: number },
  context: CommandContext,
) {
  const { doctor_id, doctor_fee, within_days, fee } = input;
  return handleCommand(eventStore, streams.appointment(appointmentId), appointmentDecider, {
    type: 'OfferFollowUp',
    data: { actor_id: doctor_id, doctor_fee, ...(within_days === undefined ? {} : { within_days }), ...(fee === undefined ? {} : { fee }) },
  }, context);
}

/** After final notes saying no follow-up is required: an offer not yet booked is withdrawn (AppointmentFollowUpWithdrawn). */
export async function withdrawFollowUp(eventStore: EventStore, appointmentId: string, doctorId: string, context: CommandContext) {
  return handleCommand(eventStore, streams.appointment(appointmentId), appointmentDecider, { type: 'WithdrawFollowUp', data: { actor_id: doctorId } }, context);
}
