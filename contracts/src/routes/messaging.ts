import { z } from '../zod';
import { loginResponseSchema } from '../api';
import { MESSAGE_CHANNELS, MESSAGE_KINDS, MESSAGE_STATUSES, messageChannelsSchema, phoneNumberInput } from '../messaging';
import { defineRoutes } from './define';
import { idsFilter, listQuerySchema } from '../admin-list';

const phoneStartRequest = z.strictObject({ phone_number: phoneNumberInput.openapi({ description: 'A mobile number; without a country code it is read as Indian', example: '98765 43210' }) }).openapi('PhoneStartRequest');
const phoneVerifyRequest = z
  .strictObject({
    phone_number: phoneNumberInput,
    code: z.string().trim().regex(/^\d{6}$/, 'six digits').openapi({ description: 'The six-digit code sent to the number' }),
    challenge: z.string().min(16).max(128).openapi({ description: 'The challenge the start answered: only the one who asked for the code can spend its tries' }),
  })
  .openapi('PhoneVerifyRequest');
const codeSentSchema = z
  .object({
    status: z.literal('code_sent'),
    /** The number as the server reads it, in E.164. */
    phone_number: z.string(),
    channel: z.enum(MESSAGE_CHANNELS),
    resend_after_seconds: z.number().int(),
    expires_in_seconds: z.number().int(),
    /** Sent back with the code: tries without it never count against the code (no one else can spend them). */
    challenge: z.string(),
  })
  .openapi('PhoneCodeSent');

export const messagingPreferencesSchema = z
  .object({
    channels: messageChannelsSchema,
    time_zone: z.string().nullable(),
    /** The account's verified mobile number (E.164), if any: SMS and WhatsApp go there. */
    verified_phone: z.string().nullable(),
    has_email: z.boolean(),
    /** The channels this server can send on. */
    available: z.array(z.enum(MESSAGE_CHANNELS)),
  })
  .openapi('MessagingPreferences');
export type MessagingPreferences = z.infer<typeof messagingPreferencesSchema>;

