import { describe, expect, it } from 'vitest';
import { CONSULTATION_MESSAGE_MAX_LENGTH as SERVER_MESSAGE_MAX, CONSULTATION_SUMMARY_DELAY_MS as SERVER_SUMMARY_DELAY, CONSULTATION_TEXTS, CONSULTATION_WARNING_MINUTES as SERVER_WARNING } from '@telemed/contracts';
import {
  CONSULTATION_MESSAGE_MAX_LENGTH,
  CONSULTATION_SUMMARY_DELAY_MS,
  CONSULTATION_WARNING_MINUTES,
  DEBUG_LOG_CAP,
  VIDEO_TEXTS,
  appendLog,
  buildSummary,
  callClock,
  clockOffset,
  formatDuration,
  formatRemaining,
  hourMinute,
  inLocalTime,
  initialsOf,
  isIphoneChrome,
  levelOf,
  logText,
  mediaConstraints,
  recordedAsGone,
  roleDisplayName,
  summaryFileName,
  summaryText,
  type DebugEntry,
} from './model';
import { isPoorQuality } from './p2p';
import { parseMediaState } from './connection';

const IPHONE_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('the consultation constants', () => {
  it('are the contracts’ values (the browser keeps its own copy to stay free of zod)', () => {
    expect(CONSULTATION_WARNING_MINUTES).toBe(SERVER_WARNING);
    expect(CONSULTATION_SUMMARY_DELAY_MS).toBe(SERVER_SUMMARY_DELAY);
    expect(CONSULTATION_MESSAGE_MAX_LENGTH).toBe(SERVER_MESSAGE_MAX);
    expect(VIDEO_TEXTS.autoEndedSubtitle).toBe(CONSULTATION_TEXTS.autoEndedSubtitle);
    expect(VIDEO_TEXTS.timeWarning('5 minutes')).toBe(CONSULTATION_TEXTS.timeWarning('5 minutes'));
  });
  it('say the seeds’ words', () => {
    expect(VIDEO_TEXTS.timeWarning('5 minutes')).toBe('Your consultation will end in 5 minutes. Please wrap up your session.');
    expect(VIDEO_TEXTS.pageError('x')).toBe('Video call error: x');
    expect(VIDEO_TEXTS.roomError()).toBe('Connection error: Unknown error occurred');
    expect(roleDisplayName('DOCTOR')).toBe('Healthcare Provider');
    expect(roleDisplayName('USER')).toBe('Patient');
    expect(roleDisplayName('admin')).toBe('Participant');
    expect(roleDisplayName(undefined)).toBe('Participant');
  });
});

describe('the call clock, from the server’s times', () => {
  const started = '2026-11-23T10:00:00Z';
  const ends = '2026-11-23T10:30:00Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts mm:ss from the server’s start, corrected by the server’s clock', () => {
    // This browser's clock is 90 s behind the server's.
    const offset = clockOffset('2026-11-23T10:10:00Z', at('2026-11-23T10:08:29.900Z'), at('2026-11-23T10:08:30.100Z'));
    expect(offset).toBe(90_000);
    const clock = callClock(started, ends, offset, at('2026-11-23T10:08:30Z'));
    expect(clock.elapsed).toBe(600);
    expect(formatDuration(clock.elapsed)).toBe('10:00');
    expect(clock.remaining).toBe(1200);
    expect(clock.nearLimit).toBe(false);
  });

  it('is near the limit at 5 minutes left, and over at the limit', () => {
    expect(callClock(started, ends, 0, at('2026-11-23T10:24:59Z')).nearLimit).toBe(false);
    const warn = callClock(started, ends, 0, at('2026-11-23T10:25:00Z'));
    expect(warn).toEqual({ elapsed: 1500, remaining: 300, nearLimit: true, over: false });
    expect(formatRemaining(warn.remaining)).toBe('5 minutes');
    expect(formatRemaining(61)).toBe('2 minutes');
    expect(formatRemaining(60)).toBe('1 minute');
    expect(formatRemaining(42)).toBe('42 seconds');
    const over = callClock(started, ends, 0, at('2026-11-23T10:30:01Z'));
    expect(over.over).toBe(true);
    expect(over.remaining).toBe(0);
  });

  it('a reload continues from the server’s start, not from zero', () => {
    expect(formatDuration(callClock(started, ends, 0, at('2026-11-23T10:17:05Z')).elapsed)).toBe('17:05');
  });

  it('a bad server time leaves the clock as it is', () => {
    expect(clockOffset('not a time', 0, 10)).toBe(0);
    expect(formatDuration(-5)).toBe('00:00');
  });
});

