import { useEffect, useState } from 'react';
import { Alert, Button, Stack } from '@mui/material';
import NoteAltOutlined from '@mui/icons-material/NoteAltOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useT, type MessageId } from '../../i18n/useT';
import { findAppointmentPatient } from './hooks';
import { NotesModal } from './NotesModal';
import { UploadPrescriptionModal } from './UploadPrescriptionModal';
import { UploadReportsModal } from './UploadReportsModal';

/**
 * Seed 001 §2 summary actions: Upload Prescription and Add Notes for the doctor, Upload Reports for the patient,
 * each on the appointment of the page. It reads the page's address and the API without the router's or the query
 * cache's context, so the summary renders on its own too.
 */
export function SummaryActions({ doctor, patientName }: { doctor: boolean; patientName: string }) {
  const t = useT();
  const appointmentId = new URLSearchParams(window.location.search).get('appointment_id') ?? '';
  const [patient, setPatient] = useState<{ patientId: string; patientName: string } | null>(null);
  useEffect(() => {
    if (!doctor || !appointmentId) return;
    let live = true;
    void findAppointmentPatient(appointmentId)
      .then((found) => live && setPatient(found))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [doctor, appointmentId]);
  const [open, setOpen] = useState<'prescription' | 'notes' | 'reports' | null>(null);
  const [done, setDone] = useState<MessageId | null>(null);
  const name = patient?.patientName ?? patientName;
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 1 }}>
        {doctor ? (
          <>
            <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => setOpen('prescription')}>
              {t('records.uploadPrescription')}
            </Button>
            <Button variant="outlined" startIcon={<NoteAltOutlined />} onClick={() => setOpen('notes')}>
              {t('records.addNotes')}
            </Button>
          </>
        ) : (
          <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => setOpen('reports')}>
            {t('records.uploadReports')}
          </Button>
        )}
      </Stack>
      {done && (
        <Alert severity="success" onClose={() => setDone(null)} sx={{ mb: 1 }} role="status">
          {t(done)}
        </Alert>
      )}
      {doctor && open === 'prescription' && (
        <UploadPrescriptionModal open onClose={() => setOpen(null)} onUploaded={() => setDone('records.prescriptionUploaded')} appointmentId={appointmentId} patientName={name} />
      )}
      {doctor && open === 'notes' && <NotesModal open onClose={() => setOpen(null)} onSaved={(draft) => setDone(draft ? 'records.draftSaved' : 'records.notesSaved')} appointmentId={appointmentId} patientName={name} />}
      {!doctor && <UploadReportsModal open={open === 'reports'} onClose={() => setOpen(null)} onUploaded={() => setDone('records.reportsUploaded')} appointmentId={appointmentId || undefined} />}
    </>
  );
}
