import { describe, expect, it } from 'vitest';
import { ageLabel, whenPhrase } from './time';

const zone = 'Asia/Kolkata';
const now = new Date('2030-01-02T06:00:00Z'); // 11:30 in India

describe('time phrases (India)', () => {
  it('says Today at, Tomorrow at, or a weekday and date', () => {
    expect(whenPhrase('2030-01-02T11:30:00Z', now, zone)).toBe('Today at 5:00 pm');
    expect(whenPhrase('2030-01-03T03:30:00Z', now, zone)).toBe('Tomorrow at 9:00 am');
    expect(whenPhrase('2030-01-06T03:30:00Z', now, zone)).toBe('Sunday, 6 January at 9:00 am');
  });
  it('falls back to upcoming time', () => {
    expect(whenPhrase(undefined, now, zone)).toBe('upcoming time');
    expect(whenPhrase('garbage', now, zone)).toBe('upcoming time');
  });
  it('labels the age of a request', () => {
    expect(ageLabel('2030-01-02T05:59:30Z', now, zone)).toBe('Just now');
    expect(ageLabel('2030-01-02T05:15:00Z', now, zone)).toBe('45m ago');
    expect(ageLabel('2030-01-02T01:00:00Z', now, zone)).toBe('5h ago');
    expect(ageLabel('2029-12-30T06:00:00Z', now, zone)).toBe('3d ago');
    expect(ageLabel('2029-12-01T06:00:00Z', now, zone)).toBe('1 Dec 2029');
  });
});
