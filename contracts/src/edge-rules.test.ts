import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonShapeProblem } from './json-shape';
import { safeLine, safeText, unsafeCharacterIn } from './safe-text';
import { calendarDateSchema, isIanaTimezone, slotIdSchema, timezoneSchema, wallTimeSchema } from './time-fields';
import { availabilitySlotInputSchema, myAppointmentsQuerySchema, requestAppointmentSchema } from './api';
import { SLUG_PATTERN, createInstitutionSchema } from './institutions';

describe('safe text', () => {
  const refused = ['a\u0000b', 'a\u001b[31mred', 'a\u007f', 'a\u0085', 'a\u202eb', 'a\u2066b', 'x\ud800', '\udc00y'];
  for (const value of refused) it(`refuses ${JSON.stringify(value)} in a line`, () => assert.ok(unsafeCharacterIn(value)));
  it('keeps line breaks and tabs only in multi-line text', () => {
    assert.ok(unsafeCharacterIn('a\nb', 'line'));
    assert.ok(unsafeCharacterIn('a\tb', 'line'));
    assert.equal(unsafeCharacterIn('a\r\nb\tc', 'multiline'), null);
    assert.ok(unsafeCharacterIn('a\u0000\nb', 'multiline'));
  });
  it('accepts the scripts people write names in, joiners and emoji included', () => {
    for (const name of ['Dr. Priya Sharma', 'प्रिया शर्मा', 'ക്‍', 'O’Brien', '山田 太郎', 'Zoë 😀']) assert.equal(safeLine(120).safeParse(name).success, true, name);
  });
  it('is a zod string that trims after the check', () => {
    assert.equal(safeLine(5).parse('  ab  '), 'ab');
    assert.equal(safeText().nullable().parse(null), null);
  });
});

describe('json shape', () => {
  it('finds prototype keys at any depth', () => {
    assert.deepEqual(jsonShapeProblem(JSON.parse('{"a":[{"__proto__":{"x":1}}]}')), { kind: 'prototype_key', path: ['a', 0, '__proto__'] });
    assert.deepEqual(jsonShapeProblem({ constructor: 1 }), { kind: 'prototype_key', path: ['constructor'] });
    assert.equal(jsonShapeProblem({ a: { b: ['prototypes'] } }), null);
  });
  it('bounds nesting without recursion', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    assert.equal(jsonShapeProblem(deep)?.kind, 'too_deep');
  });
});

describe('dates, times, zones and slot ids at the edge', () => {
  it('dates are real days from 2020 to 2099', () => {
    for (const ok of ['2020-01-01', '2030-02-28', '2032-02-29', '2099-12-31']) assert.equal(calendarDateSchema.safeParse(ok).success, true, ok);
    for (const bad of ['2019-12-31', '2030-02-29', '2030-13-01', '2100-01-01', '0000-01-01', '9999-99-99', '2030-1-1']) assert.equal(calendarDateSchema.safeParse(bad).success, false, bad);
  });
  it('times are wall-clock times', () => {
    assert.equal(wallTimeSchema.safeParse('23:59:59').success, true);
    for (const bad of ['24:00:00', '99:99:99', '09:60:00', '9:00:00']) assert.equal(wallTimeSchema.safeParse(bad).success, false, bad);
  });
  it('a slot ends after it starts', () => {
    assert.equal(availabilitySlotInputSchema.safeParse({ slot_date: '2030-01-01', start_time: '09:30:00', end_time: '09:00:00' }).success, false);
  });
  it('opening hours close after they open', () => {
    const base = { name: 'C', slug: 'clinic', address: 'A', phone: '+91 80 1234 5678', email: 'c@c.in', staff: [{ name: 'S', email: 's@c.in', phone: '+91 90000 00000', account_type: 'ADMIN' }] };
    assert.equal(createInstitutionSchema.safeParse({ ...base, hours_of_operation: { MO: '09:00-17:00', SU: null } }).success, true);
    for (const range of ['17:00-09:00', '09:00-09:00']) assert.equal(createInstitutionSchema.safeParse({ ...base, hours_of_operation: { MO: range } }).success, false, range);
  });
  it('zones are IANA names the runtime knows, not offsets', () => {
    for (const ok of ['Asia/Kolkata', 'UTC', 'Europe/London', 'America/Argentina/Buenos_Aires']) assert.equal(isIanaTimezone(ok), true, ok);
    for (const bad of ['Mars/Olympus', '+05:30', '', '../etc', 'Asia/Kolkata\u0000', 'x'.repeat(100)]) assert.equal(timezoneSchema.safeParse(bad).success, false, bad);
  });
  it('slot ids are positive safe integers', () => {
    for (const bad of [0, -1, 1.5, 1e300, Number.MAX_SAFE_INTEGER + 2]) assert.equal(slotIdSchema.safeParse(bad).success, false, String(bad));
    assert.equal(requestAppointmentSchema.safeParse({ slot_id: 17_000_000_123, notes: 'Fever\nsince Monday' }).success, true);
  });
  it('appointment list filters name known statuses only', () => {
    assert.equal(myAppointmentsQuerySchema.safeParse({ status: 'requested,confirmed' }).success, true);
    assert.equal(myAppointmentsQuerySchema.safeParse({ status: 'requested,deleted' }).success, false);
  });
});

describe('institution slugs', () => {
  it('take 2 to 63 lowercase letters, digits and hyphens, as the message says', () => {
    for (const ok of ['ab', 'a1', 'sunrise-clinic', 'a'.repeat(63)]) assert.ok(SLUG_PATTERN.test(ok), ok);
    for (const bad of ['a', '-ab', 'ab-', 'Ab', 'a'.repeat(64), 'a_b']) assert.ok(!SLUG_PATTERN.test(bad), bad);
  });
});
