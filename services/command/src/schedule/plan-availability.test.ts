import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '@telemed/contracts';
import { parseAvailability, planAvailability } from './plan-availability';
import { slotIdFor, slotStartFromId, doctorNumberFromSlotId } from './slot-id';
import { deciderSpec } from '../decider-spec';
import { futurePublishedSlots, scheduleDecider, type ScheduleEvent } from './schedule';
import type { SlotState } from './slot';

const now = new Date('2030-01-01T00:00:00Z'); // 05:30 in India
const context = { doctor_id: 'doc-1', doctor_number: 7, timezone: 'Asia/Kolkata', now };

describe('slot ids', () => {
  it('are stable integers that encode doctor and start', () => {
    const start = new Date('2030-01-02T03:30:00Z');
    const id = slotIdFor(7, start);
    assert.ok(Number.isSafeInteger(id));
    assert.equal(slotIdFor(7, start), id);
    assert.notEqual(slotIdFor(8, start), id);
    assert.equal(slotStartFromId(id).toISOString(), start.toISOString());
    assert.equal(doctorNumberFromSlotId(id), 7);
  });
});

describe('parseAvailability', () => {
  it('converts local India times to UTC slots', () => {
    const { slots, errors } = parseAvailability([{ slot_date: '2030-01-02', start_time: '09:00:00', end_time: '09:30:00' }], context);
    assert.deepEqual(errors, []);
    assert.equal(slots[0]!.start, '2030-01-02T03:30:00Z');
    assert.equal(slots[0]!.end, '2030-01-02T04:00:00Z');
  });

  it('accepts the first (06:00) and the last (22:00) row of the calendar', () => {
    const { errors, slots } = parseAvailability(
      [
        { slot_date: '2030-01-02', start_time: '06:00:00', end_time: '06:30:00' },
        { slot_date: '2030-01-02', start_time: '22:00:00', end_time: '22:30:00' },
      ],
      context,
    );
    assert.deepEqual(errors, []);
    assert.equal(slots.length, 2);
  });

  const bad: Array<[string, { slot_date: string; start_time: string; end_time: string }, RegExp]> = [
    ['before 06:00', { slot_date: '2030-01-02', start_time: '05:30:00', end_time: '06:00:00' }, /between 06:00 and 22:00/],
    ['after 22:00', { slot_date: '2030-01-02', start_time: '22:30:00', end_time: '23:00:00' }, /between 06:00 and 22:00/],
    ['off the half hour', { slot_date: '2030-01-02', start_time: '09:15:00', end_time: '09:45:00' }, /half hour/],
    ['not 30 minutes long', { slot_date: '2030-01-02', start_time: '09:00:00', end_time: '10:00:00' }, /30 minutes/],
    ['an impossible date', { slot_date: '2030-02-30', start_time: '09:00:00', end_time: '09:30:00' }, /Not a valid date/],
    ['beyond the horizon', { slot_date: '2030-12-01', start_time: '09:00:00', end_time: '09:30:00' }, /days ahead/],
    ['before slot ids begin (2020), which used to throw a RangeError', { slot_date: '2019-06-01', start_time: '09:00:00', end_time: '09:30:00' }, /far in the past/],
  ];
  for (const [name, input, message] of bad) {
    it(`rejects a slot ${name}`, () => {
      const { errors } = parseAvailability([input], context);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!.msg, message);
    });
  }

  it('rejects a first-of-2020 slot that is still 2019 in UTC (a zone ahead of UTC)', () => {
    const { errors } = parseAvailability([{ slot_date: '2020-01-01', start_time: '06:00:00', end_time: '06:30:00' }], { ...context, timezone: 'Pacific/Kiritimati' });
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.msg, /far in the past/);
  });
  it('merges duplicates', () => {
    const input = { slot_date: '2030-01-02', start_time: '09:00:00', end_time: '09:30:00' };
    assert.equal(parseAvailability([input, input], context).slots.length, 1);
  });
});

