/** A month of the doctor's earnings (issue 36): the fees actually kept, as GET /doctors/me/earnings answers them. */
export interface RevenuePoint {
  month: string; // YYYY-MM
  label: string; // 'Nov 2026', in the locale given
  revenue: number;
  consultations: number;
}

/** The server's months of earnings as the chart's points, each month named in the language asked for. */
export function earningPoints(months: ReadonlyArray<{ month: string; rupees: number; consultations: number }>, locale: string): RevenuePoint[] {
  return months.map(({ month, rupees, consultations }) => {
    const [year, number] = month.split('-').map(Number) as [number, number];
    const label = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, number - 1, 15)));
    return { month, label, revenue: rupees, consultations };
  });
}

/** The chart's height in pixels; its place is kept at this height while recharts loads, so the dashboard below it stays put. */
export const REVENUE_CHART_HEIGHT = 240;
