import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { SlotFacts } from '@telemed/contracts';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** The slot as the server has it: the doctor, when, how long and the fee. */
export function SlotFactsSummary({ facts }: { facts: SlotFacts }) {
  const t = useT();
  const f = useFormat();
  return (
    <Box data-testid="slot-facts">
      <Typography variant="h6" component="p" noWrap title={facts.doctor.name}>
        {facts.doctor.name}
      </Typography>
      <Typography color="text.secondary">
        {facts.doctor.specialty} · {facts.doctor.qualification}
      </Typography>
      <Typography>
        {t('patient.slotSummary', { when: f.whenPhrase(facts.start_at), fee: f.rupees(facts.doctor.consultation_fee) })}
      </Typography>
    </Box>
  );
}

/** Why the slot cannot be requested, with the way on: the patient's own request, or another time. */
export function SlotUnavailable({ facts, reason }: { facts: SlotFacts; reason: string }) {
  const t = useT();
  return (
    <Alert
      severity="warning"
      data-testid="slot-unavailable"
      // On a phone (or in a language of longer words) the way on goes under the reason rather than squeezing it.
      sx={{ flexWrap: 'wrap', '& .MuiAlert-message': { flex: '1 1 180px', minWidth: 0 }, '& .MuiAlert-action': { ml: 'auto' } }}
      action={
        facts.availability === 'requested_by_you' ? (
          <Button component={RouterLink} to="/my-appointments">
            {t('patient.myAppointments')}
          </Button>
        ) : (
          <Button component={RouterLink} to={`/home`} variant="outlined">
            {t('patient.pickAnotherTime')}
          </Button>
        )
      }
    >
      {reason}
    </Alert>
  );
}

/** What happens after sending: the doctor approves, then the video consultation. */
export function RequestSteps() {
  const t = useT();
  return (
    <>
      <Alert severity="info">{t('patient.awaitingDoctorApproval')}</Alert>
      <Box>
        <Typography variant="subtitle2" component="h2">
          {t('patient.howItWorks')}
        </Typography>
        <ol style={{ margin: 0, paddingLeft: '1.25rem' }}>
          <li>{t('patient.howStepSend')}</li>
          <li>{t('patient.howStepApprove')}</li>
          <li>{t('patient.howStepJoin')}</li>
        </ol>
      </Box>
    </>
  );
}

/** The request went through: the doctor reviews it and the patient is notified. */
export function RequestSentDialog({ open, doctorName, onDone }: { open: boolean; doctorName: string; onDone(): void }) {
  const t = useT();
  return (
    <Dialog open={open} aria-labelledby="sent-title">
      <DialogTitle id="sent-title">{t('patient.requestSent')}</DialogTitle>
      <DialogContent>{t('patient.requestSentText', { doctor: doctorName })}</DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          {t('patient.gotIt')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
