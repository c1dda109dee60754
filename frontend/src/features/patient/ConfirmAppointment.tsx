import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { SlotFacts } from '@telemed/contracts';
import type { ConsentLanguage } from '@telemed/contracts/consent-notice';
import { MAX_NOTES_LENGTH } from '@telemed/contracts/constants';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone, whenPhrase } from '../../lib/time';
import { ConsentNoticePanel } from './ConsentNoticePanel';
import { agreeToNotice, consentsKey, useConsentNotice, useConsents } from './consent';
import { formatRupees } from '../../lib/money';
import { useUnsavedChanges } from '../../lib/unsavedChanges';

/** The seeds' checks of the slot id before anything is sent. */
export function slotIdProblem(raw: string | null): string | null {
  if (!raw) return 'Error: No slot ID provided';
  if (!/^\d+$/.test(raw.trim())) return 'Error: Invalid slot ID';
  return null;
}

/** Why a slot cannot be requested any more, in words, or null when it can. */
export function unavailableReason(availability: SlotFacts['availability']): string | null {
  switch (availability) {
    case 'open':
      return null;
    case 'requested_by_you':
      return 'You have already requested this slot. You can follow it in My Appointments.';
    case 'taken':
      return 'This slot has just been booked by someone else.';
    case 'past':
      return 'This slot has already started.';
    case 'withdrawn':
      return 'The doctor is no longer available at this time.';
    case 'not_accepting':
      return 'This doctor is not accepting bookings at the moment.';
  }
}

function useSlotFacts(rawSlotId: string | null) {
  const valid = slotIdProblem(rawSlotId) === null;
  return useQuery({
    queryKey: ['slot', rawSlotId],
    enabled: valid,
    queryFn: () => call('getSlot', { params: { slot_id: rawSlotId!.trim() }, query: { timezone_str: browserZone() } }),
  });
}

/** Request Appointment: the doctor, time and fee come from the server for the slot id, never from the URL. */
export function ConfirmAppointment() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [notes, setNotes] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A reason written and not sent: Cancel (a move to /home), another page or a closed tab asks first.
  useUnsavedChanges(notes.trim() !== '' && !sent);
  const rawSlotId = params.get('slot_id');
  const idProblem = slotIdProblem(rawSlotId);
  const slot = useSlotFacts(rawSlotId);
  const facts = slot.data;
  const gone = facts ? unavailableReason(facts.availability) : null;
  const notFound = slot.error instanceof ApiError && (slot.error.status === 404 || slot.error.status === 422);
  // Before the first booking (or after a withdrawal) the patient reads the privacy notice; sending agrees to it.
  const queryClient = useQueryClient();
  const consents = useConsents();
  const [language, setLanguage] = useState<ConsentLanguage>('en');
  const notice = useConsentNotice(language, consents.needed);
  const needsConsent = consents.needed;
  const [agreed, setAgreed] = useState(false);
  const [agreementMissing, setAgreementMissing] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (idProblem) return setError(idProblem);
    if (needsConsent && !agreed) return setAgreementMissing(true);
    setSending(true);
    setError(null);
    try {
      // The box is ticked under the notice shown, so what is agreed to is what was read.
      if (needsConsent && notice.data) await agreeToNotice(notice.data);
      await call('requestAppointment', { body: { slot_id: Number.parseInt(rawSlotId!, 10), notes } });
      setSent(true);
    } catch (e) {
      setError(`Error: ${e instanceof ApiError && e.detail ? e.detail : 'Failed to submit appointment request'}`);
      void slot.refetch();
      // A consent withdrawn elsewhere: show the notice again.
      if (e instanceof ApiError && e.status === 403) void queryClient.invalidateQueries({ queryKey: consentsKey });
    } finally {
      setSending(false);
    }
  }

  const doctorName = facts?.doctor.name ?? 'your doctor';
  const pickAnother = facts ? (
    <Button component={RouterLink} to={`/home`} variant="outlined">
      Pick another time
    </Button>
  ) : null;

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Card>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={submit} aria-labelledby="request-title">
            <Typography id="request-title" variant="h5" component="h1">
              Request Appointment
            </Typography>
            {idProblem && <Alert severity="error">{idProblem}</Alert>}
            {slot.isLoading && (
              <Box>
                <CircularProgress size={20} /> Loading the slot...
              </Box>
            )}
            {notFound && (
              <Alert severity="error" action={<Button component={RouterLink} to="/home">Find a slot</Button>}>
                This slot does not exist. Please pick a time from your doctors&apos; available slots.
              </Alert>
            )}
            {facts && (
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
            )}
            {gone && (
              <Alert
                severity="warning"
                data-testid="slot-unavailable"
                action={
                  facts?.availability === 'requested_by_you' ? (
                    <Button component={RouterLink} to="/my-appointments">
                      My Appointments
                    </Button>
                  ) : (
                    pickAnother
                  )
                }
              >
                {gone}
              </Alert>
            )}
            {facts && !gone && (
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
                {error && <Alert severity="error">{error}</Alert>}
                <TextField
                  label="Reason for Visit"
                  required
                  multiline
                  minRows={3}
                  value={notes}
                  onChange={(e) => setNotes(e.target.value)}
                  slotProps={{ htmlInput: { maxLength: MAX_NOTES_LENGTH } }}
                />
                {needsConsent && (
                  <ConsentNoticePanel notice={notice.data} loading={notice.isLoading} language={language} onLanguage={setLanguage} agreed={agreed} onAgreed={setAgreed} missing={agreementMissing} />
                )}
              </>
            )}
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={() => navigate('/home')}>Cancel</Button>
              {facts && !gone && (
                <Button type="submit" variant="contained" disabled={sending || consents.isLoading || (needsConsent && !notice.data)}>
                  {sending ? 'Sending...' : 'Send Request'}
                </Button>
              )}
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <Dialog open={sent} aria-labelledby="sent-title">
        <DialogTitle id="sent-title">Request Sent!</DialogTitle>
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
