import { DateTime } from 'luxon';
import { API_TEXTS, WAITLIST_HOLD_MINUTES, conflict, notFound, streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, readStream, systemContext, type CommandContext } from '../decider';
import { StreamFolds } from '../stream-folds';
import { accountStandingFold } from '../users/account-standing';
import { loadUser } from '../users/load-user';
import { handleSlotCommand, loadSlot } from '../schedule/slot-folds';
import { activeHold } from '../schedule/slot';
import { requestAppointment } from '../appointments/service';
import { forEachPage, SWEEP_PAGE_SIZE } from '../process-managers/pages';
import type { BookingChecks } from '../appointments/bookable';
import { waitlistDecider, type WaitlistCommand } from './waitlist';

/** A place still open (waiting or offered), as the sweeps and the account closer page through them. */
export interface OpenPlaceRef {
  doctor_id: string;
  patient_id: string;
}

/** A place past its last day, and that day (the sweep's cursor). */
export interface EndedPlaceRef extends OpenPlaceRef {
  to: string;
}

/**
 * What the offers look up in the read models: a doctor's waiting places in the order they joined, a page at a time;
 * offers past their time; open places whose last day has passed everywhere; and the open places of one person.
 */
export interface WaitlistLookups {
  waitingPlaces(doctorId: string, page: { afterPosition: number; limit: number }): Promise<Array<{ patient_id: string; from: string; to: string; timezone: string; joined_position: number }>>;
  offersEndedBy(now: Date, limit: number): Promise<Array<{ doctor_id: string; patient_id: string; slot_id: number }>>;
  /** Waiting places whose last day is before `day` (a calendar date), a page at a time after the last one. */
  placesEndedBefore(day: string, page: { after: EndedPlaceRef | null; limit: number }): Promise<EndedPlaceRef[]>;
  /** A patient's open places, or every open place on a doctor's waitlist. */
  openPlacesOf(role: 'patient' | 'doctor', userId: string, page: { after: OpenPlaceRef | null; limit: number }): Promise<OpenPlaceRef[]>;
}

const PAGE = 50;

function changePlace(eventStore: EventStore, doctorId: string, patientId: string, command: WaitlistCommand, context: CommandContext) {
  return handleCommand(eventStore, streams.waitlist(doctorId, patientId), waitlistDecider, command, context);
}

/** A patient joins a doctor's waitlist for days of their own calendar (their consent held; a doctor who takes bookings). */
export async function joinWaitlist(
  eventStore: EventStore,
  input: { doctor_id: string; patient_id: string; from: string; to: string; timezone: string },
  context: CommandContext,
  checks: BookingChecks,
) {
  await checks.requireConsent(input.patient_id);
  const doctor = await loadUser(eventStore, input.doctor_id);
  if (doctor.status !== 'registered' || doctor.account_type !== 'doctor') throw notFound(API_TEXTS.doctorNotFound);
  if (!(await checks.doctorAcceptsBookings(input.doctor_id))) throw conflict(API_TEXTS.doctorNotAccepting);
  const today = DateTime.fromJSDate(context.now, { zone: input.timezone }).toISODate()!;
  return changePlace(eventStore, input.doctor_id, input.patient_id, { type: 'JoinWaitlist', data: { ...input, today } }, context);
}

/**
 * The patient leaves (or the system closes the place: `ended`); a slot held for them is let go at once (and offered
 * to the next place).
 */
export async function leaveWaitlist(eventStore: EventStore, doctorId: string, patientId: string, context: CommandContext, reason: 'left' | 'ended' = 'left') {
  const stream = streams.waitlist(doctorId, patientId);
  const loaded = await readStream(eventStore, stream, waitlistDecider);
  const offered = loaded.state.status === 'offered' ? loaded.state.offer : null;
  const result = await handleCommand(eventStore, stream, waitlistDecider, { type: 'LeaveWaitlist', data: { reason } }, context, loaded);
  if (offered) await handleSlotCommand(eventStore, offered.slot_id, { type: 'ReleaseHold', data: { patient_id: patientId, reason: 'left' } }, context);
  return result;
}

/**
 * A closed account (deactivated or erased) leaves no place behind: a patient's own places close, and so does every
 * place on a closed doctor's waitlist (nothing of theirs will be offered). Answers the places closed.
 */
export async function closePlacesOf(deps: { eventStore: EventStore; lookups: Pick<WaitlistLookups, 'openPlacesOf'>; pageSize?: number }, userId: string, context: CommandContext) {
  let closed = 0;
  for (const role of ['patient', 'doctor'] as const) {
    await forEachPage<OpenPlaceRef>(
      (after, limit) => deps.lookups.openPlacesOf(role, userId, { after, limit }),
      deps.pageSize ?? SWEEP_PAGE_SIZE,
      async (place) => {
        closed += (await leaveWaitlist(deps.eventStore, place.doctor_id, place.patient_id, context, 'ended')).events.length;
      },
    );
  }
  return closed;
}

/**
 * Places whose last day has passed in every zone close ('ended'), so that a doctor's waiting places, which each freed
 * slot pages through, hold only those that can still take one.
 */
