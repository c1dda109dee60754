import { describe, expect, it } from 'vitest';
import { ROWS, applySelection, isPast, keyFromSlot, keyOf, nowMarker, rangeKeys, rowLabel, rowTime, toPayload, weekDays, weekStart } from './model';

describe('availability calendar model', () => {
  it('has 33 half-hour rows from 6:00 AM to 10:00 PM', () => {
    expect(ROWS).toBe(33);
    expect(rowLabel(0)).toBe('6:00 AM');
    expect(rowLabel(12)).toBe('12:00 PM');
    expect(rowLabel(32)).toBe('10:00 PM');
    expect(rowTime(32)).toBe('22:00:00');
    expect(rowTime(32, 30)).toBe('22:30:00');
  });
  it('starts weeks on Sunday', () => {
    expect(weekStart('2030-01-02')).toBe('2029-12-30'); // a Wednesday → the Sunday before
    expect(weekStart('2029-12-30')).toBe('2029-12-30');
    expect(weekDays('2029-12-30')).toEqual(['2029-12-30', '2029-12-31', '2030-01-01', '2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05']);
  });
  it('knows past slots in the doctor’s zone', () => {
    const now = new Date('2030-01-02T06:00:00Z'); // 11:30 in India
    expect(isPast('2030-01-01', 30, 'Asia/Kolkata', now)).toBe(true);
    expect(isPast('2030-01-02', 11, 'Asia/Kolkata', now)).toBe(true); // 11:30 has started
    expect(isPast('2030-01-02', 12, 'Asia/Kolkata', now)).toBe(false); // 12:00
    expect(isPast('2030-01-03', 0, 'Asia/Kolkata', now)).toBe(false);
  });
  it('a click toggles one cell; a drag adds a range; locked cells never change', () => {
    const locked = (k: string) => k === keyOf('2030-01-03', 2);
    let selected = applySelection(new Set(), [keyOf('2030-01-03', 0)], locked);
    expect([...selected]).toEqual(['2030-01-03-0']);
    selected = applySelection(selected, [keyOf('2030-01-03', 0)], locked);
    expect([...selected]).toEqual([]);
    selected = applySelection(selected, rangeKeys('2030-01-03', 3, 0), locked);
    expect([...selected].sort()).toEqual(['2030-01-03-0', '2030-01-03-1', '2030-01-03-3']);
    expect(applySelection(selected, [keyOf('2030-01-03', 2)], locked).has('2030-01-03-2')).toBe(false);
  });
  it('sends the seeds’ payload and reads the server’s slots back', () => {
    expect(toPayload(['2030-01-03-1', '2030-01-03-0'], 'Asia/Kolkata')).toEqual({
      timezone: 'Asia/Kolkata',
      slots: [
        { slot_date: '2030-01-03', start_time: '06:00:00', end_time: '06:30:00' },
        { slot_date: '2030-01-03', start_time: '06:30:00', end_time: '07:00:00' },
      ],
    });
    expect(keyFromSlot({ slot_date: '2030-01-03', start_time: '09:30:00' })).toBe('2030-01-03-7');
    expect(keyFromSlot({ slot_date: '2030-01-03', start_time: '05:30:00' })).toBeNull();
  });

  it('places the current-time marker in today\'s row that holds now, and nowhere outside the day\'s rows', () => {
    // 09:45 in India is 04:15 UTC.
    expect(nowMarker('Asia/Kolkata', new Date('2030-01-02T04:15:00Z'))).toEqual({ date: '2030-01-02', row: 7, fraction: 0.5 });
    expect(nowMarker('Asia/Kolkata', new Date('2030-01-02T00:00:00Z'))).toBeNull(); // 05:30, before the first row
    expect(nowMarker('Asia/Kolkata', new Date('2030-01-02T17:10:00Z'))).toBeNull(); // 22:40, after the last row
  });
});
