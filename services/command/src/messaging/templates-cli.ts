import { loadConfig, signInboundSmsAddress } from '@telemed/platform';
import { providerTemplates } from './templates';

/**
 * `npm run messaging:templates [-- --json]`: every message text as the SMS provider's DLT portal and WhatsApp's
 * template manager take it, by kind and language, to register before going live; and, with MESSAGING_CALLBACK_SECRET and
 * PUBLIC_URL set, the address to give the SMS provider for the replies people send (STOP).
 */
const templates = providerTemplates();
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(templates, null, 2)}\n`);
} else {
  for (const t of templates) {
    process.stdout.write(`${t.kind} [${t.language}]\n  DLT:      ${t.dlt}\n  WhatsApp: ${t.whatsapp_name} (${t.language}): ${t.whatsapp}\n`);
  }
}

const { messaging, publicUrl } = loadConfig();
if (messaging.callbackSecret && !process.argv.includes('--json')) {
  process.stdout.write(`\nSMS replies (Exotel: SMS settings, inbound SMS, or an SMS app's reply URL):\n  ${publicUrl}/api/v1/messaging/sms/inbound?token=${signInboundSmsAddress(messaging.callbackSecret)}\n`);
}
