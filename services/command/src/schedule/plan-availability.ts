import {
  AVAILABILITY_HORIZON_DAYS,
  SLOT_DAY_FIRST_START,
  SLOT_DAY_LAST_START,
  SLOT_MINUTES,
  conflict,
  parseLocalDateTime,
  utcIso,
} from '@telemed/contracts';
import type { SlotState, SlotTimes } from './slot';
import { hasSlotId, slotIdFor } from './slot-id';

export interface AvailabilityInput {
  slot_date: string;
  start_time: string;
  end_time: string;
}

export interface SlotInputError {
  index: number;
  field: 'slot_date' | 'start_time' | 'end_time';
  msg: string;
}

export interface AvailabilityPlan {
  toOpen: SlotTimes[];
  toWithdraw: number[];
  unchanged: number;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Turns the submitted local slots into UTC slot times with stable ids, or lists what is wrong with them. */
export function parseAvailability(
  inputs: AvailabilityInput[],
  context: { doctor_id: string; doctor_number: number; timezone: string; now: Date },
): { slots: SlotTimes[]; errors: SlotInputError[] } {
  const errors: SlotInputError[] = [];
  const byId = new Map<number, SlotTimes>();
  const horizon = context.now.getTime() + AVAILABILITY_HORIZON_DAYS * 86_400_000;
  inputs.forEach((input, index) => {
    const start = parseLocalDateTime(input.slot_date, input.start_time, context.timezone);
    if (!start) {
      errors.push({ index, field: 'start_time', msg: `Not a valid date and time in ${context.timezone}` });
      return;
    }
    const minuteOfDay = start.hour * 60 + start.minute;
    if (start.second !== 0 || start.minute % SLOT_MINUTES !== 0) {
      errors.push({ index, field: 'start_time', msg: 'Slots start on the hour or the half hour' });
      return;
    }
    if (minuteOfDay < minutesOf(SLOT_DAY_FIRST_START) || minuteOfDay > minutesOf(SLOT_DAY_LAST_START)) {
      errors.push({ index, field: 'start_time', msg: `Slots start between ${SLOT_DAY_FIRST_START} and ${SLOT_DAY_LAST_START}` });
      return;
    }
    const end = start.plus({ minutes: SLOT_MINUTES });
    if (end.toFormat('HH:mm:ss') !== input.end_time) {
      errors.push({ index, field: 'end_time', msg: `A slot lasts ${SLOT_MINUTES} minutes: expected ${end.toFormat('HH:mm:ss')}` });
      return;
    }
    if (start.toMillis() > horizon) {
      errors.push({ index, field: 'slot_date', msg: `Availability can be set up to ${AVAILABILITY_HORIZON_DAYS} days ahead` });
      return;
    }
    if (!hasSlotId(start.toJSDate())) {
      errors.push({ index, field: 'slot_date', msg: 'Availability cannot be set this far in the past' });
      return;
    }
    const slot_id = slotIdFor(context.doctor_number, start.toJSDate());
    byId.set(slot_id, { slot_id, doctor_id: context.doctor_id, start: utcIso(start), end: utcIso(end) });
  });
  return { slots: [...byId.values()], errors };
}

/**
 * What to change so the doctor's future availability is exactly `desired`. Booked slots are never changed, and
 * neither are past ones: a past slot may be resubmitted only if it was already available.
 */
export function planAvailability(input: {
  desired: SlotTimes[];
  /** Future slot ids the doctor has published before. */
  known: Iterable<number>;
  slotStates: ReadonlyMap<number, SlotState>;
  now: Date;
}): AvailabilityPlan {
  const plan: AvailabilityPlan = { toOpen: [], toWithdraw: [], unchanged: 0 };
  const desiredIds = new Set<number>();
  const stateOf = (id: number): SlotState => input.slotStates.get(id) ?? { status: 'unpublished' };
  for (const slot of input.desired) {
    desiredIds.add(slot.slot_id);
    const state = stateOf(slot.slot_id);
    const live = state.status === 'open' || state.status === 'reserved';
    if (live) plan.unchanged += 1;
    else if (new Date(slot.start).getTime() <= input.now.getTime()) throw conflict('Availability cannot be added in the past');
    else plan.toOpen.push(slot);
  }
  for (const id of input.known) {
    if (desiredIds.has(id)) continue;
    const state = stateOf(id);
    if (state.status === 'open' && new Date(state.slot.start).getTime() > input.now.getTime()) plan.toWithdraw.push(id);
    else if (state.status === 'reserved') plan.unchanged += 1;
  }
  return plan;
}
