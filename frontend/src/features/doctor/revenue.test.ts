import { describe, expect, it } from 'vitest';
import { monthlyRevenue } from './revenue';

describe('monthly revenue', () => {
  it('adds up confirmed and completed consultations by month, in the doctor’s zone', () => {
    const now = new Date('2030-03-10T00:00:00Z');
    const a = (status: string, fee: number, start: string) => ({ status, consultation_fee: fee, slot: { start_at: start } });
    const points = monthlyRevenue(
      [
        a('confirmed', 500, '2030-03-05T05:00:00Z'),
        a('completed', 400, '2030-02-28T20:00:00Z'), // 1 March in India
        a('rejected', 999, '2030-03-06T05:00:00Z'),
        a('confirmed', 300, '2030-01-15T05:00:00Z'),
        a('confirmed', 700, '2029-01-15T05:00:00Z'), // outside the window
      ],
      'Asia/Kolkata',
      'en-IN',
      now,
      3,
    );
    expect(points.map((p) => [p.month, p.revenue, p.consultations])).toEqual([
      ['2030-01', 300, 1],
      ['2030-02', 0, 0],
      ['2030-03', 900, 2],
    ]);
    expect(points[2]!.label).toBe('Mar 2030');
  });

  it('names the months in the language asked for', () => {
    const points = monthlyRevenue([], 'Asia/Kolkata', 'hi-IN-u-nu-latn', new Date('2030-03-10T00:00:00Z'), 1);
    expect(points[0]!.label).toBe('मार्च 2030');
  });
});
