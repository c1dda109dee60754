import { isOneTimeCode, type MessageKind } from '@telemed/contracts';
import { z } from 'zod';
import { ChannelSendError, type MessageSender, type OutgoingMessage } from './port';
import { postToProvider, PROVIDER_TIMEOUT_MS, withoutAddresses } from './provider-http';

export interface WhatsAppSenderOptions {
  /** The Graph API's base address, e.g. `https://graph.facebook.com/v21.0` (no trailing slash). */
  url: string;
  /** A system user's access token with whatsapp_business_messaging. */
  token: string;
  /** The sending number's id (not the number). */
  phoneNumberId: string;
  /** The approved template a kind is sent as; `telemed_<kind>` unless told. */
  templateName?: (kind: MessageKind) => string;
  timeoutMs?: number;
}

/**
 * Graph API error codes that are a limit or an outage rather than a refusal of this message, whatever the HTTP status
 * (Meta answers some of them with a 400): 1 and 2 (API unknown / service unavailable), 4 and 80007 (rate limits),
 * 130429 (throughput), 131000 (something went wrong), 131016 (service unavailable), 131048 (spam rate limit),
 * 131056 (too many messages to this number).
 */
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056]);

const acceptedSchema = z.object({ messages: z.array(z.object({ id: z.string().min(1) })) });
const errorSchema = z.object({ error: z.object({ code: z.number().optional(), message: z.string().optional() }) });

interface TemplateComponent {
  type: 'body' | 'button';
  sub_type?: 'url';
  index?: string;
  parameters: Array<{ type: 'text'; text: string }>;
}

/**
 * The template's filled-in components. A sign-in code goes as Meta's authentication template (the only kind allowed
 * to carry a one-time code): its body has one variable, the code, and its copy-code button takes the code again; the
 * minutes are the template's own expiry footer. Every other kind fills its body with the params in MESSAGE_PARAMS'
 * order.
 */
export function templateComponents(message: Pick<OutgoingMessage, 'kind' | 'params'>): TemplateComponent[] {
  const text = (value: string) => ({ type: 'text' as const, text: value });
  if (isOneTimeCode(message.kind)) {
    const code = message.params[0] ?? '';
    return [
      { type: 'body', parameters: [text(code)] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [text(code)] },
    ];
  }
  return [{ type: 'body', parameters: message.params.map(text) }];
}

/** WhatsApp template messages through Meta's Cloud API. */
export function createWhatsAppSender(options: WhatsAppSenderOptions): MessageSender {
  const endpoint = `${options.url.replace(/\/+$/, '')}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  const templateName = options.templateName ?? ((kind: MessageKind) => `telemed_${kind}`);
  return {
    channel: 'whatsapp',
    provider: 'whatsapp-cloud',
    async send(message: OutgoingMessage) {
      const body = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: message.to.replace(/^\+/, ''),
        type: 'template',
        template: { name: templateName(message.kind), language: { code: message.language }, components: templateComponents(message) },
        // Comes back on every status webhook of this message.
        biz_opaque_callback_data: message.message_id,
      };
      const answer = await postToProvider(
        'whatsapp-cloud',
        endpoint,
        { headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) },
        options.timeoutMs ?? PROVIDER_TIMEOUT_MS,
      );
      if (answer.status >= 200 && answer.status < 300) {
        const accepted = acceptedSchema.safeParse(answer.body);
        const first = accepted.success ? accepted.data.messages[0] : undefined;
        if (!first) throw new ChannelSendError(`whatsapp-cloud ${answer.status}: an answer without messages[0].id`, false);
        return { provider_message_id: first.id };
      }
      const parsed = errorSchema.safeParse(answer.body);
      const code = parsed.success ? parsed.data.error.code : undefined;
      const detail = parsed.success ? ` code ${code ?? '?'}: ${withoutAddresses(parsed.data.error.message ?? '')}` : '';
      const refused = answer.status >= 400 && answer.status < 500 && answer.status !== 429;
      throw new ChannelSendError(`whatsapp-cloud ${answer.status}${detail}`, refused && !(code !== undefined && TRANSIENT_CODES.has(code)));
    },
  };
}
