import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGE_CODES, languageOf } from '../languages';
import { MESSAGE_KINDS, MESSAGE_PARAMS } from '../messaging';
import { MESSAGE_TEXTS } from './index';

const KNOWN_NAMES = new Set<string>(Object.values(MESSAGE_PARAMS).flat());
const PREFIX = 'Telemed: ';
/** An SMS in an Indic script is sent as UCS-2: 70 characters a part, so 160 is about two parts before the holes are filled. */
const MAX_LENGTH_WITHOUT_HOLES = 160;

/**
 * The holes of an ICU message that may hold only simple arguments (`{name}`), sorted. A brace left over (a select, a
 * plural, a typo) or an apostrophe (ICU's quoting, which would turn a hole into text) fails.
 */
function holes(message: string): string[] {
  assert.ok(!message.includes("'"), `an apostrophe would start ICU quoting: ${message}`);
  const names = [...message.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
  for (const name of names) assert.match(name, /^[a-z]+$/, `not a simple argument: {${name}} in ${message}`);
  assert.ok(!/[{}]/.test(message.replace(/\{[a-z]+\}/g, '')), `a stray brace in ${message}`);
  return names.sort();
}

const others = LANGUAGE_CODES.filter((code) => code !== 'en');

describe('message texts', () => {
  it('have every kind, and no other, in every language, with a subject and a text', () => {
    for (const code of LANGUAGE_CODES) {
      assert.deepEqual(Object.keys(MESSAGE_TEXTS[code]).sort(), [...MESSAGE_KINDS].sort(), code);
      for (const kind of MESSAGE_KINDS) {
        const { subject, text } = MESSAGE_TEXTS[code][kind];
        assert.ok(subject.trim().length > 0, `${code} ${kind} subject`);
        assert.ok(text.trim().length > 0, `${code} ${kind} text`);
      }
    }
  });

  it("hold in English exactly the kind's holes, and in every language exactly English's", () => {
    for (const kind of MESSAGE_KINDS) {
      const english = MESSAGE_TEXTS.en[kind];
      assert.deepEqual(holes(english.text), [...MESSAGE_PARAMS[kind]].sort(), `en ${kind}`);
      for (const code of others) {
        const { subject, text } = MESSAGE_TEXTS[code][kind];
        assert.deepEqual(holes(text), holes(english.text), `${code} ${kind} text`);
        assert.deepEqual(holes(subject), holes(english.subject), `${code} ${kind} subject`);
      }
    }
  });

  it('name no hole that MESSAGE_PARAMS does not know', () => {
    for (const code of LANGUAGE_CODES) {
      for (const kind of MESSAGE_KINDS) {
        const { subject, text } = MESSAGE_TEXTS[code][kind];
        for (const name of [...holes(subject), ...holes(text)]) {
          assert.ok(KNOWN_NAMES.has(name), `${code} ${kind}: {${name}}`);
        }
      }
    }
  });

  it('are translated: no subject or text is the English one', () => {
    for (const code of others) {
      for (const kind of MESSAGE_KINDS) {
        assert.notEqual(MESSAGE_TEXTS[code][kind].subject, MESSAGE_TEXTS.en[kind].subject, `${code} ${kind} subject`);
        assert.notEqual(MESSAGE_TEXTS[code][kind].text, MESSAGE_TEXTS.en[kind].text, `${code} ${kind} text`);
      }
    }
  });

  it('start with the brand in Latin letters', () => {
    for (const code of LANGUAGE_CODES) {
      for (const kind of MESSAGE_KINDS) {
        assert.ok(MESSAGE_TEXTS[code][kind].text.startsWith(PREFIX), `${code} ${kind}`);
      }
    }
  });

  it("are written, apart from the brand, in their language's script", () => {
    for (const code of others) {
      const script = new RegExp(`\\p{Script=${languageOf(code).script}}`, 'u');
      for (const kind of MESSAGE_KINDS) {
        for (const message of Object.values(MESSAGE_TEXTS[code][kind])) {
          const words = message.replace(/\{[a-z]+\}/g, '').replace(PREFIX, '');
          assert.ok(!/\p{Script=Latin}/u.test(words), `${code} ${kind}: Latin letters in ${message}`);
          assert.match(words, script, `${code} ${kind}`);
        }
      }
    }
  });

  it('stay short, and leave the link free of punctuation that a phone would take into it', () => {
    for (const code of LANGUAGE_CODES) {
      for (const kind of MESSAGE_KINDS) {
        const { text } = MESSAGE_TEXTS[code][kind];
        const length = text.replace(/\{[a-z]+\}/g, '').length;
        assert.ok(length <= MAX_LENGTH_WITHOUT_HOLES, `${code} ${kind}: ${length} characters`);
        assert.ok(!/\{link\}\S/.test(text), `${code} ${kind}: ${text}`);
      }
    }
  });
});
