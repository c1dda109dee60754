import { providerTemplates } from './templates';

/**
 * `npm run messaging:templates [-- --json]`: every message text as the SMS provider's DLT portal and WhatsApp's
 * template manager take it, by kind and language, to register before going live.
 */
const templates = providerTemplates();
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(templates, null, 2)}\n`);
} else {
  for (const t of templates) {
    process.stdout.write(`${t.kind} [${t.language}]\n  DLT:      ${t.dlt}\n  WhatsApp: ${t.whatsapp_name} (${t.language}): ${t.whatsapp}\n`);
  }
}
