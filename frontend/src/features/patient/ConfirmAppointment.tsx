import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import type { SlotFacts } from '@telemed/contracts';
import { MAX_NOTES_LENGTH } from '@telemed/contracts/constants';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { ConsentNoticePanel } from './ConsentNoticePanel';
import { RequestSentDialog, RequestSteps, SlotFactsSummary, SlotUnavailable } from './ConfirmAppointmentSections';
import { useAppointmentRequest } from './useAppointmentRequest';

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
  const rawSlotId = params.get('slot_id');
  const idProblem = slotIdProblem(rawSlotId);
  const slot = useSlotFacts(rawSlotId);
  const facts = slot.data;
  const gone = facts ? unavailableReason(facts.availability) : null;
  const notFound = slot.error instanceof ApiError && (slot.error.status === 404 || slot.error.status === 422);
  const request = useAppointmentRequest({ rawSlotId, idProblem, onFailed: () => void slot.refetch() });
  const { consent, sending } = request;

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Card>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={request.submit} aria-labelledby="request-title">
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
            {facts && <SlotFactsSummary facts={facts} />}
            {facts && gone && <SlotUnavailable facts={facts} reason={gone} />}
            {facts && !gone && (
              <>
                <RequestSteps />
                {request.error && <Alert severity="error">{request.error}</Alert>}
                <TextField
                  label="Reason for Visit"
                  required
                  multiline
                  minRows={3}
                  value={request.notes}
                  onChange={(e) => request.setNotes(e.target.value)}
                  slotProps={{ htmlInput: { maxLength: MAX_NOTES_LENGTH } }}
                />
                {consent.needed && <ConsentNoticePanel {...consent.panel} />}
              </>
            )}
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={() => navigate('/home')}>Cancel</Button>
              {facts && !gone && (
                <Button type="submit" variant="contained" disabled={sending || consent.loading || (consent.needed && !consent.notice)}>
                  {sending ? 'Sending...' : 'Send Request'}
                </Button>
              )}
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <RequestSentDialog open={request.sent} doctorName={facts?.doctor.name ?? 'your doctor'} onDone={() => navigate('/home')} />
    </Box>
  );
}
