import { describe, expect, it } from 'vitest';
import { instantOf } from './filters';

describe("the appointments list's date filters", () => {
  it("send the browser's local date and time as the UTC instant the API takes (it refuses a bare local time)", () => {
    const local = '2026-11-24T10:00';
    expect(instantOf(local)).toBe(new Date(local).toISOString());
    expect(instantOf(local)).toMatch(/^2026-11-2\dT\d\d:\d\d:00\.000Z$/);
  });
  it('set no filter for an empty or unreadable value', () => {
    expect(instantOf('')).toBeUndefined();
    expect(instantOf(null)).toBeUndefined();
    expect(instantOf('not a date')).toBeUndefined();
  });
});
