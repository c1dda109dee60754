import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import { ChannelSendError, type MessageSender, type OutgoingMessage } from './port';
import { withoutAddresses } from './provider-http';

export interface SmtpSenderOptions {
  /** `smtp://user:pass@host:587` or `smtps://user:pass@host:465` (nodemailer's connection URL). */
  url: string;
  /** The From header, e.g. `Telemed <no-reply@example.in>`. */
  from: string;
}

/**
 * The same message (its idempotency key) always has the same Message-ID, so a repeat after an unknown outcome is
 * recognisable as one mail by the recipient's server and client. The domain is the sender's, as RFC 5322 advises.
 */
export function messageIdFor(idempotencyKey: string, from: string): string {
  const domain = /@([^@>\s]+)>?\s*$/.exec(from)?.[1] ?? 'telemed';
  return `<${createHash('sha256').update(idempotencyKey).digest('hex')}@${domain}>`;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

/** The text as simple HTML: escaped, its lines kept, its https links clickable. */
export function htmlOf(text: string): string {
  const body = escapeHtml(text)
    .replace(/https:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\r?\n/g, '<br>\n');
  return `<!doctype html><html><body><p>${body}</p></body></html>`;
}

/**
 * The SMTP reply decides: 5xx (except 503, a session out of step) is a refusal for good; 4xx, a dropped connection or
 * a timeout may pass later. An envelope error without a reply is an address nodemailer itself refused.
 */
function sendError(error: unknown): ChannelSendError {
  // What nodemailer puts on its errors (NodemailerError), read without trusting its presence.
  const failure = error !== null && typeof error === 'object' ? error : {};
  const code = 'code' in failure && typeof failure.code === 'string' ? failure.code : 'ERROR';
  if ('responseCode' in failure && typeof failure.responseCode === 'number') {
    const reply = failure.responseCode;
    const at = 'command' in failure && typeof failure.command === 'string' ? ` at ${failure.command.split(' ')[0]}` : '';
    return new ChannelSendError(`SMTP ${reply}${at} (${code})`, reply >= 500 && reply < 600 && reply !== 503);
  }
  if (code === 'EENVELOPE') return new ChannelSendError('SMTP: the address was refused (EENVELOPE)', true);
  const detail = error instanceof Error ? `: ${withoutAddresses(error.message)}` : '';
  return new ChannelSendError(`SMTP ${code}${detail}`, false);
}

/** E-mail through an SMTP server, over a small pool of connections. */
export function createSmtpSender(options: SmtpSenderOptions): MessageSender {
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    channel: 'email',
    provider: 'smtp',
    async send(message: OutgoingMessage) {
      const messageId = messageIdFor(message.idempotency_key, options.from);
      try {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: htmlOf(message.text),
          messageId,
          // RFC 3834: an automatic message, so vacation responders stay quiet.
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      } catch (error) {
        throw sendError(error);
      }
      return { provider_message_id: messageId };
    },
    async close() {
      transport.close();
    },
  };
}
