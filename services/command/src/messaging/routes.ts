import {
  MESSAGE_CHANNELS,
  MESSAGING_TEXTS,
  smsInboundFieldsSchema,
  smsStatusFormSchema,
  streams,
  type MessageChannel,
  type MessagingPreferences,
} from '@telemed/contracts';
import {
  HttpError,
  RawBody,
  isStopReply,
  parseExotelInboundSms,
  verifyInboundSmsToken,
  parseExotelStatusCallback,
  parseWhatsAppWebhook,
  policies,
  rawBodyOf,
  verifyCallback,
  verifyWhatsAppSignature,
  type ApiRouter,
  type DeliveryReport,
  type OutboxStore,
} from '@telemed/platform';
import type { Request } from 'express';
import { handleCommand, readStream, systemContext } from '../decider';
import { positionHeader, requestContext } from '../context';
import { loadUser } from '../users/load-user';
import { contactDecider } from './contact';
import { messageDecider } from './message';
import { loadContact, type MessagingDeps } from './dispatch';
import { findUserIdByPhone } from './phone-routes';
import { normalisePhoneNumber } from './phone-number';

export interface MessagingRouteDeps extends MessagingDeps {
  /** The development outbox (null in production, or where a channel is configured). */
  outbox: OutboxStore | null;
  /** Signs SMS callback addresses; null where no SMS is configured. */
  callbackSecret: string | null;
  whatsapp: { appSecret: string; verifyToken: string | null } | null;
  /** The countries whose numbers may sign in by phone (PHONE_COUNTRIES). */
  phoneCountries?: readonly string[];
  /** Called after an operator asked for a message to be sent again (the dispatcher runs at once). */
  onQueued?: (messageId: string) => void;
}

const MAX_FORM_BYTES = 16 * 1024;

