import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { isValidTimezone, parseLocalDateTime, toLocalSlotFields, utcIso } from './slot-time';

describe('slot times', () => {
  it('renders UTC instants as local slot fields in India and elsewhere', () => {
    assert.deepEqual(toLocalSlotFields('2030-01-02T03:30:00Z', '2030-01-02T04:00:00Z', 'Asia/Kolkata'), {
      slot_date: '2030-01-02',
      start_time: '09:00:00',
      end_time: '09:30:00',
    });
    assert.deepEqual(toLocalSlotFields('2030-01-01T23:30:00Z', '2030-01-02T00:00:00Z', 'Asia/Kolkata').slot_date, '2030-01-02');
    assert.deepEqual(toLocalSlotFields('2030-07-01T16:30:00Z', '2030-07-01T17:00:00Z', 'America/New_York').start_time, '12:30:00');
    assert.equal(toLocalSlotFields('2030-01-02T00:00:00Z', '2030-01-02T00:30:00Z', 'UTC').start_time, '00:00:00', 'midnight is 00, not 24');
  });

  it('agrees with luxon on many instants', () => {
    for (let i = 0; i < 200; i += 1) {
      const instant = DateTime.fromMillis(Date.UTC(2030, 0, 1) + i * 7_919_000, { zone: 'utc' });
      for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Europe/London']) {
        const local = instant.setZone(zone);
        const iso = utcIso(instant);
        assert.deepEqual(toLocalSlotFields(iso, iso, zone), {
          slot_date: local.toISODate(),
          start_time: local.toFormat('HH:mm:ss'),
          end_time: local.toFormat('HH:mm:ss'),
        });
      }
    }
  });

  it('parses local times, refusing ones a zone skips', () => {
    assert.equal(utcIso(parseLocalDateTime('2030-01-02', '09:00:00', 'Asia/Kolkata')!), '2030-01-02T03:30:00Z');
    assert.equal(parseLocalDateTime('2030-03-10', '02:30:00', 'America/New_York'), null, 'a daylight-saving gap');
    assert.equal(parseLocalDateTime('2030-02-30', '09:00:00', 'Asia/Kolkata'), null);
  });

  it('knows IANA zones', () => {
    assert.ok(isValidTimezone('Asia/Kolkata'));
    assert.ok(!isValidTimezone('Mars/Olympus'));
  });
});
