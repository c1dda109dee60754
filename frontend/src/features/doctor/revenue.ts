/** Monthly revenue from real appointments: confirmed or completed consultations × the fee at booking. */
export interface RevenuePoint {
  month: string; // YYYY-MM
  label: string; // 'Nov 2026', in the locale given
  revenue: number;
  consultations: number;
}

export function monthlyRevenue(
  appointments: Array<{ status: string; consultation_fee: number; slot: { start_at: string } }>,
  zone: string,
  locale: string,
  now = new Date(),
  months = 6,
): RevenuePoint[] {
  const monthOf = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' }).format(date).slice(0, 7);
  const points: RevenuePoint[] = [];
  const [year, month] = monthOf(now).split('-').map(Number) as [number, number];
  for (let i = months - 1; i >= 0; i -= 1) {
    const d = new Date(Date.UTC(year, month - 1 - i, 15));
    points.push({ month: d.toISOString().slice(0, 7), label: new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(d), revenue: 0, consultations: 0 });
  }
  const byMonth = new Map(points.map((p) => [p.month, p]));
  for (const a of appointments) {
    if (a.status !== 'confirmed' && a.status !== 'completed') continue;
    const point = byMonth.get(monthOf(new Date(a.slot.start_at)));
    if (!point) continue;
    point.revenue += a.consultation_fee;
    point.consultations += 1;
  }
  return points;
}

/** The chart's height in pixels; its place is kept at this height while recharts loads, so the dashboard below it stays put. */
export const REVENUE_CHART_HEIGHT = 240;
