import Alert from '@mui/material/Alert';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import type { CheckoutOutcome } from './wallet';

/** How a checkout ended, said where the patient is. */
export function OutcomeAlert({ outcome, onClose }: { outcome: CheckoutOutcome; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  if (outcome.kind === 'paid') return <Alert severity="success" onClose={onClose}>{t('wallet.paid', { credits: f.count(outcome.credits) })}</Alert>;
  if (outcome.kind === 'pending') return <Alert severity="info" onClose={onClose}>{t('wallet.pending')}</Alert>;
  if (outcome.kind === 'failed') return <Alert severity="error" onClose={onClose}>{t('wallet.failed')}</Alert>;
  return <Alert severity="info" onClose={onClose}>{t('wallet.cancelled')}</Alert>;
}
