import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_TIMEZONE, streams } from '@telemed/contracts';
import { monthsAhead, setAvailability, systemContext } from '@telemed/command';
import { indiaDate, slotInput, startTestApp } from '../support/test-app';

const DAY_MS = 86_400_000;

describe('saving availability after a long history of saves', () => {
  it('folds only the months ahead of the schedule, once each, and reads only the slots of the future', async () => {
    // Noon UTC (17:30 in India): each day's 09:00-12:00 India slots have begun, whatever time the test runs at.
    const today = new Date();
    let now = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12);
    const t = await startTestApp({ clock: () => new Date(now) });
    try {
      const doctor = await t.createUser('doctor');
      const week = () =>
        Array.from({ length: 7 }, (_, d) => ['09:00', '10:00', '11:00', '12:00'].map((time) => slotInput(indiaDate(d + 1, new Date(now)), time))).flat();
      const save = () => setAvailability(t.app.eventStore, doctor.user_id, { slots: week(), timezone: DEFAULT_TIMEZONE }, systemContext(new Date(now), null));
      const PRIOR_SAVES = 60;
      for (let day = 0; day < PRIOR_SAVES; day += 1) {
        await save();
        now += DAY_MS; // every day the doctor adds the new seventh day; the oldest day has passed
      }

      const reads: string[] = [];
      const readStream = t.app.eventStore.readStream.bind(t.app.eventStore);
      t.app.eventStore.readStream = (stream) => {
        reads.push(stream);
        return readStream(stream);
      };
      const result = await save();
      assert.equal(result.opened, 4, 'the new seventh day');
      const scheduleReads = reads.filter((s) => s.startsWith(streams.schedule(doctor.user_id)));
      const months = monthsAhead(new Date(now)).map((m) => streams.scheduleMonth(doctor.user_id, m));
      assert.deepEqual(
        [...new Set(scheduleReads)].sort(),
        [streams.schedule(doctor.user_id), ...months].sort(),
        'the months from today to the horizon (and the stream from before months, which no longer grows)',
      );
      assert.equal(scheduleReads.length, months.length + 1, 'each folded once per save');
      const past = await t.app.eventStore.readStream(streams.scheduleMonth(doctor.user_id, new Date(now - 45 * DAY_MS).toISOString().slice(0, 7)));
      assert.ok(past.length > 0, 'the saves of two months ago are in a month stream no save reads any more');
      const slotReads = reads.filter((s) => s.startsWith('slot-'));
      // The 28 submitted slots (4 of them new) and the new ones' writes: nothing of the 60 days behind.
      assert.ok(slotReads.length <= 7 * 4 + 4, `${slotReads.length} slot streams read`);
    } finally {
      await t.close();
    }
  });
});