describe('the debug console log', () => {
  it('keeps the newest 50 entries', () => {
    let entries: DebugEntry[] = [];
    for (let i = 1; i <= 60; i += 1) entries = appendLog(entries, 'info', `entry ${i}`);
    expect(DEBUG_LOG_CAP).toBe(50);
    expect(entries).toHaveLength(50);
    expect(entries[0]!.message).toBe('entry 11');
    expect(entries.at(-1)!.message).toBe('entry 60');
    expect(new Set(entries.map((e) => e.id)).size).toBe(50);
  });
  it('holds timestamp, level, message and optional data; copies as text', () => {
    const entries = appendLog(appendLog([], 'warn', 'ICE failed', { state: 'failed' }, new Date('2026-11-23T10:00:00Z')), 'info', 'ok', undefined, new Date('2026-11-23T10:00:01Z'));
    expect(entries[0]).toMatchObject({ level: 'warn', message: 'ICE failed', data: { state: 'failed' }, timestamp: '2026-11-23T10:00:00.000Z' });
    expect('data' in entries[1]!).toBe(false);
    expect(logText(entries)).toBe('[2026-11-23T10:00:00.000Z] WARN ICE failed {"state":"failed"}\n[2026-11-23T10:00:01.000Z] INFO ok');
  });
});

describe('media', () => {
  it('asks for echo cancellation, noise suppression and auto gain, and 1280x720 at 30 fps', () => {
    expect(mediaConstraints('Mozilla/5.0 (X11; Linux x86_64) Chrome/140')).toEqual({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } },
    });
  });
  it('on iPhone Chrome only echo cancellation', () => {
    expect(isIphoneChrome(IPHONE_CHROME)).toBe(true);
    expect(isIphoneChrome(IPHONE_SAFARI)).toBe(false);
    expect(mediaConstraints(IPHONE_CHROME).audio).toEqual({ echoCancellation: true });
  });
  it('measures the microphone level', () => {
    expect(levelOf(new Uint8Array(64).fill(128))).toBe(0);
    expect(levelOf(Uint8Array.from({ length: 64 }, (_, i) => (i % 2 ? 160 : 96)))).toBeGreaterThan(0.5);
  });
  it('calls a connection poor on loss or a long round trip', () => {
    expect(isPoorQuality({ lossFraction: 0.01, roundTripSeconds: 0.05 })).toBe(false);
    expect(isPoorQuality({ lossFraction: 0.2, roundTripSeconds: 0.05 })).toBe(true);
    expect(isPoorQuality({ lossFraction: null, roundTripSeconds: 0.9 })).toBe(true);
  });
  it('reads the other side’s microphone and camera state, nothing else', () => {
    expect(parseMediaState('{"type":"media","audio":false,"video":true}')).toEqual({ type: 'media', audio: false, video: true });
    expect(parseMediaState('{"type":"media","audio":"no"}')).toBeNull();
    expect(parseMediaState('<script>')).toBeNull();
  });
  it('initials: up to two letters, without the title', () => {
    expect(initialsOf('Dr. Ananya Sharma')).toBe('AS');
    expect(initialsOf('Meera Lakshmi Iyer')).toBe('ML');
    expect(initialsOf('')).toBe('?');
  });
});

