import { DEFAULT_TIMEZONE, isValidTimezone, streams, invalid } from '@telemed/contracts';
import { RequestValidationError, type EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { loadFutureSchedule, monthOfSlot } from './schedule-months';
import { loadUser } from '../users/service';
import { parseAvailability, planAvailability, type AvailabilityInput } from './plan-availability';
import { scheduleDecider } from './schedule';
import type { SlotState } from './slot';
import { handleSlotCommand, loadSlot } from './slot-folds';

export interface SetAvailabilityResult {
  opened: number;
  withdrawn: number;
  unchanged: number;
  position: number | null;
}

/**
 * Makes the doctor's future availability exactly the submitted slots. The schedule's month streams record the change
 * first (each the part of it in its month); then each slot stream is changed under its own expected revision, so a
 * booking that lands meanwhile wins and its slot is left alone. Every step is idempotent: a save interrupted half-way
 * is completed by saving again.
 */
export async function setAvailability(
  eventStore: EventStore,
  doctorId: string,
  input: { slots: AvailabilityInput[]; timezone?: string },
  context: CommandContext,
): Promise<SetAvailabilityResult> {
  const timezone = input.timezone ?? DEFAULT_TIMEZONE;
  if (!isValidTimezone(timezone)) {
    throw new RequestValidationError([{ loc: ['body', 'timezone'], msg: 'Unknown IANA time zone', type: 'invalid_timezone' }]);
  }
  const doctor = await loadUser(eventStore, doctorId);
  if (doctor.status !== 'registered' || !doctor.doctor) throw invalid('Only doctors have a schedule');

  const now = context.now;
  const parsed = parseAvailability(input.slots, { doctor_id: doctorId, doctor_number: doctor.doctor.doctor_number, timezone, now });
  if (parsed.errors.length > 0) {
    throw new RequestValidationError(
      parsed.errors.map((e) => ({ loc: ['body', 'slots', e.index, e.field], msg: e.msg, type: 'invalid_slot' })),
    );
  }
  // One fold of each month ahead per save: handed to handleCommand below for its first attempt.
  const schedule = await loadFutureSchedule(eventStore, doctorId, now);
  const known = schedule.known;
  const ids = new Set([...known, ...parsed.slots.map((s) => s.slot_id)]);
  const slotFolds = new Map<number, Awaited<ReturnType<typeof loadSlot>>>();
  await Promise.all([...ids].map(async (id) => slotFolds.set(id, await loadSlot(eventStore, id))));
  const slotStates = new Map<number, SlotState>([...slotFolds].map(([id, fold]) => [id, fold.state]));
  const plan = planAvailability({ desired: parsed.slots, known, slotStates, now });

  const changes = new Map<string, { opened: number[]; withdrawn: number[] }>();
  const changeIn = (slotId: number) => {
    const month = monthOfSlot(slotId);
    let change = changes.get(month);
    if (!change) changes.set(month, (change = { opened: [], withdrawn: [] }));
    return change;
  };
  for (const slot of plan.toOpen) changeIn(slot.slot_id).opened.push(slot.slot_id);
  for (const slotId of plan.toWithdraw) changeIn(slotId).withdrawn.push(slotId);
  const recorded = await Promise.all(
    [...changes].map(([month, change]) =>
      handleCommand(
        eventStore,
        streams.scheduleMonth(doctorId, month),
        scheduleDecider,
        { type: 'RecordAvailability', data: { doctor_id: doctorId, timezone, ...change } },
        context,
        schedule.months.get(month),
      ),
    ),
  );
  const results = await Promise.all([
    ...plan.toOpen.map((slot) => handleSlotCommand(eventStore, slot.slot_id, { type: 'OpenSlot', data: slot }, context, slotFolds.get(slot.slot_id))),
    ...plan.toWithdraw.map((slot_id) =>
      handleSlotCommand(eventStore, slot_id, { type: 'WithdrawSlot', data: { slot_id } }, context, slotFolds.get(slot_id)),
    ),
  ]);
  const positions = [...recorded, ...results].map((r) => r.position).filter((p): p is number => p !== null);
  return {
    opened: plan.toOpen.length,
    withdrawn: plan.toWithdraw.length,
    unchanged: plan.unchanged,
    position: positions.length ? Math.max(...positions) : null,
  };
}
