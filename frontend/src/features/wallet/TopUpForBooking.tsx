import { useState } from 'react';
import { useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';
import { OutcomeAlert } from './OutcomeAlert';
import { packCovering, useBuyPack, useCheckoutReturn, type CheckoutOutcome } from './wallet';

/**
 * A booking refused for credits (402): the pack that covers what is missing, bought without leaving the booking (or
 * coming back to it from the gateway's own page); `onLeave` keeps what the patient wrote before the page is left.
 */
export function TopUpForBooking({ shortfall, onLeave }: { shortfall: number | null; onLeave: () => void }) {
  const t = useT();
  const f = useFormat();
  const errorText = useErrorText();
  const location = useLocation();
  const [outcome, setOutcome] = useState<CheckoutOutcome | null>(null);
  const [returnError, setReturnError] = useState<unknown>(null);
  const buy = useBuyPack({ name: t('wallet.checkoutName'), onOutcome: setOutcome, returnTo: location.pathname + location.search });
  useCheckoutReturn(setOutcome, setReturnError);
  const pack = shortfall === null ? null : packCovering(shortfall);
  return (
    <>
      {outcome && <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />}
      {returnError !== null && <Alert severity="error" onClose={() => setReturnError(null)}>{errorText(returnError, 'wallet.confirmFailed')}</Alert>}
      {pack && outcome?.kind !== 'paid' && (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="top-up">
          <Button
            variant="contained"
            color="secondary"
            disabled={buy.isPending}
            onClick={() => {
              onLeave();
              buy.mutate(pack.credits);
            }}
          >
            {t('wallet.topUp', { credits: String(pack.credits), price: f.rupees(pack.price_rupees) })}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('wallet.topUpNote')}
          </Typography>
          {buy.isError && <Alert severity="error">{errorText(buy.error, 'wallet.orderFailed')}</Alert>}
        </Stack>
      )}
    </>
  );
}
