/**
 * The consultation's pure rules (seed 001 §2, §4, §5, §9): texts, clocks from the server's times, the debug log's
 * bound, the media constraints and the summary file. No React, no browser APIs beyond what is passed in.
 */
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { browserZone, whenPhrase } from '../../lib/time';
import type { MessageId, Translate } from '../../i18n/useT';

/*
 * The same values as contracts/src/consultation.ts (which carries zod, kept out of the browser's download);
 * model.test.ts checks they stay equal.
 */
/** Seed 001 §9: the warning shows once when this many minutes or fewer remain. */
export const CONSULTATION_WARNING_MINUTES = 5;
/** Seed 001 §4: the summary appears this long after leaving. */
export const CONSULTATION_SUMMARY_DELAY_MS = 500;
/** Seed 001 §2: the summary fades in after this long. */
export const SUMMARY_FADE_IN_MS = 100;
/** Longest chat message (characters), as the server takes it. */
export const CONSULTATION_MESSAGE_MAX_LENGTH = 2000;
const CONSULTATION_TEXTS = {
  autoEndedSubtitle: 'Your session ended automatically due to time limit',
  timeWarning: (remaining: string) => `Your consultation will end in ${remaining}. Please wrap up your session.`,
} as const;

export const VIDEO_TEXTS = {
  readyToConnect: 'Ready to connect',
  sessionType: 'Video Consultation',
  security: 'End-to-End Encrypted',
  startConsultation: 'Start Consultation',
  connectingSecurely: 'Connecting securely...',
  permissionsNeeded: 'Please allow camera and microphone access to join the consultation',
  note: 'Your consultation will begin with video and audio enabled',
  /** Seed 001 §2 disables Start Consultation only while joining or without camera and microphone: a patient may go in first. */
  doctorNotJoinedYet: 'Your doctor has not joined yet. You can start now and wait for them in the consultation.',
  /** In the call, before the other participant is in it (their name, or 'the doctor' / 'the patient'). */
  waitingInCall: (name: string) => `Waiting for ${name} to join…`,
  waitingInCallHint: 'You are in the consultation. The call connects as soon as they join.',
  otherLeftCall: (name: string) => `${name} left the call. Waiting for them to join again`,
  doctorInLobby: 'Your doctor is in the lobby and will start the consultation shortly',
  patientInLobby: 'Your patient is waiting in the lobby',
  connectionIssue: 'Connection Issue',
  iphoneBlocked: 'iPhone Chrome permissions blocked',
  permissionFailure: (reason: string) => `Camera and microphone access required: ${reason}`,
  basicPermissionFailure: (reason: string) => `Basic permissions failed: ${reason}`,
  joinFailure: (reason: string) => `Unable to join consultation: ${reason}`,
  roomError: (reason?: string) => `Connection error: ${reason || 'Unknown error occurred'}`,
  toggleCamera: 'Failed to toggle camera',
  toggleMicrophone: 'Failed to toggle microphone',
  pageError: (message: string) => `Video call error: ${message}`,
  timeWarning: CONSULTATION_TEXTS.timeWarning,
  complete: 'Consultation Complete',
  autoEndedSubtitle: CONSULTATION_TEXTS.autoEndedSubtitle,
  thanks: `Thank you for using ${PRODUCT_NAME}`,
  endTitle: 'End consultation',
} as const;

/** Seed 001 §4: the connection's four states and their labels. */
export type CallStatus = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';
export const CALL_STATUS_LABELS: Record<CallStatus, string> = {
  connecting: 'Connecting...',
  connected: 'Connected',
  reconnecting: 'Reconnecting...',
  disconnected: 'Disconnected',
};
/** The same labels in the chosen language (the catalogue's English is CALL_STATUS_LABELS). */
export const CALL_STATUS_IDS: Record<CallStatus, MessageId> = {
  connecting: 'video.statusConnecting',
  connected: 'video.statusConnected',
  reconnecting: 'video.statusReconnecting',
  disconnected: 'video.statusDisconnected',
};

/** Seed 001 §1: DOCTOR is a Healthcare Provider, USER a Patient, anyone else a Participant. */
export function roleDisplayName(role: string | null | undefined): string {
  const r = (role ?? '').toLowerCase();
  if (r === 'doctor') return 'Healthcare Provider';
  if (r === 'user' || r === 'patient') return 'Patient';
  return 'Participant';
}

/** The display names of roleDisplayName (and of the server's `role_display_name`) as message ids. */
const ROLE_DISPLAY_IDS: Readonly<Record<string, MessageId>> = {
  'Healthcare Provider': 'video.roleHealthcareProvider',
  Patient: 'video.rolePatient',
  Participant: 'video.roleParticipant',
};

