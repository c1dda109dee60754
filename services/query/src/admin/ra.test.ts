import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COUNTED, LIST_DEPTH, MAX_OFFSET, MAX_PAGE, contentRange } from './ra';

describe("the console's list totals", () => {
  it('are counted one past the depth a list can be paged to, and no further', () => {
    assert.equal(LIST_DEPTH, MAX_OFFSET + MAX_PAGE);
    assert.equal(COUNTED.limit, LIST_DEPTH + 1);
  });

  it('say the exact total up to the depth, and the depth with X-Total-Is-Lower-Bound past it', () => {
    assert.deepEqual(contentRange('users', 0, 25, 120), { 'Content-Range': 'users 0-24/120' });
    assert.deepEqual(contentRange('users', 0, 0, 0), { 'Content-Range': 'users */0' });
    assert.deepEqual(contentRange('users', 0, 25, LIST_DEPTH), { 'Content-Range': `users 0-24/${LIST_DEPTH}` });
    assert.deepEqual(contentRange('appointments', MAX_OFFSET, MAX_PAGE, COUNTED.limit), {
      'Content-Range': `appointments ${MAX_OFFSET}-${LIST_DEPTH - 1}/${LIST_DEPTH}`,
      'X-Total-Is-Lower-Bound': 'true',
    });
  });
});
