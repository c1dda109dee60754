import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { REVENUE_CHART_HEIGHT, type RevenuePoint } from './revenue';
import { formatRupees } from '../../lib/money';

/** The Monthly Revenue line chart (loaded on its own, so the patient screens never download recharts). */
export default function RevenueChart({ points }: { points: RevenuePoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={REVENUE_CHART_HEIGHT}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="label" />
        <YAxis tickFormatter={(v: number) => formatRupees(v)} width={64} />
        <Tooltip formatter={(value) => [formatRupees(Number(value)), 'Revenue']} />
        <Line type="monotone" dataKey="revenue" stroke="#0b6bcb" strokeWidth={2} dot />
      </LineChart>
    </ResponsiveContainer>
  );
}
