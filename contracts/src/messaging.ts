import { z } from 'zod';

/**
 * Messages outside the browser (issue 34): what is sent, on which channels, and the limits of sending. No I/O here:
 * the channels are platform adapters, the sending is the write side's messaging module.
 */

/** The channels a person can be reached on, in the order they are tried when a person allows several. */
export const MESSAGE_CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * What is sent. None names health data: a doctor's name and a time at most (no reason, notes, diagnosis or medicine);
 * a rejection's or cancellation's reason is read only inside the app.
 */
export const MESSAGE_KINDS = [
  /** To the doctor: a patient asked for a consultation. */
  'appointment_requested',
  /** To the doctor: their patient is waiting in the consultation's lobby. */
  'patient_waiting',
  /** To the patient: the doctor confirmed the consultation. */
  'appointment_approved',
  /** To the patient: the doctor could not take the consultation. */
  'appointment_rejected',
  /** To the other party: a consultation was cancelled. */
  'appointment_cancelled',
  /** To the patient: a confirmed consultation is near, with a link to join. */
  'appointment_reminder',
  /** To the patient: a prescription is ready to download. */
  'prescription_ready',
  /** To the patient: their doctor offered other times for a consultation, to accept one or decline. */
  'times_proposed',
  /** To the patient: their doctor never joined a confirmed consultation (issue 35), with an apology. */
  'doctor_no_show',
  /** To the patient: a freed time on a doctor's waitlist is held for them for a few minutes (issue 35), to book it. */
  'waitlist_offer',
  /** To whoever signs in by phone: the one-time code. */
  'sign_in_code',
  /** To a signed-in person adding a mobile number to their account: the one-time code that proves it is theirs. */
  'phone_verification_code',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * The holes a kind's text has, by name: `doctor` (a doctor's name), `when` (a time, written in the recipient's
 * language and zone), `link` (where to act), `code` and `minutes` (a sign-in code and how long it lasts).
 */
export const MESSAGE_PARAMS = {
  appointment_requested: ['when', 'link'],
  patient_waiting: ['when', 'link'],
  appointment_approved: ['doctor', 'when', 'link'],
  appointment_rejected: ['doctor', 'when', 'link'],
  appointment_cancelled: ['when', 'link'],
  appointment_reminder: ['doctor', 'when', 'link'],
  prescription_ready: ['doctor', 'link'],
  doctor_no_show: ['doctor', 'when', 'link'],
  times_proposed: ['doctor', 'when', 'link'],
  waitlist_offer: ['doctor', 'when', 'minutes', 'link'],
  sign_in_code: ['code', 'minutes'],
  phone_verification_code: ['code', 'minutes'],
} as const satisfies Record<MessageKind, readonly string[]>;
/** The kinds that carry a one-time code: sent at once while their request waits, in quiet hours too, never queued or sent again. */
export const ONE_TIME_CODE_KINDS = ['sign_in_code', 'phone_verification_code'] as const satisfies readonly MessageKind[];
export function isOneTimeCode(kind: MessageKind): boolean {
  return (ONE_TIME_CODE_KINDS as readonly MessageKind[]).includes(kind);
}
export type MessageParamName = (typeof MESSAGE_PARAMS)[MessageKind][number];

/** Before a confirmed consultation, reminders this many minutes ahead (REMINDER_OFFSETS_MINUTES overrides). */
export const DEFAULT_REMINDER_OFFSETS_MINUTES = [1440, 60] as const;

/** Quiet hours in the recipient's zone: [21:00, 09:00) sends only a sign-in code and a reminder due within the hour. */
export const QUIET_HOURS = { startHour: 21, endHour: 9 } as const;
/** A reminder whose consultation starts within this many minutes is sent in quiet hours too. */
export const QUIET_HOURS_URGENT_MINUTES = 60;

/** Sending on one channel: attempts before the next channel is tried, and the waits between them. */
export const MESSAGE_RETRY = { attemptsPerChannel: 4, firstDelayMs: 30_000, maxDelayMs: 30 * 60_000 } as const;
/** How long an attempt holds a message before another process (or this one after a restart) may take it up again. */
export const MESSAGE_ATTEMPT_LEASE_MS = 60_000;
/** A message queued by an event older than this when it is first seen (a first start over a long log) is not sent. */
export const MESSAGE_STALE_AFTER_MS = 15 * 60_000;

/** Sign-in by phone: the code's length and life, tries, and how often a number may be sent one. */
export const PHONE_SIGN_IN = {
  codeLength: 6,
  codeTtlSeconds: 5 * 60,
  resendAfterSeconds: 30,
  /** Codes sent to one number at the request of one address in an hour. */
  codesPerNumberAndAddressPerHour: 5,
  /** Codes requested by one address (any numbers) in an hour. */
  codesPerAddressPerHour: 20,
  /**
   * Codes sent to one number in an hour, whoever asks: what bounds a flood of SMS to one phone. Someone asking for that
   * many can hold the owner's next code back until the hour has passed: the price of bounding the flood.
   */
  codesPerNumberPerHour: 10,
  /** Code checks one address may make in an hour, over all numbers. */
  triesPerAddressPerHour: 30,
  /**
   * Wrong tries one address may make at one code; the code dies after `maxTries` from each of this many addresses, so
   * someone guessing from one address cannot spend the owner's tries.
   */
  triesPerAddress: 5,
  maxTriesAllAddresses: 25,
} as const;

export const messageChannelsSchema = z.object({ email: z.boolean(), sms: z.boolean(), whatsapp: z.boolean() });
export type MessageChannelChoice = z.infer<typeof messageChannelsSchema>;

/** What a person who never chose gets: e-mail and SMS where they have the address; WhatsApp only once they opt in (Meta's rule). */
export const DEFAULT_MESSAGE_CHANNELS: MessageChannelChoice = { email: true, sms: true, whatsapp: false };

/** A message's lifecycle as the console shows it. */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Why a queued message was not sent. */
export const MESSAGE_CANCEL_REASONS = ['appointment_closed', 'no_channel', 'stale', 'recipient_gone', 'offer_ended'] as const;

/** A phone number as people type it is checked and written as E.164 by the server (libphonenumber-js): here only its size. */
export const phoneNumberInput = z.string().trim().min(3).max(32);

/** Masks an address for lists that must not show it: the first character of an e-mail's name and its domain, a number's last three digits. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at > 0) return `${address[0]}•••@${address.slice(at + 1)}`;
  const digits = address.replace(/\D/g, '');
  return `${address.startsWith('+') ? '+' : ''}${'•'.repeat(Math.max(0, digits.length - 3))}${digits.slice(-3)}`;
}

/** What the server answers about messages and phone sign-in (`code`: the key in snake_case, see error-codes.ts). */
export const MESSAGING_TEXTS = {
  phoneInvalid: 'Enter a valid mobile number',
  phoneCodeWrong: 'That code is not right. Check the SMS and try again.',
  phoneCodeExpired: 'That code has expired. Ask for a new one.',
  phoneCodeTries: 'Too many wrong tries. Ask for a new code.',
  phoneResendWait: (seconds: number | string) => `You can ask for a new code in ${seconds} seconds.`,
  phoneTaken: 'This number belongs to another account.',
  phoneRateLimited: 'Too many codes were asked for. Try again later.',
  messagingUnavailable: 'Codes cannot be sent right now. Please try again later.',
  messageNotFound: 'Message not found',
  messageNotFailed: 'Only a message that failed can be sent again.',
} as const;
