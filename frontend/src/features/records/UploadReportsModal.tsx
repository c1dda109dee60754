import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, IconButton, List, ListItem, ListItemText, MenuItem, Stack, TextField, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { RECORD_LIMITS, RECORD_TEXTS, REPORT_TYPES, reportDateProblem, type ReportTypeId } from '@telemed/contracts/record-constants';
import { addFiles, formatBytes, reportTypeFromName, todayInIndia } from './rules';
import { RecordsDialog, UploadProgress, useUpload } from './RecordsDialog';
import type { ConsentLanguage } from '@telemed/contracts/consent-notice';
import { ConsentNoticePanel } from '../patient/ConsentNoticePanel';
import { agreeToNotice, consentsKey, useConsentNotice, useConsents } from '../patient/consent';
import { ApiError } from '../../lib/api';

export const REPORT_ACCEPT = '.pdf,.jpg,.jpeg,.png,.doc,.docx,.dcm,.dicom,application/dicom';

/**
 * Seed 001 §2 medical reports upload modal (patient): several files (duplicates by name and size ignored), report
 * type (pre-selected from a single file's name), date not before 1900 nor after today, facility, doctor, summary, notes. Progress
 * from XMLHttpRequest, capped at 90 % until the server answers; closing and cancel are disabled while uploading.
 * Without a current consent (none yet, or withdrawn) the privacy notice is shown with a box to tick; the agreement is
 * recorded first, then the upload.
 */
