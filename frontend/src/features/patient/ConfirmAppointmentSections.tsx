import { Link as RouterLink } from 'react-router';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { SlotFacts } from '@telemed/contracts';
import { formatRupees } from '../../lib/money';
import { whenPhrase } from '../../lib/time';

/** The slot as the server has it: the doctor, when, how long and the fee. */
export function SlotFactsSummary({ facts }: { facts: SlotFacts }) {
  return (
    <Box data-testid="slot-facts">
      <Typography variant="h6" component="p" noWrap title={facts.doctor.name}>
        {facts.doctor.name}
      </Typography>
      <Typography color="text.secondary">
        {facts.doctor.specialty} · {facts.doctor.qualification}
      </Typography>
      <Typography>
        {whenPhrase(facts.start_at)} · 30 minutes · Consultation fee {formatRupees(facts.doctor.consultation_fee)}
      </Typography>
    </Box>
  );
}

/** Why the slot cannot be requested, with the way on: the patient's own request, or another time. */
export function SlotUnavailable({ facts, reason }: { facts: SlotFacts; reason: string }) {
  return (
    <Alert
      severity="warning"
      data-testid="slot-unavailable"
      action={
        facts.availability === 'requested_by_you' ? (
          <Button component={RouterLink} to="/my-appointments">
            My Appointments
          </Button>
        ) : (
          <Button component={RouterLink} to={`/home`} variant="outlined">
            Pick another time
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
  return (
    <>
      <Alert severity="info">Awaiting doctor approval: the doctor confirms your request before the consultation.</Alert>
      <Box>
        <Typography variant="subtitle2" component="h2">
          How it works
        </Typography>
        <ol style={{ margin: 0, paddingLeft: '1.25rem' }}>
          <li>Send your request with the reason for your visit.</li>
          <li>The doctor approves it; you are notified at once.</li>
          <li>Join the video consultation from My Appointments.</li>
        </ol>
      </Box>
    </>
  );
}

/** The request went through: the doctor reviews it and the patient is notified. */
export function RequestSentDialog({ open, doctorName, onDone }: { open: boolean; doctorName: string; onDone(): void }) {
  return (
    <Dialog open={open} aria-labelledby="sent-title">
      <DialogTitle id="sent-title">Request Sent!</DialogTitle>
      <DialogContent>{doctorName} will review your request. You will be notified when it is approved.</DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          Got it!
        </Button>
      </DialogActions>
    </Dialog>
  );
}
