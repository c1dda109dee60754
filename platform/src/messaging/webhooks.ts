import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { DeliveryReport, InboundReply } from './port';
import { withoutAddresses } from './provider-http';

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. */
export function verifyWhatsAppSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !appSecret) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match?.[1]) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest('hex');
  return sameText(match[1].toLowerCase(), expected);
}

const statusSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  biz_opaque_callback_data: z.string().min(1).optional(),
  errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() })).optional(),
});

/** A person's message: text they typed, or a template's quick-reply button they pressed. */
const inboundSchema = z.union([
  z.object({ from: z.string().regex(/^\d{6,15}$/), type: z.literal('text'), text: z.object({ body: z.string() }) }),
  z.object({ from: z.string().regex(/^\d{6,15}$/), type: z.literal('button'), button: z.object({ text: z.string() }) }),
]);

const envelopeSchema = z.object({
  entry: z.array(z.object({ changes: z.array(z.object({ value: z.object({ statuses: z.array(z.unknown()).optional(), messages: z.array(z.unknown()).optional() }) })) })),
});

/** The first error's code and title, as the message log shows it (Meta's titles name no person). */
function failureOf(errors: z.infer<typeof statusSchema>['errors']): string {
  const first = errors?.[0];
  if (!first) return 'failed';
  // A provider's words are kept and shown to clinics: never with a number or an address in them.
  return withoutAddresses([first.code, first.title ?? first.message].filter((part) => part !== undefined && part !== '').join(' ')) || 'failed';
}

/**
 * The delivery reports and replies in a WhatsApp Cloud API webhook (the messages field). What does not fit is left
 * out, one item at a time; nothing here throws.
 */
export function parseWhatsAppWebhook(body: unknown): { reports: DeliveryReport[]; replies: InboundReply[] } {
  const reports: DeliveryReport[] = [];
  const replies: InboundReply[] = [];
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { reports, replies };
  for (const entry of envelope.data.entry) {
    for (const { value } of entry.changes) {
      for (const item of value.statuses ?? []) {
        const status = statusSchema.safeParse(item);
        if (!status.success) continue;
        const { id, status: state, errors, biz_opaque_callback_data: messageId } = status.data;
        // Our message id, as the sender gave it (biz_opaque_callback_data).
        const ids = messageId ? { provider_message_id: id, message_id: messageId } : { provider_message_id: id };
        if (state === 'delivered') reports.push({ ...ids, status: 'delivered' });
        else if (state === 'failed') reports.push({ ...ids, status: 'failed', error: failureOf(errors) });
        else reports.push({ ...ids, status: 'progress' });
      }
      for (const item of value.messages ?? []) {
        const message = inboundSchema.safeParse(item);
        if (!message.success) continue;
        const text = message.data.type === 'text' ? message.data.text.body : message.data.button.text;
        replies.push({ channel: 'whatsapp', from: `+${message.data.from}`, text });
      }
    }
  }
  return { reports, replies };
}

function callbackMac(secret: string, messageId: string): string {
  return createHmac('sha256', secret).update(`telemed sms status\n${messageId}`).digest('base64url');
}

/** The token in the status address given to the SMS provider, whose callbacks carry no signature of their own. */
export function signCallback(secret: string, messageId: string): string {
  return callbackMac(secret, messageId);
}

export function verifyCallback(secret: string, messageId: string, token: string): boolean {
  if (typeof messageId !== 'string' || typeof token !== 'string' || !secret) return false;
  return sameText(token, callbackMac(secret, messageId));
}

const INBOUND_PURPOSE = 'telemed sms inbound';

/**
 * The token in the address given to the SMS provider for the replies people send (Exotel's inbound SMS carries no
 * signature of its own): one per secret, since the address is set once in the provider's dashboard.
 */
export function signInboundSmsAddress(secret: string): string {
  return createHmac('sha256', secret).update(INBOUND_PURPOSE).digest('base64url');
}

export function verifyInboundSmsToken(secret: string, token: unknown): boolean {
  if (typeof token !== 'string' || !secret) return false;
  return sameText(token, signInboundSmsAddress(secret));
}

/**
 * An SMS a person sent to the business number, as Exotel passes it on (SmsSid, From, To, Date, Body; From as the
 * operator gives it, often 0-prefixed): its sender as written and its text, or null when it is not one.
 */
export function parseExotelInboundSms(fields: Record<string, unknown>): { from: string; text: string } | null {
  const sid = typeof fields.SmsSid === 'string' ? fields.SmsSid.trim() : '';
  const from = typeof fields.From === 'string' ? fields.From.trim() : '';
  const text = typeof fields.Body === 'string' ? fields.Body : '';
  if (!sid || !from || from.length > 32) return null;
  return { from, text: text.slice(0, 1600) };
}

const EXOTEL_PROGRESS = new Set(['queued', 'sending', 'submitted', 'sent']);
const EXOTEL_FAILED = new Set(['failed', 'failed-dnd', 'undelivered', 'expired']);

/**
 * An Exotel SMS status callback (form fields SmsSid, Status, DetailedStatus, CustomField) as a delivery report, or
 * null when it is not one. With `messageId` (the one the signed address names), a callback whose CustomField names
 * another message is refused; the report's message_id is that one, else the CustomField.
 */
export function parseExotelStatusCallback(form: Record<string, string>, messageId?: string): DeliveryReport | null {
  const sid = typeof form.SmsSid === 'string' ? form.SmsSid.trim() : '';
  const status = typeof form.Status === 'string' ? form.Status.trim().toLowerCase() : '';
  const customField = typeof form.CustomField === 'string' && form.CustomField !== '' ? form.CustomField : undefined;
  if (!sid) return null;
  if (messageId !== undefined && customField !== undefined && customField !== messageId) return null;
  const ours = messageId ?? customField;
  const ids = ours ? { provider_message_id: sid, message_id: ours } : { provider_message_id: sid };
  if (status === 'delivered') return { ...ids, status: 'delivered' };
  if (EXOTEL_FAILED.has(status)) {
    const detail = typeof form.DetailedStatus === 'string' && form.DetailedStatus.trim() ? withoutAddresses(form.DetailedStatus.trim()).slice(0, 120) : null;
    return { ...ids, status: 'failed', error: detail ? `${status}: ${detail}` : status };
  }
  if (EXOTEL_PROGRESS.has(status)) return { ...ids, status: 'progress' };
  return null;
}

const STOP_WORDS = new Set(['STOP', 'UNSUBSCRIBE', 'STOP ALL', 'रोकें', 'रोको']);

/** A reply that asks to hear no more on this channel. */
export function isStopReply(text: string): boolean {
  const word = text.normalize('NFC').trim().replace(/[.!।\s]+$/u, '').replace(/\s+/g, ' ').toUpperCase();
  return STOP_WORDS.has(word);
}
