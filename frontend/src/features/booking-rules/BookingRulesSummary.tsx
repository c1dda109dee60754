import { Alert, AlertTitle, CircularProgress } from '@mui/material';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import type { BookingRules } from '@telemed/contracts/booking-rules';
import { useT } from '../../i18n/useT';
import { insideNoticeSentence, ruleSentences } from './text';

/**
 * A doctor's booking rules as a patient reads them (issue 35), before booking: how long before the start an appointment
 * can be moved and how often, what a late cancellation counts as, and whether a move needs the doctor again.
 */
export function BookingRulesSummary({
  rules,
  loading = false,
  title = true,
  startsAt,
  now = Date.now(),
}: {
  rules: BookingRules | null;
  loading?: boolean;
  title?: boolean;
  /** The time being booked: when it already starts inside the notice, the patient is told what that means. */
  startsAt?: string;
  now?: number;
}) {
  const t = useT();
  if (loading) return <CircularProgress size={20} aria-label={t('bookingRules.loading')} />;
  if (!rules) return null;
  const inside = startsAt ? insideNoticeSentence(t, rules, startsAt, now) : null;
  return (
    <Alert severity="info" icon={<EventRepeatOutlined />} data-testid="booking-rules" sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
      {title && <AlertTitle>{t('bookingRules.title')}</AlertTitle>}
      {ruleSentences(t, rules).map((line) => (
        <div key={line}>{line}</div>
      ))}
      {inside && (
        <strong style={{ display: 'block', marginTop: 4 }} data-testid="inside-notice">
          {inside}
        </strong>
      )}
    </Alert>
  );
}
