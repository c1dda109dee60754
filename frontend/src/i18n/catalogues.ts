import { DEFAULT_LANGUAGE, type LanguageCode } from '@telemed/contracts/languages';
import type { MessageFormatElement } from 'react-intl';

/**
 * The language catalogues (issue 33): `catalogues/<language>/<feature>.json`, ICU messages whose ids start with the
 * feature's name (`auth.tagline`). The build compiles each message to its syntax tree (vite.config.ts), so the page
 * ships no message parser; under Vitest they arrive as text and are parsed as they are read.
 */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;
type Catalogue = { default: Messages };

// One build's catalogues are all of one form (all compiled, or all text under Vitest), so their union is too.
const merged = (catalogues: Messages[]): Messages => Object.assign({}, ...catalogues) as Messages;

// English is in the first download (every other language falls back to it); the others are fetched when chosen.
const english = import.meta.glob<Catalogue>('./catalogues/en/*.json', { eager: true });
const others = import.meta.glob<Catalogue>(['./catalogues/*/*.json', '!./catalogues/en/*.json']);

export const ENGLISH_MESSAGES: Messages = merged(Object.values(english).map((c) => c.default));

const loaded = new Map<LanguageCode, Promise<Messages>>();
const ready = new Map<LanguageCode, Messages>([[DEFAULT_LANGUAGE, ENGLISH_MESSAGES]]);

/** A language's messages if they have loaded already (the app's first render waits for the visitor's: no English flash). */
export function loadedMessages(language: LanguageCode): Messages | null {
  return ready.get(language) ?? null;
}

/** A language's messages over English's (a message not yet translated shows in English, never as its id). */
export function loadMessages(language: LanguageCode): Promise<Messages> {
  if (language === DEFAULT_LANGUAGE) return Promise.resolve(ENGLISH_MESSAGES);
  let messages = loaded.get(language);
  if (!messages) {
    const files = Object.entries(others).filter(([path]) => path.startsWith(`./catalogues/${language}/`));
    messages = Promise.all(files.map(([, load]) => load())).then((catalogues) => {
      const all = merged([ENGLISH_MESSAGES, ...catalogues.map((c) => c.default)]);
      ready.set(language, all);
      return all;
    });
    // Forgotten on failure (offline), so that choosing the language again tries again.
    messages.catch(() => loaded.delete(language));
    loaded.set(language, messages);
  }
  return messages;
}
