import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { ApiError, api } from '../../lib/api';
import { whenPhrase } from '../../lib/time';

/** The seeds' checks of the slot id before anything is sent. */
export function slotIdProblem(raw: string | null): string | null {
  if (!raw) return 'Error: No slot ID provided';
  if (!/^\d+$/.test(raw.trim())) return 'Error: Invalid slot ID';
  return null;
}

export function ConfirmAppointment() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [notes, setNotes] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const doctorName = params.get('doctorName') ?? 'your doctor';
  const startTime = params.get('startTime');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = slotIdProblem(params.get('slot_id'));
    if (problem) return setError(problem);
    setSending(true);
    setError(null);
    try {
      await api('/appointments', { method: 'POST', body: { slot_id: Number.parseInt(params.get('slot_id')!, 10), notes } });
      setSent(true);
    } catch (e) {
      setError(`Error: ${e instanceof ApiError && e.detail ? e.detail : 'Failed to submit appointment request'}`);
    } finally {
      setSending(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Card>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={submit}>
            <Typography variant="h5" component="h1">
              Request Appointment
            </Typography>
            <Typography>
              <strong>{doctorName}</strong> · {whenPhrase(startTime)}
            </Typography>
            <Alert severity="info">Awaiting doctor approval: the doctor confirms your request before the consultation.</Alert>
            <Box>
              <Typography variant="subtitle2">How it works</Typography>
              <ol style={{ margin: 0, paddingLeft: '1.25rem' }}>
                <li>Send your request with the reason for your visit.</li>
                <li>The doctor approves it; you are notified at once.</li>
                <li>Join the video consultation from My Appointments.</li>
              </ol>
            </Box>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField label="Reason for Visit" required multiline minRows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={() => navigate('/home')}>Cancel</Button>
              <Button type="submit" variant="contained" disabled={sending}>
                {sending ? 'Sending...' : 'Send Request'}
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <Dialog open={sent}>
        <DialogTitle>Request Sent!</DialogTitle>
        <DialogContent>{doctorName} will review your request. You will be notified when it is approved.</DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => navigate('/home')}>
            Got it!
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
