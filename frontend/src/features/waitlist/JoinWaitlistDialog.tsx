import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { WAITLIST_HOLD_MINUTES, WAITLIST_MAX_DAYS } from '@telemed/contracts/constants';
import { addDays } from '../../components/slotDays';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { ConsentNoticePanel } from '../patient/ConsentNoticePanel';
import { useConsentAgreement } from '../patient/useConsentAgreement';
import { SUGGESTED_DAYS, rangeProblem, todayHere, useWaitlistActions } from './waitlist';

/**
 * Joining a doctor's waitlist for a stretch of the patient's own days (issue 35): what happens is said before they
 * join (a freed time held for them for a few minutes, nobody else's place shown), and the days are checked as the
 * server checks them.
 */
export function JoinWaitlistDialog({ open, doctor, onClose }: { open: boolean; doctor: { doctor_id: string; name: string } | null; onClose(): void }) {
  const t = useT();
  const explain = useErrorText();
  const { join } = useWaitlistActions();
  const today = todayHere();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(addDays(today, SUGGESTED_DAYS - 1));
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!open) return;
    setFrom(today);
    setTo(addDays(today, SUGGESTED_DAYS - 1));
    setTried(false);
    join.reset();
    // Only on opening: the days and the last answer are those of that moment.
  }, [open]);
  const problem = rangeProblem(from, to, today);
  // Waiting for a doctor shares the patient's wish with them, as a booking does: the privacy notice first, if not yet agreed.
  const consent = useConsentAgreement(open);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || !doctor || !consent.ensureAgreed()) return;
    join.mutate({ doctorId: doctor.doctor_id, doctorName: doctor.name, from, to, agree: consent.needed ? consent.notice : undefined }, { onSuccess: onClose });
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="join-waitlist-title">
      <Stack component="form" onSubmit={submit} noValidate>
        <DialogTitle id="join-waitlist-title">{t('waitlist.joinTitle', { doctor: doctor?.name ?? '' })}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('waitlist.howItWorks', { minutes: WAITLIST_HOLD_MINUTES })}</DialogContentText>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2 }}>
            <TextField
              type="date"
              label={t('waitlist.fromDay')}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              fullWidth
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
            />
            <TextField
              type="date"
              label={t('waitlist.toDay')}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              fullWidth
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: from || today, max: addDays(from || today, WAITLIST_MAX_DAYS - 1) } }}
            />
          </Stack>
          {tried && problem && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {t(problem, { days: WAITLIST_MAX_DAYS })}
            </Alert>
          )}
          {consent.needed && (
            <Stack sx={{ mt: 2 }}>
              <ConsentNoticePanel {...consent.panel} />
            </Stack>
          )}
          {join.error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {explain(join.error, 'waitlist.joinFailed')}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('waitlist.notNow')}</Button>
          <Button type="submit" variant="contained" disabled={join.isPending || consent.loading || (consent.needed && !consent.notice)}>
            {t('waitlist.join')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
}
