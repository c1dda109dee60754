import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import type { SlotFacts } from '@telemed/contracts';
import { MAX_NOTES_LENGTH } from '@telemed/contracts/constants';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { useT } from '../../i18n/useT';
import type { PatientMessage } from './messages';
import { ConsentNoticePanel } from './ConsentNoticePanel';
import { RequestSentDialog, RequestSteps, SlotFactsSummary, SlotUnavailable } from './ConfirmAppointmentSections';
import { useAppointmentRequest } from './useAppointmentRequest';
import { useBookingRules } from './useBookingRules';
import { BookingRulesSummary } from '../booking-rules/BookingRulesSummary';
import { TopUpForBooking } from '../wallet/TopUpForBooking';

/** The seeds' checks of the slot id before anything is sent: what is wrong (its message id), or null. */
export function slotIdProblem(raw: string | null): PatientMessage | null {
  if (!raw) return 'patient.noSlotId';
  if (!/^\d+$/.test(raw.trim())) return 'patient.invalidSlotId';
  return null;
}

/** Why a slot cannot be requested any more (its message id), or null when it can. */
export function unavailableReason(availability: SlotFacts['availability']): PatientMessage | null {
  switch (availability) {
    case 'open':
      return null;
    case 'requested_by_you':
      return 'patient.slotRequestedByYou';
    case 'taken':
      return 'patient.slotTaken';
    case 'past':
      return 'patient.slotStarted';
    case 'withdrawn':
      return 'patient.slotWithdrawn';
    case 'not_accepting':
      return 'patient.doctorNotAccepting';
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
  const t = useT();
  const rawSlotId = params.get('slot_id');
  const idProblem = slotIdProblem(rawSlotId);
  const slot = useSlotFacts(rawSlotId);
  const facts = slot.data;
  const gone = facts ? unavailableReason(facts.availability) : null;
  const notFound = slot.error instanceof ApiError && (slot.error.status === 404 || slot.error.status === 422);
  const request = useAppointmentRequest({ rawSlotId, idProblem, onFailed: () => void slot.refetch() });
  const { consent, sending } = request;
  // The doctor's rules for changing it later (issue 35), shown before the request is sent.
  const bookingRules = useBookingRules(facts?.doctor.doctor_id);

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Card>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={request.submit} aria-labelledby="request-title">
            <Typography id="request-title" variant="h5" component="h1">
              {t('patient.requestAppointment')}
            </Typography>
            {idProblem && <Alert severity="error">{t(idProblem)}</Alert>}
            {slot.isLoading && (
              <Box>
                <CircularProgress size={20} /> {t('patient.loadingSlot')}
              </Box>
            )}
            {notFound && (
              <Alert
                severity="error"
                action={
                  <Button component={RouterLink} to="/home">
                    {t('patient.findASlot')}
                  </Button>
                }
              >
                {t('patient.slotNotFound')}
              </Alert>
            )}
            {facts && <SlotFactsSummary facts={facts} />}
            {facts && gone && <SlotUnavailable facts={facts} reason={t(gone)} />}
            {facts && !gone && (
              <>
                <RequestSteps />
                <BookingRulesSummary rules={bookingRules.rules} loading={bookingRules.isLoading} startsAt={facts.start_at} />
                {request.error && <Alert severity="error">{request.error}</Alert>}
                <TopUpForBooking shortfall={request.shortfall} onLeave={request.keepDraft} />
                <TextField
                  label={t('patient.reasonForVisit')}
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
              <Button onClick={() => navigate('/home')}>{t('patient.cancelForm')}</Button>
              {facts && !gone && (
                <Button type="submit" variant="contained" disabled={sending || consent.loading || (consent.needed && !consent.notice)}>
                  {t(sending ? 'patient.sending' : 'patient.sendRequest')}
                </Button>
              )}
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <RequestSentDialog open={request.sent} doctorName={facts?.doctor.name ?? t('patient.yourDoctor')} onDone={() => navigate('/home')} />
    </Box>
  );
}
