import { Button, Typography } from '@mui/material';
import { useT } from '../../i18n/useT';
import { formatBytes } from './rules';
import { RecordsDialog, UploadProgress } from './RecordsDialog';
import { ReportDetailsFields } from './ReportDetailsFields';
import { ReportFilesPicker } from './ReportFilesPicker';
import { useUploadReports } from './useUploadReports';
import { ConsentNoticePanel } from '../patient/ConsentNoticePanel';

export { REPORT_ACCEPT } from './ReportFilesPicker';

/**
 * Seed 001 §2 medical reports upload modal (patient): several files (duplicates by name and size ignored), report
 * type (pre-selected from a single file's name), date not before 1900 nor after today, facility, doctor, summary, notes. Progress
 * from XMLHttpRequest, capped at 90 % until the server answers; closing and cancel are disabled while uploading.
 * Without a current consent (none yet, or withdrawn) the privacy notice is shown with a box to tick; the agreement is
 * recorded first, then the upload.
 */
export function UploadReportsModal(props: { open: boolean; onClose(): void; onUploaded?(): void; appointmentId?: string }) {
  const t = useT();
  const form = useUploadReports(props);
  const { files, upload, consent } = form;
  const uploading = upload.uploading;
  const totalSize = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <RecordsDialog
      open={props.open}
      title={t('records.uploadMedicalReports')}
      titleId="upload-reports-title"
      busy={uploading}
      error={form.error}
      onClose={form.close}
      dirty={form.dirty}
      summary={
        files.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }}>
            {t('records.filesSummary', { count: files.length, size: formatBytes(totalSize) })}
          </Typography>
        )
      }
      actions={
        <Button variant="contained" onClick={() => void form.submit()} disabled={uploading || form.incomplete}>
          {t('records.uploadReports')}
        </Button>
      }
    >
      <ReportFilesPicker files={files} errors={form.fileErrors} uploading={uploading} onPick={form.pick} onChange={form.changeFiles} />
      <ReportDetailsFields details={form.details} onDetail={form.setDetail} today={form.today} dateError={form.dateError} disabled={uploading} />
      {consent.needed && <ConsentNoticePanel purpose="reports" {...consent.panel} />}
      <UploadProgress progress={upload.progress} done={upload.done} />
    </RecordsDialog>
  );
}
