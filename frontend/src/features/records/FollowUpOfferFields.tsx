import { InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { FOLLOW_UP_LIMITS } from '@telemed/contracts/follow-ups';
import { useT } from '../../i18n/useT';
import { followUpOfferProblems, type FollowUpOfferInput } from './followUpOffer';

/**
 * With a follow-up required (issue 35): within how many days of this consultation the patient may book it, and at what
 * fee (0: free; at most the doctor's own fee, which the server checks). Each field says what is wrong as it is typed.
 */
export function FollowUpOfferFields({ offer, onChange, disabled }: { offer: FollowUpOfferInput; onChange: (offer: FollowUpOfferInput) => void; disabled: boolean }) {
  const t = useT();
  const problems = followUpOfferProblems(offer);
  return (
    <Stack spacing={1} data-testid="follow-up-offer">
      <Typography variant="body2" color="text.secondary">
        {t('records.followUpOfferHelp')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          fullWidth
          label={t('records.followUpWithinDays')}
          value={offer.days}
          onChange={(e) => onChange({ ...offer, days: e.target.value })}
          disabled={disabled}
          error={problems.days !== null}
          helperText={t(problems.days ?? 'records.followUpDaysHelp', { min: FOLLOW_UP_LIMITS.minDays, max: FOLLOW_UP_LIMITS.maxDays })}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 2 }, input: { endAdornment: <InputAdornment position="end">{t('records.followUpDaysUnit')}</InputAdornment> } }}
        />
        <TextField
          fullWidth
          label={t('records.followUpFee')}
          value={offer.fee}
          onChange={(e) => onChange({ ...offer, fee: e.target.value })}
          disabled={disabled}
          error={problems.fee !== null}
          helperText={t(problems.fee ?? 'records.followUpFeeHelp')}
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 }, input: { startAdornment: <InputAdornment position="start">₹</InputAdornment> } }}
        />
      </Stack>
    </Stack>
  );
}
