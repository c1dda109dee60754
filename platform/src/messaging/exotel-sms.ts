import { z } from 'zod';
import { ChannelSendError, type MessageSender, type OutgoingMessage } from './port';
import { postToProvider, PROVIDER_TIMEOUT_MS, withoutAddresses } from './provider-http';

export interface ExotelSmsOptions {
  /** Exotel's send API, `https://api.exotel.com/v1/Accounts/<sid>/Sms/send.json` (or api.in.exotel.com). */
  url: string;
  /** `<api key>:<api token>`, sent as HTTP basic authentication. */
  key: string;
  /** The DLT-registered header the SMS comes from. */
  senderId: string;
  /** The DLT principal entity id. */
  entityId: string | null;
  /** DLT template ids by `<kind>.<language>`, then by `<kind>`. */
  templateIds: Record<string, string>;
  /** Where Exotel reports this message's delivery (a signed address of the app's). */
  callbackUrl: (messageId: string) => string;
  timeoutMs?: number;
}

/** GSM 03.38's default alphabet and its extension table: text outside it must go as unicode (UCS-2). */
const GSM7 = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà' +
    '\f^{}\\[~]|€',
);

export function isGsm7(text: string): boolean {
  for (const c of text) if (!GSM7.has(c)) return false;
  return true;
}

/** The DLT template a kind is registered as in a language (or in all of them); none means operators would block it. */
export function dltTemplateId(templateIds: Record<string, string>, message: Pick<OutgoingMessage, 'kind' | 'language'>): string | null {
  return templateIds[`${message.kind}.${message.language}`] ?? templateIds[message.kind] ?? null;
}

const acceptedSchema = z.object({ SMSMessage: z.object({ Sid: z.string().min(1) }) });
const refusalSchema = z.object({ RestException: z.object({ Message: z.string().optional(), Code: z.union([z.number(), z.string()]).optional() }) });

/** An HTTP URL with the credentials in it (as Exotel writes its examples) cannot be fetched: they go in the header. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** SMS through Exotel's send API with India's DLT fields. */
export function createExotelSmsSender(options: ExotelSmsOptions): MessageSender {
  const url = withoutCredentials(options.url);
  const authorization = `Basic ${Buffer.from(options.key).toString('base64')}`;
  return {
    channel: 'sms',
    provider: 'exotel',
    async send(message: OutgoingMessage) {
      const templateId = dltTemplateId(options.templateIds, message);
      if (!templateId) throw new ChannelSendError(`No DLT template id for ${message.kind} (SMS_TEMPLATE_IDS): operators would block it`, true);
      const form = new URLSearchParams({ From: options.senderId, To: message.to, Body: message.text });
      if (options.entityId) form.set('DltEntityId', options.entityId);
      form.set('DltTemplateId', templateId);
      form.set('SmsType', 'transactional');
      if (!isGsm7(message.text)) form.set('EncodingType', 'unicode');
      form.set('StatusCallback', options.callbackUrl(message.message_id));
      form.set('CustomField', message.message_id);
      const answer = await postToProvider(
        'exotel',
        url,
        { headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
        options.timeoutMs ?? PROVIDER_TIMEOUT_MS,
      );
      if (answer.status >= 200 && answer.status < 300) {
        const accepted = acceptedSchema.safeParse(answer.body);
        // Accepted but unreadable: Exotel may hold it; a retry risks a second SMS, which beats a lost sign-in code.
        if (!accepted.success) throw new ChannelSendError(`exotel ${answer.status}: an answer without SMSMessage.Sid`, false);
        return { provider_message_id: accepted.data.SMSMessage.Sid };
      }
      const refusal = refusalSchema.safeParse(answer.body);
      const detail = refusal.success && refusal.data.RestException.Message ? `: ${withoutAddresses(refusal.data.RestException.Message)}` : '';
      // A refused request stays refused, except when it was only too many too fast.
      const permanent = answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429;
      throw new ChannelSendError(`exotel ${answer.status}${detail}`, permanent);
    },
  };
}