describe('the summary', () => {
  const record = {
    started_at: '2026-11-23T04:30:00Z',
    ended_at: '2026-11-23T04:47:05Z',
    duration_seconds: 1025,
    auto_ended: false,
    room: 'consultation-a1',
    participants: [
      { user_id: 'doc', name: 'Dr. Ananya Sharma', role: 'doctor' as const, role_display_name: 'Healthcare Provider' },
      { user_id: 'pat', name: 'Meera Iyer', role: 'patient' as const, role_display_name: 'Patient' },
    ],
  };

  it('comes from the server’s record, with the local participant marked', () => {
    const summary = buildSummary({ record, me: { id: 'pat', name: 'Meera Iyer', role: 'USER' }, autoEnded: false, timeZone: 'Asia/Kolkata' });
    expect(summary.callDetails).toMatchObject({ duration: 1025, durationFormatted: '17:05', startTime: '10:00', endTime: '10:17', totalParticipants: 2, endedAutomatically: false });
    expect(summary.callDetails.participants).toEqual([
      { name: 'Dr. Ananya Sharma', role: 'Healthcare Provider', isLocal: false },
      { name: 'Meera Iyer', role: 'Patient', isLocal: true },
    ]);
    expect(summary.isoDate).toBe('2026-11-23');
    expect(summaryFileName(summary.isoDate)).toBe('consultation-summary-2026-11-23.txt');
  });

  it('has the seeds’ defaults when the record is missing', () => {
    const summary = buildSummary({ record: null, me: { id: 'x', name: 'Asha', role: 'USER' }, autoEnded: true });
    expect(summary.callDetails).toMatchObject({ durationFormatted: '00:00', date: 'Today', startTime: '--:--', endTime: '--:--', totalParticipants: 1, endedAutomatically: true });
    expect(hourMinute(null)).toBe('--:--');
  });

  it('is in the person’s zone throughout, like every other screen: the times, the date, the file name and when it was generated', () => {
    // A patient abroad (a browser in New York): the 10:00 India-time call reads in their zone, everywhere in the file.
    const abroad = buildSummary({ record, me: { id: 'pat', name: 'Meera Iyer', role: 'USER' }, autoEnded: false, timeZone: 'America/New_York' });
    expect(abroad.callDetails).toMatchObject({ startTime: '23:30', endTime: '23:47', date: '22 Nov 2026' });
    expect(abroad.isoDate).toBe('2026-11-22');
    expect(summaryText(abroad, new Date('2026-11-23T05:00:00Z'))).toContain('Generated: 2026-11-23T00:00:00-05:00');
    // Without the server's record, the file name is today in the person's zone, not in UTC (01:00 in India is the
    // previous day in UTC).
    const early = buildSummary({ record: null, me: { id: 'x', name: 'Asha', role: 'USER' }, autoEnded: false, timeZone: 'Asia/Kolkata', now: new Date('2026-11-23T19:30:00Z') });
    expect(early.isoDate).toBe('2026-11-24');
    expect(summaryText(buildSummary({ record, me: { id: 'x', name: 'Asha', role: 'USER' }, autoEnded: false, timeZone: 'UTC' }), new Date('2026-11-23T05:00:00Z'))).toContain('Generated: 2026-11-23T05:00:00+00:00');
  });

  it('downloads as text with exactly the seeds’ fields', () => {
    const summary = buildSummary({ record: { ...record, auto_ended: true }, me: { id: 'doc', name: 'Dr. Ananya Sharma', role: 'DOCTOR' }, autoEnded: false, timeZone: 'Asia/Kolkata' });
    expect(summaryText(summary, new Date('2026-11-23T05:00:00Z'))).toBe(
      [
        'Consultation Summary',
        '',
        'Patient: Meera Iyer',
        'Date: 23 Nov 2026',
        'Start Time: 10:00',
        'End Time: 10:17',
        'Duration: 17:05',
        'Participants: 2',
        '- Dr. Ananya Sharma (Healthcare Provider)',
        '- Meera Iyer (Patient)',
        'Auto-ended: Yes',
        '',
        'Generated: 2026-11-23T10:30:00+05:30',
        '',
      ].join('\n'),
    );
  });
});

describe('rejoining after the server recorded a dropped connection', () => {
  const view = (status: string, present: boolean) => ({ status, participants: [{ user_id: 'me', present }, { user_id: 'other', present: true }] });
  it('joins again only when the running consultation has this person as gone', () => {
    expect(recordedAsGone(view('active', false), 'me')).toBe(true);
    expect(recordedAsGone(view('active', true), 'me')).toBe(false);
    expect(recordedAsGone(view('ended', false), 'me')).toBe(false);
    expect(recordedAsGone(view('active', false), 'someone-who-never-joined')).toBe(false);
    expect(recordedAsGone(null, 'me')).toBe(false);
  });
});

describe('a refusal of the server in the person’s own time', () => {
  const detail = (iso: string) => `The consultation opens at ${iso}, 15 minutes before the appointment starts`;
  const now = new Date('2026-11-24T01:30:00Z'); // 7:00 am in India
  it('says today, tomorrow or the day, in India’s time, and keeps the rest of the words', () => {
    expect(inLocalTime(detail('2026-11-24T01:45:00.000Z'), now, 'Asia/Kolkata')).toBe('The consultation opens today at 7:15 am, 15 minutes before the appointment starts');
    expect(inLocalTime(detail('2026-11-25T03:15:00Z'), now, 'Asia/Kolkata')).toBe('The consultation opens tomorrow at 8:45 am, 15 minutes before the appointment starts');
    expect(inLocalTime(detail('2026-11-27T04:00:00Z'), now, 'Asia/Kolkata')).toBe('The consultation opens on Friday, 27 November at 9:30 am, 15 minutes before the appointment starts');
  });
  it('leaves words without a time as they are', () => {
    expect(inLocalTime('The consultation has ended', now, 'Asia/Kolkata')).toBe('The consultation has ended');
  });
});
