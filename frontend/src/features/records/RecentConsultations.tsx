import { Suspense, lazy, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import NoteAltOutlined from '@mui/icons-material/NoteAltOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { DoctorAppointment } from '@telemed/contracts';
import { call } from '../../lib/client';
import { doctorRows } from '../../lib/myAppointments';
import { browserZone } from '../../lib/time';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';

// The modals load when one is opened.
const NotesModal = lazy(async () => ({ default: (await import('./NotesModal')).NotesModal }));
const UploadPrescriptionModal = lazy(async () => ({ default: (await import('./UploadPrescriptionModal')).UploadPrescriptionModal }));

export const RECENT_CONSULTATIONS_SHOWN = 6;

/**
 * The doctor dashboard's way back to the summary's Doctor Actions (seed 001 §2: Upload Prescription, Add Notes) for
 * consultations already held, once the summary has been left.
 */
export function RecentConsultations() {
  const t = useT();
  const f = useFormat();
  const zone = browserZone();
  const past = useQuery({
    queryKey: ['appointments', 'past', zone],
    queryFn: () =>
      call('listMyAppointments', { query: { section: 'past', limit: 20, timezone_str: zone } })
        .then(doctorRows)
        .catch((): DoctorAppointment[] => []),
  });
  const [open, setOpen] = useState<{ kind: 'notes' | 'prescription'; appointment: DoctorAppointment } | null>(null);
  const [done, setDone] = useState<MessageId | null>(null);
  // Held: a prescription follows a consultation (one never joined, a no-show, has nothing to prescribe on).
  const held = (past.data ?? []).filter((a) => (a.status === 'completed' || a.status === 'confirmed') && a.consultation_held !== false).slice(0, RECENT_CONSULTATIONS_SHOWN);
  return (
    <Card data-testid="recent-consultations">
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('records.recentConsultations')}
        </Typography>
        {past.isLoading && <CircularProgress size={20} aria-label={t('records.loadingRecentConsultations')} />}
        {!past.isLoading && held.length === 0 && <Typography color="text.secondary">{t('records.noConsultationsHeld')}</Typography>}
        {done && (
          <Alert severity="success" role="status" onClose={() => setDone(null)} sx={{ mt: 1 }}>
            {t(done)}
          </Alert>
        )}
        <Stack spacing={1.5} sx={{ mt: 1 }}>
          {held.map((a) => (
            <Stack key={a.appointment_id} direction={{ xs: 'column', sm: 'row' }} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, gap: 1 }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }} noWrap title={a.patient_name}>
                  {a.patient_name}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {f.whenPhrase(a.slot.start_at)}
                </Typography>
              </Box>
              <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
                <Button size="small" variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => setOpen({ kind: 'prescription', appointment: a })} aria-label={t('records.uploadPrescriptionFor', { name: a.patient_name })}>
                  {t('records.uploadPrescription')}
                </Button>
                <Button size="small" variant="outlined" startIcon={<NoteAltOutlined />} onClick={() => setOpen({ kind: 'notes', appointment: a })} aria-label={t('records.addNotesFor', { name: a.patient_name })}>
                  {t('records.addNotes')}
                </Button>
              </Stack>
            </Stack>
          ))}
        </Stack>
      </CardContent>
      <Suspense fallback={null}>
        {open?.kind === 'notes' && (
          <NotesModal open onClose={() => setOpen(null)} onSaved={(draft) => setDone(draft ? 'records.draftSaved' : 'records.notesSaved')} appointmentId={open.appointment.appointment_id} patientName={open.appointment.patient_name} />
        )}
        {open?.kind === 'prescription' && (
          <UploadPrescriptionModal open onClose={() => setOpen(null)} onUploaded={() => setDone('records.prescriptionUploaded')} appointmentId={open.appointment.appointment_id} patientName={open.appointment.patient_name} />
        )}
      </Suspense>
    </Card>
  );
}
