import { randomUUID } from 'node:crypto';
import { DEFAULT_BOOKING_RULES, DomainError, streams } from '@telemed/contracts';
import { SubjectErasedError, type EventStore } from '@telemed/platform';
import { handleCommand, readStream, type CommandContext } from '../decider';
import { consentIsCurrent } from '../consents/service';
import { consultationFoldsOf, consultationStarted } from '../consultations/service';
import { joinedOf } from '../consultations/consultation';
import { handleSlotCommand, loadSlot } from '../schedule/slot-folds';
import { appointmentDecider, type AppointmentCommand, type AppointmentState, type MoveTarget } from './appointment';
import type { BookingChecks } from './bookable';
import { prepareFollowUp } from './follow-ups';
import { holdFee, requireCredits, settleFee } from '../wallet/fees';

/**
 * The patient must hold a consent to the current privacy notice (decided from their own stream: 403 otherwise).
 * A request then reserves the slot in the slot's own stream (expected revision: exactly one request wins), holds the
 * fee on the patient's wallet (402 without the credits, and the slot is released at once), then writes the
 * appointment. A crash between the writes leaves a reservation without an appointment, which the reservation healer
 * releases, recording the appointment void, which returns a held fee (the fee settler). A slot of a doctor who takes
 * no bookings (inactive, or deactivated by an institution) is refused (409) before anything is written. A patient
 * erased between the checks and the request (their key is gone, so the reason for the visit cannot be sealed) gets 410,
 * and the reservation is released and the fee returned at once, not left to the healer.
 */
export async function requestAppointment(
  eventStore: EventStore,
  input: { slot_id: number; notes: string; patient_id: string; follow_up_of?: string },
  context: CommandContext,
  checks: BookingChecks,
  faults?: { afterSlotReserved?: () => void },
) {
  await checks.requireConsent(input.patient_id);
  const appointment_id = randomUUID();
  // A slot's doctor never changes, so the doctor read here is the one the reservation below decides on.
  const slotFold = await loadSlot(eventStore, input.slot_id);
  const slotState = slotFold.state;
  // A follow-up (issue 35) is decided on its earlier appointment before anything is written, and claimed there below.
  const followUp = input.follow_up_of
    ? await prepareFollowUp(eventStore, { patient_id: input.patient_id, follow_up_of: input.follow_up_of, appointment_id, to: slotState.status === 'unpublished' ? null : slotState.slot })
    : null;
  const doctor_accepting = slotState.status === 'unpublished' || (await checks.doctorAcceptsBookings(slotState.slot.doctor_id));
  if (slotState.status !== 'unpublished') await checks.requireNotBlocked(slotState.slot.doctor_id, input.patient_id, context.now);
  // The fee (issue 36): the doctor's, or the follow-up's as offered (0: free). Without the credits, nothing is written.
  const feeOf = async (doctorId: string) => (followUp ? followUp.terms.fee : await checks.doctorFee(doctorId));
  const grant = checks.startingCredits;
  if (slotState.status !== 'unpublished') await requireCredits(eventStore, { patient_id: input.patient_id, fee_rupees: await feeOf(slotState.slot.doctor_id), grant });
  const reserved = await handleSlotCommand(
    eventStore,
    input.slot_id,
    { type: 'ReserveSlot', data: { slot_id: input.slot_id, appointment_id, patient_id: input.patient_id, now: context.now, doctor_accepting } },
    context,
    slotFold,
  );
  faults?.afterSlotReserved?.();
  const slot = reserved.state.status === 'reserved' ? reserved.state.slot : null;
  if (!slot) throw new Error('Reservation did not leave the slot reserved');
  const release = () => handleSlotCommand(eventStore, slot.slot_id, { type: 'ReleaseSlot', data: { appointment_id, reason: 'orphaned' } }, context);
  // Held now, decided on the wallet's stream: of requests at once, those the credits do not cover are refused (402).
  const held = await holdFee(eventStore, { patient_id: input.patient_id, appointment_id, fee_rupees: await feeOf(slot.doctor_id), grant }, context).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const undo = async () => {
    await release();
    if (held > 0) await settleFee(eventStore, { patient_id: input.patient_id, appointment_id }, { return: 'not_booked' }, context);
  };
  if (followUp) {
    await followUp.claim(slot, context).catch(async (error: unknown) => {
      await undo();
      throw error;
    });
  }
  const requested = await handleCommand(
    eventStore,
    streams.appointment(appointment_id),
    appointmentDecider,
    {
      type: 'RequestAppointment',
      data: {
        appointment_id,
        slot_id: slot.slot_id,
        doctor_id: slot.doctor_id,
        patient_id: input.patient_id,
        start: slot.start,
        end: slot.end,
        notes: input.notes,
        ...followUp?.terms,
      },
    },
    context,
    // The appointment's id was made just above: its stream is new, nothing to read (the append still expects no stream).
    { state: appointmentDecider.initialState(), revision: null },
  ).catch(async (error: unknown) => {
    // Refused, so not recorded (the patient erased meanwhile, or the healer voided the request while it waited): the
    // slot and the fee go back at once. Any other failure may hide a write that landed, and is left to the healer.
    if (error instanceof SubjectErasedError || error instanceof DomainError) await undo();
    throw error;
  });
  return { appointment_id, position: requested.position };
}