/** A role's display name in the chosen language: the server's own words when they are none of the three. */
export function roleDisplayText(t: Translate, displayName: string): string {
  const id = ROLE_DISPLAY_IDS[displayName];
  return id ? t(id) : displayName;
}

/** Seconds as mm:ss (minutes may pass 99 only in theory: the server ends a call at its limit). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** The remaining time for the warning, in whole minutes from a minute up, else in seconds. */
export function remainingParts(totalSeconds: number): { unit: 'minutes' | 'seconds'; count: number } {
  const s = Math.max(0, Math.ceil(totalSeconds));
  return s >= 60 ? { unit: 'minutes', count: Math.ceil(s / 60) } : { unit: 'seconds', count: s };
}

/** The remaining time in English words for the warning: '5 minutes', '1 minute', '45 seconds'. */
export function formatRemaining(totalSeconds: number): string {
  const { unit, count } = remainingParts(totalSeconds);
  return `${count} ${unit === 'minutes' ? 'minute' : 'second'}${count === 1 ? '' : 's'}`;
}

/** The same in the chosen language (the catalogue's English is formatRemaining's). */
export function remainingText(t: Translate, totalSeconds: number): string {
  const { unit, count } = remainingParts(totalSeconds);
  return t(unit === 'minutes' ? 'video.remainingMinutes' : 'video.remainingSeconds', { count });
}

/**
 * How far this browser's clock is behind the server's (add it to Date.now() for the server's now), from an answer's
 * server_time and the moments the request left and its answer arrived (half the round trip assumed each way).
 */
export function clockOffset(serverTime: string, sentAt: number, receivedAt: number): number {
  const server = Date.parse(serverTime);
  if (Number.isNaN(server)) return 0;
  return server - (sentAt + receivedAt) / 2;
}

export interface CallClock {
  /** Seconds since the server's start of the call. */
  elapsed: number;
  /** Seconds until the server's limit. */
  remaining: number;
  /** Seed 001 §4: 5 minutes or fewer remain. */
  nearLimit: boolean;
  /** The limit has passed (the server ends the call; the page waits for its word). */
  over: boolean;
}

/** The call's clock from the server's start and limit, read at the local `now` corrected by the server's offset. */
export function callClock(startedAt: string, endsAt: string, offsetMs: number, now: number): CallClock {
  const serverNow = now + offsetMs;
  const elapsed = Math.max(0, Math.floor((serverNow - Date.parse(startedAt)) / 1000));
  const remainingMs = Date.parse(endsAt) - serverNow;
  const remaining = Math.max(0, Math.ceil(remainingMs / 1000));
  return { elapsed, remaining, nearLimit: remainingMs <= CONSULTATION_WARNING_MINUTES * 60_000, over: remainingMs <= 0 };
}

/** Up to two initials (seed 001 §9). */
export function initialsOf(name: string | null | undefined): string {
  const letters = (name ?? '')
    .replace(/^(dr|mr|mrs|ms)\.?\s+/i, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  return letters.slice(0, 2) || '?';
}

// ---- Debug console ----

export type LogLevel = 'info' | 'warn' | 'error' | 'debug';
export interface DebugEntry {
  id: number;
  level: LogLevel;
  timestamp: string;
  message: string;
  data?: unknown;
}
/** Seed 001 §9: the debug log keeps the newest 50 entries. */
export const DEBUG_LOG_CAP = 50;

let nextEntryId = 1;
export function appendLog(entries: readonly DebugEntry[], level: LogLevel, message: string, data?: unknown, now = new Date()): DebugEntry[] {
  const entry: DebugEntry = { id: nextEntryId++, level, timestamp: now.toISOString(), message, ...(data === undefined ? {} : { data }) };
  const next = [...entries, entry];
  return next.length > DEBUG_LOG_CAP ? next.slice(next.length - DEBUG_LOG_CAP) : next;
}

/** The log as text for Copy: one line per entry, data as JSON. */
export function logText(entries: readonly DebugEntry[]): string {
  return entries.map((e) => `[${e.timestamp}] ${e.level.toUpperCase()} ${e.message}${e.data === undefined ? '' : ` ${safeJson(e.data)}`}`).join('\n');
}
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

// ---- Media ----

/** Chrome on an iPhone (CriOS): its audio processing switches cannot be asked for (seed 001 §5). */
export function isIphoneChrome(userAgent: string): boolean {
  return /iPhone/.test(userAgent) && /CriOS/.test(userAgent);
}

/** Seed 001 §5: echo cancellation; noise suppression and auto gain except on iPhone Chrome; video 1280x720 at 30 fps. */
export function mediaConstraints(userAgent: string): MediaStreamConstraints {
  const iphoneChrome = isIphoneChrome(userAgent);
  return {
    audio: iphoneChrome ? { echoCancellation: true } : { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } },
  };
}
/** 'Try Basic iPhone Mode': the plainest request a browser can grant. */
export const BASIC_CONSTRAINTS: MediaStreamConstraints = { audio: true, video: true };

