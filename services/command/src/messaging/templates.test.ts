import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MESSAGE_PARAMS } from '@telemed/contracts';
import { providerTemplates } from './templates';
import { renderMessage } from './render';

describe('the templates registered with the SMS provider (DLT) and WhatsApp', () => {
  it('an SMS as sent matches its DLT template (variables where the language puts them); WhatsApp numbers them as its params', () => {
    const templates = providerTemplates();
    assert.equal(templates.length, 10 * Object.keys(MESSAGE_PARAMS).length);
    for (const t of templates) {
      const values = { doctor: 'Dr. Kavya Rao', when: '7 Dec, 10:00 am', link: 'https://telemed.example.in/my-appointments', code: '123456', minutes: 5 };
      const sent = renderMessage(t.kind, t.language, values);
      const escaped = t.dlt.split('{#var#}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      assert.match(sent.text, new RegExp(`^${escaped.join('(.+?)')}$`, 'u'), `${t.kind} [${t.language}]`);
      assert.equal(escaped.length - 1, MESSAGE_PARAMS[t.kind].length, `${t.kind} [${t.language}]: one variable per value`);
      assert.equal(t.whatsapp.replace(/\{\{(\d+)\}\}/g, (_m, n: string) => sent.params[Number(n) - 1]!), sent.text);
      assert.match(t.whatsapp_name, /^telemed_[a-z_]+$/);
    }
  });
});
