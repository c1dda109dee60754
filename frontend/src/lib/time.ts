/** Time phrases of the seeds, in the user's time zone. */

export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Kolkata';

const dayKey = (date: Date, zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

export function timeOfDay(date: Date, zone = browserZone()): string {
  return new Intl.DateTimeFormat('en-IN', { timeZone: zone, hour: 'numeric', minute: '2-digit', hour12: true }).format(date);
}

/** 'Today at 5:00 pm', 'Tomorrow at 9:30 am', or 'Friday, 27 November at 9:30 am'; 'upcoming time' without data. */
export function whenPhrase(iso: string | null | undefined, now = new Date(), zone = browserZone()): string {
  if (!iso) return 'upcoming time';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'upcoming time';
  const day = dayKey(date, zone);
  if (day === dayKey(now, zone)) return `Today at ${timeOfDay(date, zone)}`;
  if (day === dayKey(new Date(now.getTime() + 86_400_000), zone)) return `Tomorrow at ${timeOfDay(date, zone)}`;
  const weekday = new Intl.DateTimeFormat('en-IN', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' }).format(date);
  return `${weekday} at ${timeOfDay(date, zone)}`;
}

/** A long date: 'Friday, 27 November 2026'. */
export function longDate(iso: string, zone = browserZone()): string {
  return new Intl.DateTimeFormat('en-IN', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
}

/** Pending-age labels: 'Just now', 'Xm ago', 'Xh ago', 'Xd ago', then a date. */
export function ageLabel(iso: string, now = new Date(), zone = browserZone()): string {
  const minutes = Math.floor((now.getTime() - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h ago`;
  if (minutes < 7 * 24 * 60) return `${Math.floor(minutes / (24 * 60))}d ago`;
  return new Intl.DateTimeFormat('en-IN', { timeZone: zone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
}
