import type { MessageFormatElement } from 'react-intl';
import type { Messages } from './catalogues';

/**
 * The pseudo-locale (issue 33's check that no visible text bypasses the catalogues): every catalogue message with its
 * letters accented and its text bracketed, `⟦Ƀôôķ ñôŵ⟧`, a third longer like the longer languages, so that a browser
 * walking the screens sees at once a word that came from elsewhere (plain ASCII) and a box too narrow for longer text.
 * Turned on in a browser with `localStorage['telemed.pseudo'] = '1'`; loaded only then.
 */
export const PSEUDO_STORAGE_KEY = 'telemed.pseudo';
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [letter, [...'áƀçđéƒĝĥíĵķĺɱñóƥǫŕšţúʋŵẋýžÁɃÇĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ'][i]!]),
);

/** Accented, and every third vowel doubled: about a third longer, as Tamil or Malayalam often are. */
export function pseudoText(text: string): string {
  let vowels = 0;
  return [...text]
    .map((char) => {
      const accented = ACCENTED[char] ?? char;
      if ('aeiouAEIOU'.includes(char) && ++vowels % 3 === 0) return accented + accented;
      return accented;
    })
    .join('');
}

// The element kinds of @formatjs/icu-messageformat-parser's syntax tree (its TYPE enum, kept off the page's bundle).
const LITERAL = 0;
const SELECT = 5;
const PLURAL = 6;
const TAG = 8;

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element): MessageFormatElement => {
    if (element.type === LITERAL) return { ...element, value: pseudoText(element.value) };
    if (element.type === SELECT || element.type === PLURAL) {
      const options = Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: pseudoElements(option.value) }]));
      return { ...element, options };
    }
    if (element.type === TAG) return { ...element, children: pseudoElements(element.children) };
    return element;
  });
}

/** English's messages as the pseudo-locale says them (compiled ones only: the build's; Vitest's text is left as it is). */
export function pseudoMessages(messages: Messages): Messages {
  const out: Record<string, MessageFormatElement[]> = {};
  for (const [id, message] of Object.entries(messages)) {
    if (typeof message === 'string') return messages;
    out[id] = [{ type: LITERAL, value: PSEUDO_OPEN }, ...pseudoElements(message), { type: LITERAL, value: PSEUDO_CLOSE }] as MessageFormatElement[];
  }
  return out;
}
