import { useMemo } from 'react';
import { formatCount, formatRupees } from '../lib/money';
import { ageLabel, browserZone, longDate, timeOfDay, whenPhrase, type TimeWords } from '../lib/time';
import { useT, type Translate } from './useT';

/** The time words of the chosen language (its catalogue's `format.*`). */
export function timeWordsOf(t: Translate): TimeWords {
  return {
    locale: t.intl.locale,
    todayAt: (time) => t('format.todayAt', { time }),
    tomorrowAt: (time) => t('format.tomorrowAt', { time }),
    dayAt: (day, time) => t('format.dayAt', { day, time }),
    upcomingTime: t('format.upcomingTime'),
    justNow: t('format.justNow'),
    minutesAgo: (minutes) => t('format.minutesAgo', { minutes }),
    hoursAgo: (hours) => t('format.hoursAgo', { hours }),
    daysAgo: (days) => t('format.daysAgo', { days }),
  };
}

export interface Format {
  /** The `Intl` locale of the chosen language (Western digits). */
  locale: string;
  /** '5:00 pm' */
  timeOfDay(date: Date, zone?: string): string;
  /** 'Today at 5:00 pm', 'Tomorrow at 9:30 am', 'Friday, 27 November at 9:30 am'. */
  whenPhrase(iso: string | null | undefined, now?: Date, zone?: string): string;
  /** 'Friday, 27 November 2026' */
  longDate(iso: string, zone?: string): string;
  /** 'Just now', '45m ago', '5h ago', '3d ago', then a date. */
  ageLabel(iso: string, now?: Date, zone?: string): string;
  /** Any date or instant with `Intl` options, in the chosen language; a calendar date ('2026-12-06') as that day. */
  date(value: string | Date, options: Intl.DateTimeFormatOptions): string;
  /** ₹1,23,456 */
  rupees(amount: number): string;
  /** 12,34,567 */
  count(count: number): string;
  /** Languages by their codes, named and listed as the chosen language says them: 'English, Hindi and Tamil'. */
  languageNames(codes: readonly string[]): string;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Dates, times, money and counts as the screens show them, in the chosen language (issue 33): month and day names in
 * the language, digits Western, rupees in India's grouping, times in the viewer's time zone unless one is given.
 */
export function useFormat(): Format {
  const t = useT();
  const { intl } = t;
  return useMemo(() => {
    const words = timeWordsOf(t);
    return {
      locale: words.locale,
      timeOfDay: (date, zone = browserZone()) => timeOfDay(date, zone, words.locale),
      whenPhrase: (iso, now = new Date(), zone = browserZone()) => whenPhrase(iso, now, zone, words),
      longDate: (iso, zone = browserZone()) => longDate(iso, zone, words.locale),
      ageLabel: (iso, now = new Date(), zone = browserZone()) => ageLabel(iso, now, zone, words),
      date: (value, options) =>
        typeof value === 'string' && CALENDAR_DATE.test(value)
          ? new Intl.DateTimeFormat(words.locale, { ...options, timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`))
          : new Intl.DateTimeFormat(words.locale, options).format(typeof value === 'string' ? new Date(value) : value),
      rupees: formatRupees,
      count: formatCount,
      languageNames: (codes) => {
        const names = new Intl.DisplayNames([words.locale], { type: 'language' });
        return new Intl.ListFormat(words.locale, { style: 'long', type: 'conjunction' }).format(codes.map((code) => names.of(code) ?? code));
      },
    };
    // t is new each render; the messages it reads change only with intl.
  }, [intl]);
}
