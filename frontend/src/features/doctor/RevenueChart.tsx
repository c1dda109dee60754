import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { REVENUE_CHART_HEIGHT, type RevenuePoint } from './revenue';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

/** The Monthly Revenue line chart (loaded on its own, so the patient screens never download recharts). */
export default function RevenueChart({ points }: { points: RevenuePoint[] }) {
  const t = useT();
  const f = useFormat();
  return (
    <ResponsiveContainer width="100%" height={REVENUE_CHART_HEIGHT}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="label" />
        <YAxis tickFormatter={(v: number) => f.rupees(v)} width={64} />
        <Tooltip formatter={(value) => [f.rupees(Number(value)), t('doctor.revenue')]} />
        <Line type="monotone" dataKey="revenue" stroke="#0b6bcb" strokeWidth={2} dot />
      </LineChart>
    </ResponsiveContainer>
  );
}