/**
 * A getUserMedia failure in words a person can act on, in the chosen language (the iPhone Chrome one is
 * VIDEO_TEXTS.iphoneBlocked in English); a failure of another kind in the browser's own words.
 */
export function mediaErrorReason(error: unknown, userAgent: string, t: Translate): string {
  const name = (error as { name?: string } | null)?.name ?? '';
  if ((name === 'NotAllowedError' || name === 'SecurityError') && isIphoneChrome(userAgent)) return t('video.iphoneBlocked');
  if (name === 'NotAllowedError') return t('video.mediaDenied');
  if (name === 'NotFoundError') return t('video.mediaNotFound');
  if (name === 'NotReadableError') return t('video.mediaInUse');
  if (name === 'OverconstrainedError') return t('video.mediaQualityUnsupported');
  return (error as { message?: string } | null)?.message || t('video.mediaUnknownError');
}

/** The microphone level 0..1 from an AnalyserNode's time-domain bytes (root mean square around 128). */
export function levelOf(samples: Uint8Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const v of samples) {
    const x = (v - 128) / 128;
    sum += x * x;
  }
  return Math.min(1, Math.sqrt(sum / samples.length) * 4);
}

// ---- Summary ----

export interface SummaryParticipant {
  name: string;
  role: string;
  isLocal: boolean;
}
export interface CallSummary {
  user: { name: string; role: string; roleDisplayName: string };
  callDetails: {
    duration: number;
    durationFormatted: string;
    startTime: string;
    endTime: string;
    date: string;
    participants: SummaryParticipant[];
    totalParticipants: number;
    roomUrl: string;
    endedAutomatically: boolean;
  };
  /** The patient's name, for the file's first line. */
  patientName: string;
  /** The calendar date for the file name (YYYY-MM-DD). */
  isoDate: string;
  /** The zone every time of the summary is in: the person's, as on every other screen of the app. */
  timeZone: string;
  /** The server's start and end of the call (null when unknown), for the times in the reader's language. */
  startedAt: string | null;
  endedAt: string | null;
}

export interface ServerParticipant {
  user_id: string;
  name: string;
  role: 'patient' | 'doctor';
  role_display_name: string;
}

/**
 * hour:minute in the given zone (the browser's by default, as everywhere in the app) and locale (the chosen language's,
 * `useFormat().locale`), or --:-- when the time is missing (seed 001 §2).
 */
export function hourMinute(iso: string | null | undefined, timeZone = browserZone(), locale = 'en-IN'): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '--:--';
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hour12: false, timeZone }).format(new Date(iso));
}

/** The call's day ('23 Nov 2026') in the given zone and locale, or null when its time is missing (the summary says Today). */
export function dayLabel(iso: string | null | undefined, timeZone = browserZone(), locale = 'en-IN'): string | null {
  if (!iso || Number.isNaN(Date.parse(iso))) return null;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(new Date(iso));
}

function calendarDate(iso: string | null | undefined, timeZone: string, now: Date): { label: string; isoDate: string } {
  const date = iso && !Number.isNaN(Date.parse(iso)) ? new Date(iso) : null;
  const isoDate = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(date ?? now);
  return { label: dayLabel(iso, timeZone) ?? 'Today', isoDate };
}

