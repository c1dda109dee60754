import { useEffect, useState } from 'react';
import { Alert, AlertTitle, Button, LinearProgress, Stack } from '@mui/material';
import type { IncomingRequest } from '../../app/RealtimeProvider';
import { RejectDialog } from './RejectDialog';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

export const BANNER_MS = 15_000;
export const BANNER_AFTER_ACTION_MS = 2000;
const TICK_MS = 50;

/** 'New Appointment Request' at the top: auto-dismisses after 15 s, pauses while the doctor acts. */
export function RequestBanner({
  request,
  onApprove,
  onReject,
  onReview,
  onClose,
}: {
  request: IncomingRequest;
  onApprove: () => void;
  onReject: (reason: string | null) => void;
  onReview: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const f = useFormat();
  const [elapsed, setElapsed] = useState(0);
  const [paused, setPaused] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [limit, setLimit] = useState(BANNER_MS);
  useEffect(() => {
    if (paused) return;
    const timer = setInterval(() => setElapsed((e) => e + TICK_MS), TICK_MS);
    return () => clearInterval(timer);
  }, [paused]);
  useEffect(() => {
    if (elapsed >= limit) onClose();
  }, [elapsed, limit, onClose]);
  const acted = () => {
    setElapsed(0);
    setLimit(BANNER_AFTER_ACTION_MS);
    setPaused(false);
  };
  return (
    <Alert severity="info" onClose={onClose} data-testid="request-banner" sx={{ position: 'relative', overflow: 'hidden' }}>
      {/* A move (issue 35) is the same request at a new time: said as one, with where it was. */}
      <AlertTitle>{t(request.moved_from ? 'doctor.appointmentMovedTitle' : 'doctor.newAppointmentRequest')}</AlertTitle>
      {request.moved_from ? (
        <>
          {t('doctor.movedAppointment', { name: request.patient_name, when: f.whenPhrase(request.start_at) })}
          <div data-testid="banner-moved-from">{t('doctor.movedFrom', { by: request.moved_from.by, when: f.whenPhrase(request.moved_from.start_at) })}</div>
        </>
      ) : (
        t('doctor.requestedAppointment', { name: request.patient_name, when: f.whenPhrase(request.start_at) })
      )}
      {request.notes && <div>{t('doctor.requestReason', { reason: request.notes })}</div>}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          size="small"
          variant="contained"
          onClick={() => {
            setPaused(true);
            onApprove();
            acted();
          }}
        >
          {t('doctor.approve')}
        </Button>
        <Button
          size="small"
          color="error"
          onClick={() => {
            setPaused(true);
            setRejecting(true);
          }}
        >
          {t('doctor.reject')}
        </Button>
        <Button size="small" onClick={onReview}>
          {t('doctor.reviewDetails')}
        </Button>
      </Stack>
      <LinearProgress variant="determinate" value={Math.max(0, 100 - (elapsed / limit) * 100)} sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }} />
      <RejectDialog
        patientName={request.patient_name}
        open={rejecting}
        onCancel={() => {
          setRejecting(false);
          setPaused(false);
        }}
        onReject={(reason) => {
          setRejecting(false);
          onReject(reason);
          acted();
        }}
      />
    </Alert>
  );
}