/**
 * The doctor approves a request. Approving shows the doctor the patient's records, so the patient must still hold a
 * consent to the current notice (they may have withdrawn it since they asked): read from their stream beside the
 * appointment's, which is read once for both.
 */
export async function approveAppointment(eventStore: EventStore, appointmentId: string, data: { actor_id: string; now: Date }, context: CommandContext) {
  const stream = streams.appointment(appointmentId);
  const loaded = await readStream(eventStore, stream, appointmentDecider);
  const patient = loaded.state.status === 'requested' && loaded.state.appointment.doctor_id === data.actor_id ? loaded.state.appointment.patient_id : null;
  const patient_consents = patient === null || (await consentIsCurrent(eventStore, patient));
  return handleCommand(eventStore, stream, appointmentDecider, { type: 'ApproveAppointment', data: { ...data, patient_consents } }, context, loaded);
}

/**
 * Its patient or doctor cancels it: refused (409, consultation_begun) once its consultation has begun. A join records
 * that on the appointment's stream before the call starts, so a cancel and a join at once are decided there: the
 * one appended second is refused its revision and decides again on the other's event.
 */
export async function cancelAppointment(
  eventStore: EventStore,
  appointmentId: string,
  data: { actor_id: string; reason: string | null; now: Date },
  context: CommandContext,
  checks: BookingChecks,
) {
  const stream = streams.appointment(appointmentId);
  const [loaded, consultation_begun] = await Promise.all([readStream(eventStore, stream, appointmentDecider), consultationStarted(eventStore, appointmentId)]);
  // The doctor's rules in effect say whether a patient's cancellation this close to the start is late, and what it counts as.
  const rules = loaded.state.status === 'none' ? DEFAULT_BOOKING_RULES : await checks.bookingRules(loaded.state.appointment.doctor_id);
  return handleCommand(eventStore, stream, appointmentDecider, { type: 'CancelAppointment', data: { ...data, consultation_begun, rules } }, context, loaded);
}

/**
 * Its patient moves it to another open slot of its doctor (issue 35), under the doctor's rules in effect (their own,
 * their clinics' defaults, or the product's: BookingChecks.bookingRules).
 */
export async function rescheduleAppointment(
  eventStore: EventStore,
  appointmentId: string,
  input: { patient_id: string; slot_id: number },
  context: CommandContext,
  checks: BookingChecks,
  faults?: { afterMoveHeld?: () => void },
) {
  return moveToSlot(eventStore, appointmentId, input, context, checks, faults, async (state, consultation_begun) => {
    const rules = state.status === 'none' ? DEFAULT_BOOKING_RULES : await checks.bookingRules(state.appointment.doctor_id);
    return (to) => ({
      type: 'RescheduleAppointment',
      data: { actor_id: input.patient_id, to, now: context.now, consultation_begun, rules, auto_accept: rules.autoAcceptMoves },
    });
  });
}

/** Its patient takes one of the times its doctor offered (issue 35): moved there as a reschedule is, and confirmed. */
export async function acceptProposedTime(
  eventStore: EventStore,
  appointmentId: string,
  input: { patient_id: string; slot_id: number },
  context: CommandContext,
  checks: BookingChecks,
) {
  return moveToSlot(eventStore, appointmentId, input, context, checks, undefined, async (_state, consultation_begun) => (to) => ({
    type: 'AcceptProposedTime',
    data: { actor_id: input.patient_id, to, now: context.now, consultation_begun },
  }));
}

/**
 * Moves an appointment to another slot of its doctor, never losing or keeping both. The move (`commandFor`) is
 * decided on the appointment as read before anything is written (a refused move reserves nothing); then the new slot
 * is reserved for this appointment (its own stream: one request or move wins it), the move recorded on the appointment
 * (expected revision: a racing approval or cancel is decided first, and the move again after it), and the old slot
 * released. A move refused at its record gives the new slot up at once; a crash between the writes is healed: the
 * reservation healer releases a new slot the move never reached (recording that on the appointment, so a late move is
 * refused), and the slot releaser the old slot of a recorded move.
 */