/** The summary from the server's record of the call (GET consultation): its times, duration and participants. */
export function buildSummary(options: {
  record: { started_at: string | null; ended_at: string | null; duration_seconds: number; auto_ended: boolean; room: string | null; participants: ServerParticipant[] } | null;
  me: { id: string; name: string; role: string };
  autoEnded: boolean;
  timeZone?: string;
  now?: Date;
}): CallSummary {
  const { record, me, timeZone = browserZone(), now = new Date() } = options;
  const duration = record?.duration_seconds ?? 0;
  const participants: SummaryParticipant[] = (record?.participants ?? []).map((p) => ({
    name: p.user_id === me.id ? me.name : p.name,
    role: p.role_display_name,
    isLocal: p.user_id === me.id,
  }));
  if (!participants.some((p) => p.isLocal)) participants.unshift({ name: me.name, role: roleDisplayName(me.role), isLocal: true });
  const { label, isoDate } = calendarDate(record?.started_at, timeZone, now);
  const patient = record?.participants.find((p) => p.role === 'patient');
  return {
    user: { name: me.name, role: me.role, roleDisplayName: roleDisplayName(me.role) },
    callDetails: {
      duration,
      durationFormatted: formatDuration(duration),
      startTime: hourMinute(record?.started_at, timeZone),
      endTime: hourMinute(record?.ended_at, timeZone),
      date: label,
      participants,
      totalParticipants: participants.length || 1,
      roomUrl: record?.room ?? '',
      endedAutomatically: options.autoEnded || Boolean(record?.auto_ended),
    },
    patientName: patient?.name ?? (roleDisplayName(me.role) === 'Patient' ? me.name : 'Unknown'),
    isoDate,
    timeZone,
    startedAt: record?.started_at ?? null,
    endedAt: record?.ended_at ?? null,
  };
}

export const summaryFileName = (isoDate: string) => `consultation-summary-${isoDate}.txt`;

/**
 * Seed 001 §2: Patient, Date, Start Time, End Time, Duration, Participants count, the participants with name and role,
 * Auto-ended Yes or No, and when it was generated. In English, or with `t` in the chosen language (its catalogue's
 * English is this one's).
 */
export function summaryText(summary: CallSummary, generatedAt = new Date(), t?: Translate): string {
  const d = summary.callDetails;
  const generated = zonedTimestamp(generatedAt, summary.timeZone);
  if (!t) {
    return [
      'Consultation Summary',
      '',
      `Patient: ${summary.patientName}`,
      `Date: ${d.date}`,
      `Start Time: ${d.startTime}`,
      `End Time: ${d.endTime}`,
      `Duration: ${d.durationFormatted}`,
      `Participants: ${d.totalParticipants}`,
      ...d.participants.map((p) => `- ${p.name} (${p.role})`),
      `Auto-ended: ${d.endedAutomatically ? 'Yes' : 'No'}`,
      '',
      `Generated: ${generated}`,
      '',
    ].join('\n');
  }
  const locale = t.intl.locale;
  return [
    t('video.fileTitle'),
    '',
    t('video.filePatient', { name: summary.patientName }),
    t('video.fileDate', { date: dayLabel(summary.startedAt, summary.timeZone, locale) ?? t('video.today') }),
    t('video.fileStartTime', { time: hourMinute(summary.startedAt, summary.timeZone, locale) }),
    t('video.fileEndTime', { time: hourMinute(summary.endedAt, summary.timeZone, locale) }),
    t('video.fileDuration', { duration: d.durationFormatted }),
    t('video.fileParticipants', { count: d.totalParticipants }),
    ...d.participants.map((p) => t('video.fileParticipant', { name: p.name, role: roleDisplayText(t, p.role) })),
    t(d.endedAutomatically ? 'video.fileAutoEndedYes' : 'video.fileAutoEndedNo'),
    '',
    t('video.fileGenerated', { at: generated }),
    '',
  ].join('\n');
}

/** '2026-11-23T10:30:00+05:30': the instant in the summary's zone, with its offset, like the file's other times. */
function zonedTimestamp(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const offset = String(parts.timeZoneName).replace(/^GMT/, '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/**
 * The server recorded this person as gone from a consultation still running (in a peer-to-peer call, their socket was
 * away longer than the server's grace): the page joins again once its socket is back, so the other side sees them.
 */
export function recordedAsGone(view: { status: string; participants: ReadonlyArray<{ user_id: string; present: boolean }> } | null, userId: string): boolean {
  if (view?.status !== 'active') return false;
  const mine = view.participants.find((p) => p.user_id === userId);
  return Boolean(mine && !mine.present);
}

const SERVER_INSTANT = /\bat (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z)/g;

/**
 * A refusal of the server (409: 'The consultation opens at 2026-11-24T01:45:00.000Z, 15 minutes before …') in the
 * person's own time: 'opens today at 7:15 am', 'opens tomorrow at …', 'opens on Friday, 27 November at …'. The rest of
 * the server's words are kept as they are. English only (it edits the server's English words); another language says
 * the refusal by its code (useVideoCall).
 */
export function inLocalTime(detail: string, now = new Date(), zone?: string): string {
  return detail.replace(SERVER_INSTANT, (whole, iso: string) => {
    const phrase = whenPhrase(iso, now, zone);
    if (phrase === 'upcoming time') return whole;
    return /^(Today|Tomorrow) /.test(phrase) ? phrase.charAt(0).toLowerCase() + phrase.slice(1) : `on ${phrase}`;
  });
}
