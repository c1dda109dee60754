import { describe, expect, it } from 'vitest';
import { formatRupees } from './money';

describe('formatRupees', () => {
  it('writes rupees with the ₹ sign and Indian digit grouping, paise only when there are any', () => {
    expect(formatRupees(399)).toBe('₹399');
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(2999)).toBe('₹2,999');
    expect(formatRupees(123456)).toBe('₹1,23,456');
    expect(formatRupees(99.5)).toBe('₹99.50');
  });
});
