import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOOKING_RACE_WINDOW_MS, NO_CHANGE_SEEN, StandingChangeWindow } from './late-requests';

describe('late requests: which are looked at again', () => {
  const minute = 60_000;
  it('none after a start from the log\'s beginning until a change: every change is met in order', () => {
    const window = new StandingChangeWindow();
    window.restore(0, true);
    assert.equal(window.mayHaveRaced(Date.UTC(2026, 0, 1)), false, 'the first request of a replay from position 0');
    window.changed(Date.UTC(2026, 0, 2));
    assert.equal(window.mayHaveRaced(Date.UTC(2026, 0, 2) + minute), true, 'a request just after a change');
  });
  it('after a restart, requests near the change an earlier run saved are looked at, and none else', () => {
    const change = Date.UTC(2026, 0, 2);
    const window = new StandingChangeWindow();
    window.restore(change, false);
    assert.equal(window.mayHaveRaced(change + minute), true, 'a request recorded just after the saved change');
    const quiet = new StandingChangeWindow();
    quiet.restore(NO_CHANGE_SEEN, false);
    assert.equal(quiet.mayHaveRaced(change), false, 'an earlier run saw no change since the log began');
  });
  it('every request in the first window after a start whose earlier changes are unknown (a checkpoint saved before the rule), then none until a change', () => {
    const window = new StandingChangeWindow();
    window.restore(0, false);
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
