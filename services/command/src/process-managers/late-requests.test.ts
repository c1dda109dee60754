import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOOKING_RACE_WINDOW_MS, StandingChangeWindow } from './late-requests';

describe('late requests: which are looked at again', () => {
  const minute = 60_000;
  it('every request in the first window after a start (what came before the checkpoint is unknown), then none until a change', () => {
    const window = new StandingChangeWindow();
    assert.equal(window.mayHaveRaced(0), true, 'the first request after a start');
    assert.equal(window.mayHaveRaced(BOOKING_RACE_WINDOW_MS - 1), true, 'still within the first window');
    assert.equal(window.mayHaveRaced(BOOKING_RACE_WINDOW_MS + minute), false, 'long after any change');
  });
  it('requests near a change of standing, before or after it in time, are looked at', () => {
    const window = new StandingChangeWindow();
    window.mayHaveRaced(0);
    window.changed(10 * BOOKING_RACE_WINDOW_MS);
    assert.equal(window.mayHaveRaced(10 * BOOKING_RACE_WINDOW_MS - minute), true, 'a booking that began before the change');
    assert.equal(window.mayHaveRaced(10 * BOOKING_RACE_WINDOW_MS + minute), true, 'just after it');
    assert.equal(window.mayHaveRaced(12 * BOOKING_RACE_WINDOW_MS), false, 'well after it');
  });
});
