/**
 * The languages the product speaks (issue 33): the seeds' ten. Zod-free: the frontend imports it
 * (`@telemed/contracts/languages`). `locale` is what `Intl` formats dates, numbers and money in (India's digit grouping);
 * `script` is the ISO 15924 script its text is written in, which names the font it needs.
 */

/** The languages' codes (ISO 639-1), in the order the picker offers them. */
export const LANGUAGE_CODES = ['en', 'hi', 'mr', 'gu', 'bn', 'ta', 'te', 'kn', 'ml', 'pa'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export interface Language {
  code: LanguageCode;
  /** In English. */
  name: string;
  /** In itself: how a reader of the language finds it in a list. */
  nativeName: string;
  locale: string;
  script: 'Latn' | 'Deva' | 'Gujr' | 'Beng' | 'Taml' | 'Telu' | 'Knda' | 'Mlym' | 'Guru';
}

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', nativeName: 'English', locale: 'en-IN', script: 'Latn' },
  { code: 'hi', name: 'Hindi', nativeName: 'हिन्दी', locale: 'hi-IN', script: 'Deva' },
  { code: 'mr', name: 'Marathi', nativeName: 'मराठी', locale: 'mr-IN', script: 'Deva' },
  { code: 'gu', name: 'Gujarati', nativeName: 'ગુજરાતી', locale: 'gu-IN', script: 'Gujr' },
  { code: 'bn', name: 'Bengali', nativeName: 'বাংলা', locale: 'bn-IN', script: 'Beng' },
  { code: 'ta', name: 'Tamil', nativeName: 'தமிழ்', locale: 'ta-IN', script: 'Taml' },
  { code: 'te', name: 'Telugu', nativeName: 'తెలుగు', locale: 'te-IN', script: 'Telu' },
  { code: 'kn', name: 'Kannada', nativeName: 'ಕನ್ನಡ', locale: 'kn-IN', script: 'Knda' },
  { code: 'ml', name: 'Malayalam', nativeName: 'മലയാളം', locale: 'ml-IN', script: 'Mlym' },
  { code: 'pa', name: 'Punjabi', nativeName: 'ਪੰਜਾਬੀ', locale: 'pa-IN', script: 'Guru' },
];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}

export function languageOf(code: LanguageCode): Language {
  return LANGUAGES.find((l) => l.code === code)!;
}

/**
 * The first of the languages a person's browser (or an Accept-Language header) asks for that the product speaks:
 * `hi-IN` and `hi` both mean Hindi; none of them, English.
 */
export function preferredLanguage(asked: readonly string[]): LanguageCode {
  for (const tag of asked) {
    const primary = tag.trim().split(/[-_;]/)[0]!.toLowerCase();
    if (isLanguageCode(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The `Intl` locale a language's dates and times are written in: its own month and day names, in Western digits, as
 * the glossaries' style notes ask (Bengali and Marathi would otherwise write their own digits).
 */
export function intlLocale(code: LanguageCode): string {
  return `${languageOf(code).locale}-u-nu-latn`;
}