const outboxEntrySchema = z.object({
  id: z.string(),
  message_id: z.string(),
  channel: z.enum(MESSAGE_CHANNELS),
  kind: z.enum(MESSAGE_KINDS),
  language: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: z.iso.datetime(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export const messageLogEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    recipient_id: z.string().nullable(),
    to_masked: z.string().nullable(),
    channel: z.enum(MESSAGE_CHANNELS).nullable(),
    status: z.enum(MESSAGE_STATUSES),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    appointment_id: z.string().nullable(),
    due_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi('MessageLogEntry');
export type MessageLogEntry = z.infer<typeof messageLogEntrySchema>;

/** An SMS delivery report as Exotel posts it (its other fields are ignored). */
export const smsStatusFormSchema = z.looseObject({
  SmsSid: z.string().min(1).max(128),
  Status: z.string().min(1).max(64),
  DetailedStatus: z.string().max(500).optional(),
  CustomField: z.string().max(128).optional(),
});

/** An SMS a person sent to the business number, as Exotel passes it on (its other fields are ignored). */
export const smsInboundFieldsSchema = z.looseObject({
  SmsSid: z.string().min(1).max(128),
  From: z.string().min(1).max(32),
  To: z.string().max(32).optional(),
  Date: z.string().max(64).optional(),
  Body: z.string().max(1600).default(''),
});
const smsInboundToken = z.string().min(1).max(128).openapi({ description: 'The token in the inbound address this server gives (`npm run messaging:templates` prints it)' });

/** The messaging area's routes (issue 34). */
export const messagingRoutes = defineRoutes({
  startPhoneSignIn: {
    summary: 'Sign in by phone, step 1: send a six-digit code to the number (by SMS, or WhatsApp where SMS is not available)',
    tags: ['auth'],
    body: phoneStartRequest,
    response: codeSentSchema,
    errors: [429, 503],
  },
  verifyPhoneSignIn: {
    summary: 'Sign in by phone, step 2: the code signs the number\'s holder in (a new number becomes a new patient), answering as the Google sign-in does',
    tags: ['auth'],
    body: phoneVerifyRequest,
    response: loginResponseSchema,
    errors: [401, 403, 429],
  },
  startPhoneVerification: {
    summary: "Add a mobile number to the caller's account, step 1: send a code to it",
    tags: ['users'],
    body: phoneStartRequest,
    response: codeSentSchema,
    errors: [409, 429, 503],
  },
  verifyPhone: {
    summary: "Add a mobile number to the caller's account, step 2: the code proves it is theirs; they can then sign in with it",
    tags: ['users'],
    body: phoneVerifyRequest,
    response: z.object({ status: z.literal('success'), phone_number: z.string() }),
    errors: [401, 409, 429],
  },
  getMessagingPreferences: {
    summary: 'The channels the caller is reached on (e-mail, SMS, WhatsApp) and their zone for quiet hours',
    tags: ['users'],
    response: messagingPreferencesSchema,
  },
  setMessagingPreferences: {
    summary: 'Choose the channels the caller is reached on; any can be stopped',
    tags: ['users'],
    body: z.strictObject({ channels: messageChannelsSchema, time_zone: z.string().max(64).nullable().optional() }),
    response: messagingPreferencesSchema,
  },
  listDevOutbox: {
    summary: 'Development only: the messages the outbox received in place of e-mail, SMS and WhatsApp, newest first',
    tags: ['operations'],
    query: z.object({ recipient: z.string().max(320).optional(), limit: z.coerce.number().int().min(1).max(500).default(100) }),
    response: z.array(outboxEntrySchema),
    errors: [404],
  },
  receiveSmsStatus: {
    summary: "The SMS provider's delivery report (form-encoded, as Exotel posts it), trusted only with the signed token this server put in the callback address",
    tags: ['messaging'],
    query: z.object({ message: z.string().min(1).max(64), token: z.string().min(1).max(128) }),
    form: smsStatusFormSchema,
    response: z.object({ status: z.literal('received') }),
    errors: [400, 401, 404],
  },
  receiveSmsReply: {
    summary: "An SMS a person sent to the business number, as Exotel's SMS app passes it on (GET, after a HEAD): STOP ends SMS messages for the sender; trusted only with this server's inbound token; answers an empty text/plain (no reply SMS)",
    tags: ['messaging'],
    // Optional fields: Exotel checks the address with a HEAD first, which may carry none of them.
    query: smsInboundFieldsSchema.partial().extend({ token: smsInboundToken }),
    errors: [400, 401, 404],
  },
  receiveSmsReplyForm: {
    summary: "The same as its GET, posted form-encoded (Exotel's inbound SMS webhook)",
    tags: ['messaging'],
    query: z.object({ token: smsInboundToken }),
    form: smsInboundFieldsSchema,
    errors: [400, 401, 404],
  },
  verifyWhatsAppWebhook: {
    summary: "WhatsApp Cloud API's subscription check: echoes hub.challenge when hub.verify_token is this server's",
    tags: ['messaging'],
    query: z.object({ 'hub.mode': z.string().max(32), 'hub.verify_token': z.string().max(256), 'hub.challenge': z.string().max(256) }),
    errors: [403, 404],
  },
  receiveWhatsAppWebhook: {
    summary: "WhatsApp Cloud API's status and message webhook: verified by X-Hub-Signature-256 over the raw body; STOP replies end WhatsApp messages for the sender",
    tags: ['messaging'],
    body: z.record(z.string(), z.unknown()),
    response: z.object({ status: z.literal('received') }),
    errors: [400, 401, 404],
  },
  listMessages: {
    summary: "The message log (recipients masked, no text): platform admins read all of it, a clinic's member the messages of one of its appointments (filter appointment_id); filter status, channel, kind, appointment_id, id; newest first by default",
    tags: ['operations'],
    query: listQuerySchema(
      z.object({
        id: idsFilter.optional(),
        status: z.enum(MESSAGE_STATUSES).optional(),
        channel: z.enum(MESSAGE_CHANNELS).optional(),
        kind: z.enum(MESSAGE_KINDS).optional(),
        appointment_id: z.string().max(64).optional(),
      }),
      ['updated_at', 'due_at', 'id'],
      'updated_at',
    ),
    response: z.array(messageLogEntrySchema),
    errors: [403, 503],
  },
  resendMessage: {
    summary: 'Send a failed message again',
    tags: ['operations'],
    params: z.object({ message_id: z.string().min(1).max(64) }),
    response: messageLogEntrySchema.pick({ id: true }).extend({ status: z.literal('queued') }),
    errors: [404, 409],
  },
});