export function UploadReportsModal({ open, onClose, onUploaded, appointmentId }: { open: boolean; onClose(): void; onUploaded?(): void; appointmentId?: string }) {
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [reportType, setReportType] = useState<ReportTypeId | ''>('');
  const [reportDate, setReportDate] = useState(todayInIndia());
  const [facility, setFacility] = useState('');
  const [doctorName, setDoctorName] = useState('');
  const [summary, setSummary] = useState('');
  const [notes, setNotes] = useState('');
  const upload = useUpload(RECORD_TEXTS.uploadReportsFailed);
  const queryClient = useQueryClient();
  const consents = useConsents(open);
  const [language, setLanguage] = useState<ConsentLanguage>('en');
  const notice = useConsentNotice(language, open && consents.needed);
  const needsConsent = consents.needed;
  const [consentError, setConsentError] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [agreementMissing, setAgreementMissing] = useState(false);
  const uploading = upload.uploading;
  const today = todayInIndia();
  // The server's rule, asked of the same function: a real date, not before 1900, not after today in India.
  const dateError = reportDateProblem(reportDate, today);

  const reset = () => {
    setFiles([]);
    setFileErrors([]);
    setReportType('');
    setReportDate(todayInIndia());
    setFacility('');
    setDoctorName('');
    setSummary('');
    setNotes('');
    upload.reset();
    setConsentError(null);
    setAgreed(false);
    setAgreementMissing(false);
  };
  const close = () => {
    reset();
    onClose();
  };

  // A refusal was about the files as they were: once they change, it no longer applies.
  const changeFiles = (next: File[]) => {
    setFiles(next);
    upload.clearError();
    setFileErrors([]);
  };

  const pick = (picked: File[]) => {
    upload.clearError();
    const next = addFiles(files, picked);
    setFiles(next.files);
    setFileErrors(next.errors);
    if (next.files.length === 1 && reportType === '') {
      const guessed = reportTypeFromName(next.files[0]!.name);
      if (guessed) setReportType(guessed);
    }
  };

  const submit = async () => {
    if (files.length === 0 || reportType === '' || dateError || (needsConsent && !notice.data)) return;
    if (needsConsent && !agreed) return setAgreementMissing(true);
    setConsentError(null);
    if (needsConsent && notice.data) {
      // What is agreed to is the notice shown, under which the box was ticked.
      try {
        await agreeToNotice(notice.data);
      } catch (e) {
        setConsentError(e instanceof ApiError && e.detail ? e.detail : 'Could not record your agreement. Please try again.');
        return;
      }
    }
    const form = new FormData();
    form.append('report_type', reportType);
    form.append('report_date', reportDate);
    if (facility.trim()) form.append('medical_facility', facility.trim());
    if (doctorName.trim()) form.append('doctor_name', doctorName.trim());
    if (summary.trim()) form.append('report_summary', summary.trim());
    if (notes.trim()) form.append('additional_notes', notes.trim());
    if (appointmentId) form.append('appointment_id', appointmentId);
    for (const file of files) form.append('files', file, file.name);
    await upload.send({ route: 'uploadReports', params: undefined }, form, () => {
      onUploaded?.();
      close();
    });
    // Agreed just now, or withdrawn elsewhere meanwhile (the upload's 403): the notice shows when it is needed.
    void queryClient.invalidateQueries({ queryKey: consentsKey });
  };

  const totalSize = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <RecordsDialog
      open={open}
      title="Upload Medical Reports"
      titleId="upload-reports-title"
      busy={uploading}
      error={consentError ?? upload.error}
      onClose={close}
      dirty={files.length > 0 || reportType !== '' || reportDate !== today || [facility, doctorName, summary, notes].some((v) => v.trim() !== '')}
      summary={
        files.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {files.length} file{files.length === 1 ? '' : 's'} · {formatBytes(totalSize)}
          </Typography>
        )
      }
      actions={
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={uploading || files.length === 0 || reportType === '' || Boolean(dateError) || (needsConsent && !notice.data)}
        >
          Upload Reports
        </Button>
      }
    >
      <Box
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          if (!uploading) pick(Array.from(e.dataTransfer.files));
        }}
        sx={{ border: 2, borderStyle: 'dashed', borderColor: 'divider', borderRadius: 2, p: 2, textAlign: 'center' }}
      >
        <UploadFileOutlined color="primary" aria-hidden />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          PDF, JPG, PNG, DOC, DOCX or DICOM, up to 20 MB each
        </Typography>
        <Button variant="outlined" component="label" disabled={uploading}>
          Choose files
          <input
            hidden
            type="file"
            multiple
            accept={REPORT_ACCEPT}
            aria-label="Report files"
            onChange={(e) => {
              pick(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </Button>
      </Box>
      {fileErrors.map((message) => (
        <Alert severity="error" key={message}>
          {message}
        </Alert>
      ))}
      {files.length > 0 && (
        <List dense aria-label="Chosen files" sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }}>
          {files.map((file) => (
            <ListItem
              key={`${file.name}-${file.size}`}
              secondaryAction={
                <IconButton edge="end" aria-label={`Remove ${file.name}`} disabled={uploading} onClick={() => changeFiles(files.filter((f) => f !== file))}>
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <ListItemText primary={file.name} secondary={formatBytes(file.size)} slotProps={{ primary: { noWrap: true } }} />
            </ListItem>
          ))}
        </List>
      )}
      <TextField select required label="Report type" value={reportType} onChange={(e) => setReportType(e.target.value as ReportTypeId)} disabled={uploading}>
        {REPORT_TYPES.map((t) => (
          <MenuItem key={t.id} value={t.id}>
            {t.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        label="Report date"
        value={reportDate}
        onChange={(e) => setReportDate(e.target.value)}
        disabled={uploading}
        error={Boolean(dateError)}
        helperText={dateError ?? ' '}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: RECORD_LIMITS.earliestReportDate, max: today } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth label="Medical facility" value={facility} onChange={(e) => setFacility(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label="Doctor name" value={doctorName} onChange={(e) => setDoctorName(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      <TextField label="Report summary" multiline minRows={2} value={summary} onChange={(e) => setSummary(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label="Additional notes" multiline minRows={2} value={notes} onChange={(e) => setNotes(e.target.value)} disabled={uploading} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      {needsConsent && (
        <ConsentNoticePanel purpose="reports" notice={notice.data} loading={notice.isLoading} language={language} onLanguage={setLanguage} agreed={agreed} onAgreed={setAgreed} missing={agreementMissing} />
      )}
      <UploadProgress progress={upload.progress} done={upload.done} />
    </RecordsDialog>
  );
}