/** A form-encoded body (Exotel's callbacks), read here: the API parses JSON bodies only. */
async function readForm(req: Request): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) throw new HttpError(413, 'Request body is too large');
    chunks.push(chunk);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** The preferences as the write left them: what setMessagingPreferences answers (reads are the query side's). */
async function preferencesOf(deps: MessagingRouteDeps, userId: string): Promise<MessagingPreferences> {
  const [contact, user] = await Promise.all([loadContact(deps.eventStore, userId), loadUser(deps.eventStore, userId)]);
  return {
    channels: contact.channels,
    time_zone: contact.time_zone,
    verified_phone: contact.verified_phone,
    has_email: user.status === 'registered' && Boolean(user.email),
    available: MESSAGE_CHANNELS.filter((channel) => deps.senders.has(channel)),
  };
}

export function messagingRoutes(api: ApiRouter, deps: MessagingRouteDeps): void {
  const record = async (messageId: string, report: DeliveryReport) => {
    if (report.status === 'progress') return;
    const now = deps.clock();
    const stream = streams.message(messageId);
    const loaded = await readStream(deps.eventStore, stream, messageDecider);
    const channels = MESSAGE_CHANNELS.filter((channel) => deps.senders.has(channel));
    const command =
      report.status === 'delivered'
        ? ({ type: 'RecordDelivered', data: { provider_message_id: report.provider_message_id } } as const)
        : ({ type: 'RecordUndelivered', data: { provider_message_id: report.provider_message_id, error: report.error, now, channels } } as const);
    const result = await handleCommand(deps.eventStore, stream, messageDecider, command, systemContext(now, null), loaded);
    if (result.events.some((event) => event.type === 'MessageFailed')) deps.onQueued?.(messageId);
  };

  api.implement('setMessagingPreferences', {
    policy: policies.anyUser,
    handler: async ({ auth, body, req }) => {
      const timeZone = body.time_zone === undefined || body.time_zone === null || isTimeZone(body.time_zone) ? body.time_zone : null;
      const result = await handleCommand(
        deps.eventStore,
        streams.contact(auth.user_id),
        contactDecider,
        { type: 'SetPreferences', data: { user_id: auth.user_id, channels: body.channels, time_zone: timeZone, source: 'profile' } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: await preferencesOf(deps, auth.user_id), headers: positionHeader(result.position) };
    },
  });

  api.implement('resendMessage', {
    policy: policies.roles('admin'),
    handler: async ({ params, auth, req }) => {
      const stream = streams.message(params.message_id);
      const loaded = await readStream(deps.eventStore, stream, messageDecider);
      if (loaded.state.status === 'none') throw new HttpError(404, MESSAGING_TEXTS.messageNotFound);
      const result = await handleCommand(deps.eventStore, stream, messageDecider, { type: 'RequestResend', data: { now: deps.clock() } }, requestContext(req, auth, deps.clock()), loaded);
      if (result.events.length === 0) throw new HttpError(409, MESSAGING_TEXTS.messageNotFailed);
      deps.onQueued?.(params.message_id);
      return { body: { id: params.message_id, status: 'queued' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('listDevOutbox', {
    policy: policies.public,
    handler: async ({ query, req }) => {
      // A developer's own machine only: the connection comes from the loopback and through no proxy (a proxy on the same
      // machine would make every visitor look local).
      const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((header) => req.headers[header] !== undefined);
      if (!deps.outbox || forwarded || !isLoopback(req.socket.remoteAddress)) throw new HttpError(404, 'Not Found');
      const entries = deps.outbox.list({ recipient: query.recipient, limit: query.limit });
      return {
        body: entries.map((entry) => ({ id: entry.id, message_id: entry.message_id, channel: entry.channel, kind: entry.kind, language: entry.language, to: entry.to, subject: entry.subject, text: entry.text, created_at: entry.created_at })),
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  });

  api.implement('receiveSmsStatus', {
    policy: policies.public,
    handler: async ({ query, req }) => {
      if (!deps.callbackSecret || !deps.senders.has('sms')) throw new HttpError(404, 'Not Found');
      if (!verifyCallback(deps.callbackSecret, query.message, query.token)) throw new HttpError(401, 'Callback signature is not valid');
      const form = await readForm(req);
      const report = smsStatusFormSchema.safeParse(form).success ? parseExotelStatusCallback(form, query.message) : null;
      if (!report) throw new HttpError(400, 'Not a delivery report');
      await record(query.message, report);
      return { body: { status: 'received' as const } };
    },
  });

  // A person's SMS to the business number: STOP ends SMS for them. Answered with nothing (no reply SMS: a reply would need
  // a template of its own), and 200 whatever it says, so that the provider does not send it again.
  const nothingToReply = () => ({ body: new RawBody(Buffer.alloc(0), 'text/plain; charset=utf-8'), headers: { 'Cache-Control': 'no-store' } });
  const receiveSmsReply = async (token: string, fields: Record<string, unknown>, method = 'POST') => {
    if (!deps.callbackSecret || !deps.senders.has('sms')) throw new HttpError(404, 'Not Found');
    if (!verifyInboundSmsToken(deps.callbackSecret, token)) throw new HttpError(401, 'Inbound token is not valid');
    // The provider's check of the address (HEAD, its fields or none): answered as its GET would be, acting on nothing.
    if (method === 'HEAD') return nothingToReply();
    const reply = parseExotelInboundSms(fields);
    if (!reply) throw new HttpError(400, 'Not an inbound SMS');
    const from = phoneOrNull(reply.from, deps.phoneCountries);
    if (from && isStopReply(reply.text)) await stopChannel(deps, from, 'sms');
    return nothingToReply();
  };

  api.implement('receiveSmsReply', {
    policy: policies.public,
    handler: async ({ query, req }) => receiveSmsReply(query.token, query, req.method),
  });

  api.implement('receiveSmsReplyForm', {
    policy: policies.public,
    handler: async ({ query, req }) => {
      if (!deps.callbackSecret || !deps.senders.has('sms')) throw new HttpError(404, 'Not Found');
      // The token before the body is read: a stranger's post costs no more than its headers.
      if (!verifyInboundSmsToken(deps.callbackSecret, query.token)) throw new HttpError(401, 'Inbound token is not valid');
      const form = smsInboundFieldsSchema.safeParse(await readForm(req));
      if (!form.success) throw new HttpError(400, 'Not an inbound SMS');
      return receiveSmsReply(query.token, form.data);
    },
  });

  api.implement('verifyWhatsAppWebhook', {
    policy: policies.public,
    handler: async ({ query }) => {
      const token = deps.whatsapp?.verifyToken;
      if (!token) throw new HttpError(404, 'Not Found');
      if (query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== token) throw new HttpError(403, 'Verification token does not match');
      return { body: new RawBody(Buffer.from(query['hub.challenge']), 'text/plain; charset=utf-8') };
    },
  });

  api.implement('receiveWhatsAppWebhook', {
    policy: policies.public,
    handler: async ({ req, body }) => {
      if (!deps.whatsapp) throw new HttpError(404, 'Not Found');
      const raw = rawBodyOf(req);
      if (!raw || !verifyWhatsAppSignature(raw, req.get('X-Hub-Signature-256'), deps.whatsapp.appSecret)) throw new HttpError(401, 'Webhook signature is not valid');
      const { reports, replies } = parseWhatsAppWebhook(body);
      for (const report of reports) {
        const messageId = report.message_id;
        if (messageId) await record(messageId, report);
      }
      for (const reply of replies) if (isStopReply(reply.text)) await stopChannel(deps, reply.from, 'whatsapp');
      return { body: { status: 'received' as const } };
    },
  });
}

/** A STOP reply ends that channel for the number's holder, as if they had switched it off on their profile. */
async function stopChannel(deps: MessagingRouteDeps, from: string, channel: MessageChannel) {
  const userId = await findUserIdByPhone(deps, from);
  if (!userId) return;
  const contact = await loadContact(deps.eventStore, userId);
  await handleCommand(
    deps.eventStore,
    streams.contact(userId),
    contactDecider,
    { type: 'SetPreferences', data: { user_id: userId, channels: { ...contact.channels, [channel]: false }, source: 'reply' } },
    systemContext(deps.clock(), null),
  );
}

/** The sender's number in E.164 as the provider wrote it (often 0-prefixed), or null when it is none of ours to know. */
function phoneOrNull(from: string, countries: readonly string[] | undefined): string | null {
  try {
    return normalisePhoneNumber(from, countries);
  } catch {
    return null;
  }
}

function isLoopback(address: string | undefined): boolean {
  return address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