export async function closeEndedPlaces(deps: { eventStore: EventStore; lookups: Pick<WaitlistLookups, 'placesEndedBefore'>; clock: () => Date; pageSize?: number }) {
  const now = deps.clock();
  // A day has ended in every zone (UTC-12 to UTC+14) once UTC is two days past it.
  const cutoff = DateTime.fromJSDate(now, { zone: 'utc' }).minus({ days: 1 }).toISODate()!;
  const context = systemContext(now, null);
  let closed = 0;
  await forEachPage<EndedPlaceRef>(
    (after, limit) => deps.lookups.placesEndedBefore(cutoff, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (place) => {
      closed += (await leaveWaitlist(deps.eventStore, place.doctor_id, place.patient_id, context, 'ended')).events.length;
    },
  );
  return closed;
}

/** The patient lets the held slot go: they wait on, and the slot goes to the next place. */
export async function declineWaitlistOffer(eventStore: EventStore, doctorId: string, patientId: string, context: CommandContext) {
  const stream = streams.waitlist(doctorId, patientId);
  const loaded = await readStream(eventStore, stream, waitlistDecider);
  const slotId = loaded.state.status === 'offered' && loaded.state.offer ? loaded.state.offer.slot_id : -1;
  const result = await handleCommand(eventStore, stream, waitlistDecider, { type: 'EndOffer', data: { slot_id: slotId, reason: 'declined', now: context.now } }, context, loaded);
  await handleSlotCommand(eventStore, slotId, { type: 'ReleaseHold', data: { patient_id: patientId, reason: 'declined' } }, context);
  return result;
}

/**
 * The patient books the slot held for them, as any request (the slot's stream lets only them reserve it while held);
 * their place is then done. A crash between the two leaves the place offered: its offer ends with its time and the
 * sweep finds the slot theirs (nothing is offered of a reserved slot).
 */
export async function acceptWaitlistOffer(
  eventStore: EventStore,
  input: { doctor_id: string; patient_id: string; notes: string },
  context: CommandContext,
  checks: BookingChecks,
) {
  const { state } = await readStream(eventStore, streams.waitlist(input.doctor_id, input.patient_id), waitlistDecider);
  if (state.status === 'none') throw notFound(API_TEXTS.waitlistNotFound);
  const offer = state.status === 'offered' ? state.offer : null;
  if (!offer || new Date(offer.until).getTime() <= context.now.getTime()) throw conflict(API_TEXTS.waitlistNoOffer);
  const booked = await requestAppointment(eventStore, { slot_id: offer.slot_id, notes: input.notes, patient_id: input.patient_id }, context, checks);
  await changePlace(eventStore, input.doctor_id, input.patient_id, { type: 'RecordBooked', data: { slot_id: offer.slot_id } }, context);
  return booked;
}

/**
 * Offers a freed slot to the first place on its doctor's waitlist that covers its day and has not let it go: held on
 * the slot's stream first (only one hold at a time: the slot decides), then offered on the place's. A place that can
 * no longer take it (it left meanwhile) gives the hold back and the next is tried. Nothing happens to a slot that is
 * not open, is held, or starts too soon to be held.
 */
export async function offerFreedSlot(
  deps: { eventStore: EventStore; lookups: WaitlistLookups; clock: () => Date; accounts: StreamFolds<ReturnType<typeof accountStandingFold.initialState>, never> },
  slotId: number,
  cause: { event_id: string; correlation_id: string | undefined },
) {
  const now = deps.clock();
  const context = systemContext(now, cause.event_id, cause.correlation_id);
  const slotFold = await loadSlot(deps.eventStore, slotId);
  const slot = slotFold.state;
  const until = new Date(now.getTime() + WAITLIST_HOLD_MINUTES * 60_000);
  if (slot.status !== 'open' || activeHold(slot, now) || new Date(slot.slot.start).getTime() <= until.getTime()) return false;
  let afterPosition = -1;
  for (;;) {
    const places = await deps.lookups.waitingPlaces(slot.slot.doctor_id, { afterPosition, limit: PAGE });
    for (const place of places) {
      afterPosition = place.joined_position;
      const day = DateTime.fromISO(slot.slot.start, { zone: place.timezone }).toISODate()!;
      if (day < place.from || day > place.to) continue;
      const { state: standing } = await deps.accounts.current(streams.user(place.patient_id));
      if (!standing?.active) continue;
      const { state } = await readStream(deps.eventStore, streams.waitlist(slot.slot.doctor_id, place.patient_id), waitlistDecider);
      if (state.status !== 'waiting' || state.passed.includes(slotId)) continue;
      const held = await handleSlotCommand(deps.eventStore, slotId, { type: 'HoldForWaitlist', data: { patient_id: place.patient_id, until, now } }, context);
      const hold = activeHold(held.state, now);
      if (hold?.patient_id !== place.patient_id) return false;
      const offered = await changePlace(deps.eventStore, slot.slot.doctor_id, place.patient_id, { type: 'OfferSlot', data: { slot_id: slotId, start: slot.slot.start, end: slot.slot.end, until: new Date(hold.until) } }, context);
      if (offered.state.status === 'offered' && offered.state.offer?.slot_id === slotId) return true;
      await handleSlotCommand(deps.eventStore, slotId, { type: 'ReleaseHold', data: { patient_id: place.patient_id, reason: 'left' } }, context);
    }
    if (places.length < PAGE) return false;
  }
}

/** Offers past their time end (the place waits on) and their slot's hold is let go, which offers it to the next place. */
export async function endExpiredOffers(deps: { eventStore: EventStore; lookups: WaitlistLookups; clock: () => Date }) {
  const now = deps.clock();
  const context = systemContext(now, null);
  let ended = 0;
  for (const offer of await deps.lookups.offersEndedBy(now, 500)) {
    const result = await changePlace(deps.eventStore, offer.doctor_id, offer.patient_id, { type: 'EndOffer', data: { slot_id: offer.slot_id, reason: 'expired', now } }, context);
    await handleSlotCommand(deps.eventStore, offer.slot_id, { type: 'ReleaseHold', data: { patient_id: offer.patient_id, reason: 'expired' } }, context);
    ended += result.events.length;
  }
  return ended;
}
