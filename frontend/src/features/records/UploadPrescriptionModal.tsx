import { useState } from 'react';
import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useT } from '../../i18n/useT';
import { formatBytes, prescriptionFileError } from './rules';
import { RecordsDialog, UploadProgress, useUpload } from './RecordsDialog';

export const PRESCRIPTION_ACCEPT = '.pdf,.jpg,.jpeg,.png,.doc,.docx';

/**
 * Seed 001 §2 prescription upload modal (doctor): one file (10 MB; PDF, JPG, PNG, DOC, DOCX), patient name, optional
 * patient ID, medication summary, additional notes. Submit needs a file and a patient name.
 */
export function UploadPrescriptionModal(props: { open: boolean; onClose(): void; onUploaded?(): void; appointmentId: string; patientName?: string; patientId?: string }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [patientName, setPatientName] = useState(props.patientName ?? '');
  const [patientId, setPatientId] = useState(props.patientId ?? '');
  const [summary, setSummary] = useState('');
  const [notes, setNotes] = useState('');
  const upload = useUpload('records.uploadPrescriptionFailed');
  const uploading = upload.uploading;

  const reset = () => {
    setFile(null);
    setFileError(null);
    setSummary('');
    setNotes('');
    upload.reset();
  };
  const close = () => {
    reset();
    props.onClose();
  };
  const pick = (picked: File | undefined) => {
    if (!picked) return;
    const problem = prescriptionFileError(picked, t);
    upload.clearError(); // the last refusal was about the file this one replaces
    setFileError(problem);
    setFile(problem ? null : picked);
  };
  const submit = async () => {
    if (!file || patientName.trim() === '') return;
    const form = new FormData();
    form.append('patient_name', patientName.trim());
    if (patientId.trim()) form.append('patient_id', patientId.trim());
    if (summary.trim()) form.append('medication_summary', summary.trim());
    if (notes.trim()) form.append('additional_notes', notes.trim());
    form.append('file', file, file.name);
    await upload.send({ route: 'uploadPrescriptionFile', params: { appointment_id: props.appointmentId } }, form, () => {
      props.onUploaded?.();
      close();
    });
  };

  return (
    <RecordsDialog
      open={props.open}
      title={t('records.uploadPrescription')}
      titleId="upload-prescription-title"
      busy={uploading}
      error={upload.error}
      onClose={close}
      dirty={file !== null || patientName !== (props.patientName ?? '') || patientId !== (props.patientId ?? '') || summary.trim() !== '' || notes.trim() !== ''}
      actions={
        <Button variant="contained" onClick={() => void submit()} disabled={uploading || !file || patientName.trim() === ''}>
          {t('records.uploadPrescription')}
        </Button>
      }
    >
      <Box
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          if (!uploading) pick(e.dataTransfer.files[0]);
        }}
        sx={{ border: 2, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 2, p: 2, textAlign: 'center' }}
      >
        <UploadFileOutlined color="primary" aria-hidden />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {file ? `${file.name} · ${formatBytes(file.size)}` : t('records.prescriptionFileTypes')}
        </Typography>
        <Button variant="outlined" component="label" disabled={uploading}>
          {file ? t('records.chooseAnotherFile') : t('records.chooseFile')}
          <input
            hidden
            type="file"
            accept={PRESCRIPTION_ACCEPT}
            aria-label={t('records.prescriptionFile')}
            onChange={(e) => {
              pick(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </Button>
      </Box>
      {fileError && <Alert severity="error">{fileError}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth required label={t('records.patientName')} value={patientName} onChange={(e) => setPatientName(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label={t('records.patientIdOptional')} value={patientId} onChange={(e) => setPatientId(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      <TextField label={t('records.medicationSummary')} multiline minRows={2} value={summary} onChange={(e) => setSummary(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label={t('records.additionalNotes')} multiline minRows={2} value={notes} onChange={(e) => setNotes(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <UploadProgress progress={upload.progress} done={upload.done} />
    </RecordsDialog>
  );
}
