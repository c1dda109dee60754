import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instantRange, isAtOrBefore, storedInstant } from './instants';

const stored = '2026-12-01T05:00:00Z';
/** Whether a stored value passes a range the way the read stores compare it: as text. */
const passes = (value: string, r: ReturnType<typeof instantRange>) =>
  (r.$gt === undefined || value > r.$gt) && (r.$gte === undefined || value >= r.$gte) && (r.$lt === undefined || value < r.$lt) && (r.$lte === undefined || value <= r.$lte);

describe('instants as the read models store and compare them', () => {
  it('stores one format to the second, whatever the input', () => {
    for (const input of ['2026-12-01T05:00:00Z', '2026-12-01T05:00:00.000Z', '2026-12-01T10:30:00+05:30', '2026-12-01T05:00:00.999Z', new Date(Date.UTC(2026, 11, 1, 5)), Date.UTC(2026, 11, 1, 5)]) {
      assert.equal(storedInstant(input), stored, `${String(input)} is stored as ${stored}`);
    }
  });

  it('inclusive bounds equal to a stored instant include it and exclusive ones exclude it, with or without a fraction', () => {
    for (const bound of ['2026-12-01T05:00:00Z', '2026-12-01T05:00:00.000Z', '2026-12-01T10:30:00.000+05:30']) {
      assert.ok(passes(stored, instantRange({ gte: bound })), `gte ${bound}`);
      assert.ok(passes(stored, instantRange({ lte: bound })), `lte ${bound}`);
      assert.ok(!passes(stored, instantRange({ gt: bound })), `gt ${bound}`);
      assert.ok(!passes(stored, instantRange({ lt: bound })), `lt ${bound}`);
    }
  });

  it('a bound inside a second compares as the time it is', () => {
    for (const bound of ['2026-12-01T05:00:00.5Z', '2026-12-01T05:00:00.0000001Z']) {
      assert.ok(!passes(stored, instantRange({ gte: bound })), `${stored} is before ${bound}`);
      assert.ok(passes(stored, instantRange({ lt: bound })), `${stored} is before ${bound} (lt)`);
      assert.ok(passes(stored, instantRange({ lte: bound })), `${stored} is before ${bound} (lte)`);
      assert.ok(!passes(stored, instantRange({ gt: bound })), `${stored} is not after ${bound}`);
    }
    assert.ok(passes('2026-12-01T05:00:01Z', instantRange({ gt: '2026-12-01T05:00:00.5Z', gte: '2026-12-01T05:00:00.5Z' })), 'the next second is after');
  });

  it('compares a stored instant with a clock as times', () => {
    assert.ok(isAtOrBefore(stored, new Date(Date.UTC(2026, 11, 1, 5))), 'a start equal to now has started');
    assert.ok(!isAtOrBefore(stored, '2026-12-01T04:59:59.999Z'), 'a start after now has not');
  });
});
