import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { isValidTimezone, localDateTime, parseLocalDateTime, toLocalSlotFields, utcIso } from './slot-time';

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

  it('renders exactly what Intl.DateTimeFormat says, across daylight-saving changes of many zones', () => {
    const formats = new Map<string, Intl.DateTimeFormat>();
    const reference = (ms: number, zone: string) => {
      const parts: Record<string, string> = {};
      let format = formats.get(zone);
      if (!format) {
        format = new Intl.DateTimeFormat('en-CA', {
          timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
        });
        formats.set(zone, format);
      }
      for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
      return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
    };
    const zones = [
      'Asia/Kolkata', 'UTC', 'America/New_York', 'Europe/London', 'Europe/Dublin', 'Australia/Lord_Howe', 'America/Sao_Paulo',
      'Pacific/Chatham', 'America/St_Johns', 'Africa/Casablanca', 'Asia/Kathmandu', 'America/Santiago', 'Antarctica/Troll',
      'Australia/Adelaide', 'America/Havana', 'Asia/Tehran',
    ];
    const from = Date.UTC(2025, 0, 1);
    for (const zone of zones) {
      const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, timeZoneName: 'longOffset' });
      let previousOffset = '';
      // Every 30 minutes for a year (as slots are), and every minute (with odd seconds) around each change.
      for (let ms = from; ms < from + 366 * 86_400_000; ms += 1_800_000) {
        const iso = new Date(ms).toISOString();
        assert.deepEqual(localDateTime(iso, zone), reference(ms, zone), `${iso} in ${zone}`);
        const offset = format.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
        if (previousOffset && offset !== previousOffset) {
          for (let near = ms - 7_200_000; near < ms + 7_200_000; near += 60_000 + 7_000) {
            const nearIso = new Date(near).toISOString();
            assert.deepEqual(localDateTime(nearIso, zone), reference(near, zone), `${nearIso} in ${zone}, near a change`);
          }
        }
        previousOffset = offset;
      }
    }
    assert.deepEqual(localDateTime('1890-06-01T12:00:00Z', 'Asia/Kolkata'), reference(Date.parse('1890-06-01T12:00:00Z'), 'Asia/Kolkata'), 'old local mean time');
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
