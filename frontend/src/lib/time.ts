/** Time phrases of the seeds, in the user's time zone and language. */

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Kolkata';

const dayKey = (date: Date, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

/** The words around a time, in one language (English's are the seeds' texts; `useFormat` gives the chosen one's). */
export interface TimeWords {
  /** The `Intl` locale dates and times are written in. */
  locale: string;
  todayAt(time: string): string;
  tomorrowAt(time: string): string;
  dayAt(day: string, time: string): string;
  upcomingTime: string;
  justNow: string;
  minutesAgo(minutes: number): string;
  hoursAgo(hours: number): string;
  daysAgo(days: number): string;
}

export const ENGLISH_TIME_WORDS: TimeWords = {
  locale: 'en-IN',
  todayAt: (time) => `Today at ${time}`,
  tomorrowAt: (time) => `Tomorrow at ${time}`,
  dayAt: (day, time) => `${day} at ${time}`,
  upcomingTime: 'upcoming time',
  justNow: 'Just now',
  minutesAgo: (minutes) => `${minutes}m ago`,
  hoursAgo: (hours) => `${hours}h ago`,
  daysAgo: (days) => `${days}d ago`,
};

/**
 * '5:00 pm' in English (the seeds' form); in India's other languages the part of the day in words, as their speakers
 * say a time ('शाम 5:00', 'மாலை 5:00'), not an English am/pm.
 */
export function timeOfDay(date: Date, zone = browserZone(), locale = ENGLISH_TIME_WORDS.locale): string {
  const dayPeriod = locale.startsWith('en') ? {} : { dayPeriod: 'short' as const };
  return new Intl.DateTimeFormat(locale, { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true, ...dayPeriod }).format(date);
}

/** 'Today at 5:00 pm', 'Tomorrow at 9:30 am', or 'Friday, 27 November at 9:30 am'; 'upcoming time' without data. */
export function whenPhrase(iso: string | null | undefined, now = new Date(), zone = browserZone(), words = ENGLISH_TIME_WORDS): string {
  if (!iso) return words.upcomingTime;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return words.upcomingTime;
  const day = dayKey(date, zone);
  const time = timeOfDay(date, zone, words.locale);
  if (day === dayKey(now, zone)) return words.todayAt(time);
  if (day === dayKey(new Date(now.getTime() + 86_400_000), zone)) return words.tomorrowAt(time);
  return words.dayAt(new Intl.DateTimeFormat(words.locale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' }).format(date), time);
}

/** A long date: 'Friday, 27 November 2026'. */
export function longDate(iso: string, zone = browserZone(), locale = ENGLISH_TIME_WORDS.locale): string {
  return new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
}

/** Pending-age labels: 'Just now', 'Xm ago', 'Xh ago', 'Xd ago', then a date. */
export function ageLabel(iso: string, now = new Date(), zone = browserZone(), words = ENGLISH_TIME_WORDS): string {
  const minutes = Math.floor((now.getTime() - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return words.justNow;
  if (minutes < 60) return words.minutesAgo(minutes);
  if (minutes < 24 * 60) return words.hoursAgo(Math.floor(minutes / 60));
  if (minutes < 7 * 24 * 60) return words.daysAgo(Math.floor(minutes / (24 * 60)));
  return new Intl.DateTimeFormat(words.locale, { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
}
