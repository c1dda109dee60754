import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';
import { ClosableTitle } from '../../components/ClosableTitle';
import { StatIcon } from '../../components/StatIcon';
import { useBuyPack, useCheckoutReturn, useWallet, type CheckoutOutcome } from './wallet';
import { OutcomeAlert } from './OutcomeAlert';
import { StatementDialog } from './StatementDialog';

/** The patient's credits on the server, and buying a pack through the payment gateway (issue 36). */
export function CreditsCard() {
  const t = useT();
  const f = useFormat();
  const errorText = useErrorText();
  const wallet = useWallet();
  const [open, setOpen] = useState(false);
  const [statement, setStatement] = useState(false);
  const [outcome, setOutcome] = useState<CheckoutOutcome | null>(null);
  const [returnError, setReturnError] = useState<unknown>(null);
  const showOutcome = (next: CheckoutOutcome) => {
    setOutcome(next);
    setOpen(false);
  };
  const buy = useBuyPack({ name: t('wallet.checkoutName'), onOutcome: showOutcome });
  useCheckoutReturn(setOutcome, setReturnError);
  const held = wallet.data?.held ?? 0;
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <StatIcon>
            <AccountBalanceWalletOutlined />
          </StatIcon>
          <Box>
            <Typography variant="overline" component="p" color="text.secondary">
              {t('patient.credits')}
            </Typography>
            <Typography variant="h4" component="p" data-testid="credits">
              {wallet.data ? wallet.data.balance : <Skeleton width={60} aria-label={t('wallet.loading')} />}
            </Typography>
          </Box>
        </Stack>
        {held > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="credits-held">
            {t('wallet.held', { credits: f.count(held) })}
          </Typography>
        )}
        {wallet.isError && <Alert severity="error" sx={{ mt: 1 }}>{errorText(wallet.error, 'wallet.loadFailed')}</Alert>}
        {outcome && <Box sx={{ mt: 1 }}><OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /></Box>}
        {returnError !== null && <Alert severity="error" sx={{ mt: 1 }} onClose={() => setReturnError(null)}>{errorText(returnError, 'wallet.confirmFailed')}</Alert>}
        <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
          <Button variant="outlined" startIcon={<AddCircleOutline />} onClick={() => setOpen(true)}>
            {t('patient.addCredits')}
          </Button>
          <Button onClick={() => setStatement(true)}>{t('wallet.viewStatement')}</Button>
        </Stack>
      </CardContent>
      <StatementDialog open={statement} onClose={() => setStatement(false)} />
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="purchase-credits-title" fullWidth maxWidth="xs">
        <ClosableTitle id="purchase-credits-title" onClose={() => setOpen(false)}>
          {t('patient.purchaseCredits')}
        </ClosableTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('wallet.payNote')}
          </Typography>
          {buy.isError && <Alert severity="error" sx={{ mb: 2 }}>{errorText(buy.error, 'wallet.orderFailed')}</Alert>}
          <Stack spacing={1}>
            {(wallet.data?.packs ?? []).map((pack) => (
              <Button key={pack.credits} variant="outlined" sx={{ justifyContent: 'space-between' }} disabled={buy.isPending} onClick={() => buy.mutate(pack.credits)}>
                {/* The pack's size as written in its constant (1000, not 1,000). */}
                <span>{t('patient.packCredits', { credits: String(pack.credits) })}</span>
                <span>{f.rupees(pack.price_rupees)}</span>
              </Button>
            ))}
          </Stack>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
