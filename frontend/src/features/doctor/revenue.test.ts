import { describe, expect, it } from 'vitest';
import { earningPoints } from './revenue';

describe('monthly earnings', () => {
  it('are the server’s months, each named in the language asked for', () => {
    const months = [
      { month: '2030-01', rupees: 300, consultations: 1 },
      { month: '2030-03', rupees: 900, consultations: 2 },
    ];
    expect(earningPoints(months, 'en-IN').map((p) => [p.month, p.label, p.revenue, p.consultations])).toEqual([
      ['2030-01', 'Jan 2030', 300, 1],
      ['2030-03', 'Mar 2030', 900, 2],
    ]);
    expect(earningPoints([{ month: '2030-03', rupees: 0, consultations: 0 }], 'hi-IN-u-nu-latn')[0]!.label).toBe('मार्च 2030');
  });
});