describe('planAvailability', () => {
  const [a, b, c] = parseAvailability(
    [
      { slot_date: '2030-01-02', start_time: '09:00:00', end_time: '09:30:00' },
      { slot_date: '2030-01-02', start_time: '09:30:00', end_time: '10:00:00' },
      { slot_date: '2030-01-02', start_time: '10:00:00', end_time: '10:30:00' },
    ],
    context,
  ).slots;
  const open = (slot: typeof a): SlotState => ({ status: 'open', slot: slot! });
  const booked = (slot: typeof a): SlotState => ({ status: 'reserved', slot: slot!, appointment_id: 'x', patient_id: 'p' });

  it('opens new slots', () => {
    const plan = planAvailability({ desired: [a!, b!], known: [], slotStates: new Map(), now });
    assert.deepEqual(plan.toOpen.map((s) => s.slot_id), [a!.slot_id, b!.slot_id]);
    assert.deepEqual(plan.toWithdraw, []);
  });

  it('withdraws open slots that were left out, never booked ones', () => {
    const states = new Map([
      [a!.slot_id, open(a)],
      [b!.slot_id, booked(b)],
      [c!.slot_id, open(c)],
    ]);
    const plan = planAvailability({ desired: [a!], known: [a!.slot_id, b!.slot_id, c!.slot_id], slotStates: states, now });
    assert.deepEqual(plan.toOpen, []);
    assert.deepEqual(plan.toWithdraw, [c!.slot_id]);
    assert.equal(plan.unchanged, 2);
  });

  it('refuses to add availability in the past', () => {
    assert.throws(
      () => planAvailability({ desired: [a!], known: [], slotStates: new Map(), now: new Date('2030-01-03T00:00:00Z') }),
      (e: unknown) => e instanceof DomainError && e.kind === 'conflict',
    );
  });

  it('accepts a past slot that was already available, unchanged', () => {
    const plan = planAvailability({ desired: [a!], known: [], slotStates: new Map([[a!.slot_id, open(a)]]), now: new Date('2030-01-03T00:00:00Z') });
    assert.equal(plan.unchanged, 1);
  });
});

describe('schedule decider', () => {
  const spec = deciderSpec(scheduleDecider);
  it('records a change', () =>
    spec([])
      .when({ type: 'RecordAvailability', data: { doctor_id: 'd', timezone: 'Asia/Kolkata', opened: [1], withdrawn: [] } })
      .then([{ type: 'AvailabilitySet', data: { doctor_id: 'd', timezone: 'Asia/Kolkata', opened: [1], withdrawn: [] } }]));
  it('records nothing when nothing changes', () =>
    spec([]).when({ type: 'RecordAvailability', data: { doctor_id: 'd', timezone: 'Asia/Kolkata', opened: [], withdrawn: [] } }).then([]));
});

describe('schedule state over a long history', () => {
  const day = (n: number) => Array.from({ length: 33 }, (_, i) => slotIdFor(7, new Date(Date.UTC(2030, 0, 1 + n, 0, 30 * i))));
  const saved = (n: number): ScheduleEvent => ({
    type: 'AvailabilitySet',
    data: { doctor_id: 'd', timezone: 'UTC', opened: day(n), withdrawn: [] },
  });
  /** Set additions while folding one more event into a schedule with `history` days of saves behind it. */
  const additionsForOneMoreSave = (history: number) => {
    let state = scheduleDecider.initialState();
    for (let n = 0; n < history; n += 1) state = scheduleDecider.evolve(state, saved(n));
    const add = Set.prototype.add;
    let additions = 0;
    Set.prototype.add = function counted(this: Set<unknown>, value: unknown) {
      additions += 1;
      return add.call(this, value);
    };
    try {
      scheduleDecider.evolve(state, saved(history));
    } finally {
      Set.prototype.add = add;
    }
    return additions;
  };

  it('folds each event in what it opened, not a copy of everything published before', () => {
    assert.equal(additionsForOneMoreSave(10), 33);
    assert.equal(additionsForOneMoreSave(365), 33, 'a year of daily saves behind it costs the same');
  });

  it('finds the future published slots without looking at past days', () => {
    let state = scheduleDecider.initialState();
    for (let n = 0; n < 400; n += 1) state = scheduleDecider.evolve(state, saved(n));
    const now = new Date(Date.UTC(2030, 0, 1 + 398, 12, 0));
    const future = futurePublishedSlots(state, now);
    assert.deepEqual(future, [...day(398).slice(25), ...day(399)]);
    assert.deepEqual(futurePublishedSlots(state, new Date(Date.UTC(2031, 6, 1))), []);
  });
});