async function moveToSlot(
  eventStore: EventStore,
  appointmentId: string,
  input: { patient_id: string; slot_id: number },
  context: CommandContext,
  checks: BookingChecks,
  faults: { afterMoveHeld?: () => void } | undefined,
  commandFor: (state: AppointmentState, consultationBegun: boolean) => Promise<(to: MoveTarget | null) => AppointmentCommand>,
) {
  await checks.requireConsent(input.patient_id);
  const stream = streams.appointment(appointmentId);
  const [loaded, consultation_begun, slotFold] = await Promise.all([
    readStream(eventStore, stream, appointmentDecider),
    consultationStarted(eventStore, appointmentId),
    loadSlot(eventStore, input.slot_id),
  ]);
  const slotState = slotFold.state;
  const to = slotState.status === 'unpublished' ? null : slotState.slot;
  const command = await commandFor(loaded.state, consultation_begun);
  // Refused before anything is written: someone else's appointment (as if it did not exist), a slot that does not
  // exist, a closed appointment, and the move's own rules.
  appointmentDecider.decide(command(to), loaded.state);
  if (loaded.state.status === 'none' || !to) throw new Error('unreachable: the decision above refuses these');
  const doctor_accepting = slotState.status === 'unpublished' || (await checks.doctorAcceptsBookings(slotState.slot.doctor_id));
  const held = await handleSlotCommand(
    eventStore,
    input.slot_id,
    { type: 'ReserveSlot', data: { slot_id: input.slot_id, appointment_id: appointmentId, patient_id: input.patient_id, now: context.now, doctor_accepting } },
    context,
    slotFold,
  );
  const target = held.state.status === 'reserved' ? held.state.slot : null;
  if (!target) throw new Error('Reservation did not leave the slot reserved');
  faults?.afterMoveHeld?.();
  const fromSlot = loaded.state.appointment.slot_id;
  const moved = await handleCommand(eventStore, stream, appointmentDecider, command(target), context, loaded).catch(async (error: unknown) => {
    await handleSlotCommand(eventStore, target.slot_id, { type: 'ReleaseSlot', data: { appointment_id: appointmentId, reason: 'orphaned' } }, context);
    throw error;
  });
  // The slot releaser does this too, from the log; here so that the old time is offered again at once.
  await handleSlotCommand(eventStore, fromSlot, { type: 'ReleaseSlot', data: { appointment_id: appointmentId, reason: 'rescheduled' } }, context);
  return moved;
}

/**
 * Its doctor offers up to three other times (issue 35), each read from its slot's stream (open, theirs, still to come);
 * none is held: the patient's acceptance reserves the one taken, and one taken by someone else meanwhile is refused.
 */
export async function proposeTimes(eventStore: EventStore, appointmentId: string, input: { doctor_id: string; slot_ids: readonly number[] }, context: CommandContext) {
  const [consultation_begun, slots] = await Promise.all([
    consultationStarted(eventStore, appointmentId),
    Promise.all(
      input.slot_ids.map(async (slotId) => {
        const { state } = await loadSlot(eventStore, slotId);
        return state.status === 'unpublished' ? null : { ...state.slot, open: state.status === 'open' };
      }),
    ),
  ]);
  return changeAppointment(eventStore, appointmentId, { type: 'ProposeTimes', data: { actor_id: input.doctor_id, slots, now: context.now, consultation_begun } }, context);
}

export async function changeAppointment(
  eventStore: EventStore,
  appointmentId: string,
  command: Exclude<AppointmentCommand, { type: 'RequestAppointment' | 'ApproveAppointment' }>,
  context: CommandContext,
) {
  return handleCommand(eventStore, streams.appointment(appointmentId), appointmentDecider, command, context);
}

/** Who has ever joined the appointment's consultation, as its stream says now. */
export async function joinedConsultation(eventStore: EventStore, appointmentId: string) {
  return joinedOf((await consultationFoldsOf(eventStore).current(streams.consultation(appointmentId))).state);
}

/**
 * Its doctor marks the patient absent (issue 35), decided on the appointment's stream from who has joined its
 * consultation. A patient's join already past its check on the appointment may still land just after: the
 * consultation then goes on, and its end changes nothing on an appointment closed as a no-show.
 */
export async function markPatientAbsent(eventStore: EventStore, appointmentId: string, data: { actor_id: string; now: Date }, context: CommandContext) {
  const joined = await joinedConsultation(eventStore, appointmentId);
  return changeAppointment(eventStore, appointmentId, { type: 'MarkPatientAbsent', data: { ...data, joined } }, context);
}
