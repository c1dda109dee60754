import { describe, expect, it } from 'vitest';
import { groupSlotsByDay, localDate, partOfDay, splitByPartOfDay } from './slotDays';

const slot = (id: number, slot_date: string, start_time: string) => ({
  slot_id: id,
  slot_date,
  start_time,
  end_time: start_time,
  is_available: true,
  start_at: `${slot_date}T${start_time}Z`,
  end_at: `${slot_date}T${start_time}Z`,
});

describe('slots grouped by day', () => {
  it('groups by local date in order, naming today and tomorrow', () => {
    const days = groupSlotsByDay(
      [slot(1, '2030-01-01', '09:00:00'), slot(2, '2030-01-01', '17:30:00'), slot(3, '2030-01-02', '10:00:00'), slot(4, '2030-01-04', '09:30:00')],
      '2030-01-01',
    );
    expect(days.map((d) => [d.date, d.label, d.slots.map((s) => s.slot_id)])).toEqual([
      ['2030-01-01', 'Today', [1, 2]],
      ['2030-01-02', 'Tomorrow', [3]],
      ['2030-01-04', 'Fri', [4]],
    ]);
    expect(days[2]!.dayMonth).toBe('4 Jan');
    expect(days[2]!.longLabel).toBe('Friday, 4 January');
  });
  it('splits a day into morning, afternoon and evening', () => {
    expect([partOfDay('09:30:00'), partOfDay('12:00:00'), partOfDay('16:30:00'), partOfDay('17:00:00')]).toEqual(['Morning', 'Afternoon', 'Afternoon', 'Evening']);
    expect(splitByPartOfDay([slot(1, 'd', '09:00:00'), slot(2, 'd', '18:00:00')]).map((p) => p.part)).toEqual(['Morning', 'Evening']);
  });
  it("takes today's date in the caller's zone", () => {
    expect(localDate(new Date('2030-01-01T20:00:00Z'), 'Asia/Kolkata')).toBe('2030-01-02');
    expect(localDate(new Date('2030-01-01T20:00:00Z'), 'UTC')).toBe('2030-01-01');
  });
});
