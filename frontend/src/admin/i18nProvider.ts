import { useCallback, useMemo, useState } from 'react';
import { memoryStore, type I18nProvider, type Store } from 'react-admin';
import { LANGUAGES, isLanguageCode, type LanguageCode } from '@telemed/contracts/languages';
import { keepOnAccount } from '../i18n/accountLanguage';
import { errorText } from '../i18n/errorText';
import { useLanguage } from '../i18n/I18nProvider';
import { useT, type Translate } from '../i18n/useT';
import { refusalShownAs } from './providers';

/** What react-admin passes its translate(): polyglot's options (`_` the default text, `smart_count` the count). */
type TranslateOptions = { _?: unknown; smart_count?: unknown } & Record<string, unknown>;

/** react-admin's messages that are blank on purpose (a catalogue message never is): NullableBooleanInput's empty choice, an em space. */
const BLANK = new Map([['ra.boolean.null', '\u2003']]);

/**
 * A react-admin default text as polyglot says it (react-admin's own i18nProvider is polyglot): `a |||| b` picked by
 * `smart_count` (English's rule: one, else many) and trimmed, `%{name}` filled where the options have it, else left.
 */
export function polyglotPhrase(phrase: string, options: TranslateOptions): string {
  let text = phrase;
  if (typeof options.smart_count === 'number') {
    const forms = text.split('||||');
    text = (forms[options.smart_count === 1 ? 0 : 1] ?? forms[0]!).trim();
  }
  return text.replace(/%\{(.*?)\}/g, (whole, name: string) => (options[name] === undefined || options[name] === null ? whole : String(options[name])));
}

/** The options as an ICU message's values: text and numbers as they are, a missing argument as nothing (not an error). */
function valuesOf(options: TranslateOptions): Record<string, string | number | boolean | Date> {
  const values: Record<string, string | number | boolean | Date> = {};
  for (const [name, value] of Object.entries(options)) {
    if (name === '_' || value === undefined || value === null) continue;
    values[name] = typeof value === 'number' || typeof value === 'boolean' || value instanceof Date ? value : String(value);
  }
  // polyglot says a message without a count in its first form.
  values.smart_count ??= 1;
  return new Proxy(values, { has: () => true, get: (target, name) => (typeof name === 'string' ? (target[name] ?? '') : undefined) });
}

/**
 * react-admin's i18nProvider on the app's catalogues (issue 33), not on polyglot: a key react-admin asks for
 * (`ra.action.save`, `resources.users.fields.name`) is the message `admin.<key>` of the console's catalogue, an ICU
 * message formatted with react-admin's options (`smart_count` its plural's count). A key no catalogue has is the
 * default text react-admin gave (`_`), else the key itself (a label or a notification already in words), as
 * polyglot did; the server's refusal a notification shows is said in the chosen language by its code. The locales are
 * the app's ten languages, each by its own name; choosing one in the console chooses it for the whole app.
 */
export function consoleI18nProvider(t: Translate, language: LanguageCode, choose: (language: LanguageCode) => void): I18nProvider {
  const { messages, locale, formatters } = t.intl;
  const translate = (key: string, options: TranslateOptions = {}): string => {
    const message = messages[`admin.${key}`];
    if (message !== undefined) {
      const formatted = formatters.getMessageFormat(message, locale).format(valuesOf(options));
      return Array.isArray(formatted) ? formatted.join('') : String(formatted);
    }
    const blank = BLANK.get(key);
    if (blank !== undefined) return polyglotPhrase(blank, options);
    const refusal = language === 'en' ? undefined : refusalShownAs(key);
    if (refusal) return errorText(t, false, refusal, 'admin.ra.notification.http_error');
    return typeof options._ === 'string' ? polyglotPhrase(options._, options) : key;
  };
  return {
    translate,
    changeLocale: async (wanted: string) => {
      if (isLanguageCode(wanted) && wanted !== language) choose(wanted);
    },
    getLocale: () => language,
    getLocales: () => LANGUAGES.map((l) => ({ locale: l.code, name: l.nativeName })),
  };
}

const LOCALE = 'locale';

/**
 * react-admin's store without a locale of its own: the console's locale is the app's language. react-admin keeps the
 * chosen locale in its store and, when it differs from the i18nProvider's, re-mounts the whole console after
 * changeLocale (what was typed in a form lost); here reading it gives the i18nProvider's (the default every reader
 * passes), and setting it (the console's language menu) chooses that language for the app.
 */
export function storeFollowingLanguage(base: Store, choose: (language: LanguageCode) => void): Store {
  return {
    ...base,
    getItem: <T>(key: string, defaultValue?: T): T | undefined => (key === LOCALE ? defaultValue : base.getItem(key, defaultValue)),
    setItem: <T>(key: string, value: T) => {
      if (key !== LOCALE) base.setItem(key, value);
      else if (isLanguageCode(value)) choose(value);
    },
    subscribe: (key, callback) => (key === LOCALE ? () => {} : base.subscribe(key, callback)),
  };
}

// One store for the page's life, as react-admin's default (the lists' sort and filters kept while away from /admin).
const consoleStore = memoryStore();

/**
 * The console's i18nProvider and store, following the language chosen in the app (useLanguage): a new language
 * re-renders the console's words in it, without a reload or a re-mount.
 */
export function useConsoleLanguage(): { i18nProvider: I18nProvider; store: Store } {
  const t = useT();
  const { language, setLanguage } = useLanguage();
  const choose = useCallback(
    (picked: LanguageCode) => {
      setLanguage(picked);
      keepOnAccount(picked);
    },
    [setLanguage],
  );
  const [store] = useState(() => storeFollowingLanguage(consoleStore, choose));
  // t is new each render; its messages change only with its intl.
  const i18nProvider = useMemo(() => consoleI18nProvider(t, language, choose), [t.intl, language, choose]);
  return { i18nProvider, store };
}
