import { toLocalSlotFields, type Slot } from '@telemed/contracts';
import type { SlotDoc } from '../projections';

/** A slot in the seeds' wire shape, in the caller's time zone. */
export function slotView(slot: Pick<SlotDoc, 'slot_id' | 'start' | 'end'>, zone: string, isAvailable: boolean): Slot {
  return {
    slot_id: slot.slot_id,
    ...toLocalSlotFields(slot.start, slot.end, zone),
    is_available: isAvailable,
    start_at: slot.start,
    end_at: slot.end,
  };
}
