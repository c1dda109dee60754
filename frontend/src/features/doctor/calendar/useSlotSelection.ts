import { useState } from 'react';
import { applySelection, isPast, keyOf, rangeKeys, type SlotKey } from './model';

export type CellState = 'selected' | 'booked' | 'past' | 'free';

type Drag = { date: string; from: number; to: number };

/**
 * The calendar's chosen slots and its drag within a day: a click or key toggles one slot, a drag adds a range; past
 * and booked slots never change.
 */
export function useSlotSelection(zone: string, initial: ReadonlySet<SlotKey>, booked: ReadonlySet<SlotKey>) {
  const [selected, setSelected] = useState<Set<SlotKey>>(new Set(initial));
  const [drag, setDrag] = useState<Drag | null>(null);
  const locked = (key: SlotKey) => booked.has(key) || isPast(key.slice(0, 10), Number(key.slice(11)), zone);
  const stateOf = (date: string, row: number): CellState => {
    const key = keyOf(date, row);
    if (booked.has(key)) return 'booked';
    if (isPast(date, row, zone)) return 'past';
    const inDrag = drag && drag.date === date && row >= Math.min(drag.from, drag.to) && row <= Math.max(drag.from, drag.to);
    return selected.has(key) || inDrag ? 'selected' : 'free';
  };
  return {
    selected,
    /** Sets the selection as given (the dialog's opening sets the saved one). */
    replace: setSelected,
    stateOf,
    toggle: (date: string, row: number) => setSelected((current) => applySelection(current, [keyOf(date, row)], locked)),
    startDrag: (date: string, row: number) => !locked(keyOf(date, row)) && setDrag({ date, from: row, to: row }),
    extendDrag: (date: string, row: number) => drag && drag.date === date && setDrag({ ...drag, to: row }),
    finishDrag: () => {
      if (!drag) return;
      setSelected((current) => applySelection(current, rangeKeys(drag.date, drag.from, drag.to), locked));
      setDrag(null);
    },
    /** Unselects every slot that can change; booked and past ones stay. */
    clearAll: () => setSelected(new Set([...selected].filter((k) => locked(k)))),
  };
}
