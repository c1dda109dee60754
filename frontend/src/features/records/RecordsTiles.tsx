import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  Stack,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import MedicationOutlined from '@mui/icons-material/MedicationOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { RecordsResponse } from '@telemed/contracts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat, type Format } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { downloadFile, openPdf, recordsApi } from './api';
import { formatBytes } from './rules';
import { reportTypeText } from './texts';
import { UploadReportsModal } from './UploadReportsModal';

export const MY_RECORDS_KEY = ['records', 'me'] as const;

/** '20 Nov 2026' in the chosen language: a report's calendar date, or the day of an instant. */
const shortDate = (f: Format, iso: string) => f.date(iso, { day: 'numeric', month: 'short', year: 'numeric' });

/** The patient's own records (GET /records/me), shared by both tiles. */
export function useMyRecords() {
  return useQuery({ queryKey: MY_RECORDS_KEY, queryFn: recordsApi.mine });
}

/** A Download button: the file through the API with the bearer token, saved as a download; a failure said beside it. */
export function DownloadButton({ url, name, label, open = false }: { url: string; name: string; label: string; open?: boolean }) {
  const t = useT();
  const explain = useErrorText();
  const [busy, setBusy] = useState(false);
  // The failure itself, said in the language shown.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  return (
    <Stack sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
      <Button
        size="small"
        variant="outlined"
        startIcon={busy ? <CircularProgress size={14} aria-hidden /> : <DownloadOutlined />}
        aria-label={label}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setFailure(null);
          try {
            await (open ? openPdf(url) : downloadFile(url, name));
          } catch (e) {
            setFailure({ error: e });
          } finally {
            setBusy(false);
          }
        }}
      >
        {open ? t('records.openPdf') : t('records.download')}
      </Button>
      {failure && (
        <Typography variant="caption" color="error" role="alert">
          {explain(failure.error, 'records.downloadFailed')}
        </Typography>
      )}
    </Stack>
  );
}

function Tile(props: { title: string; viewLabel: string; icon: ReactNode; count: number | null; text: string; onOpen(): void; action?: ReactNode; testId: string }) {
  const f = useFormat();
  return (
    <Card sx={{ height: '100%' }} data-testid={props.testId}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          <Box sx={{ width: 40, height: 40, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'background.default', color: 'primary.main', flexShrink: 0 }} aria-hidden>
            {props.icon}
          </Box>
          <Box>
            <Typography variant="overline" component="p" color="text.secondary" sx={{ lineHeight: 1.4 }}>
              {props.title}
            </Typography>
            {props.count !== null && (
              <Typography variant="h5" component="p" data-testid={`${props.testId}-count`}>
                {f.count(props.count)}
              </Typography>
            )}
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {props.text}
        </Typography>
        <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={props.onOpen}>
            {props.viewLabel}
          </Button>
          {props.action}
        </Stack>
      </CardContent>
    </Card>
  );
}

function RecordsDialog(props: { open: boolean; onClose(): void; title: string; id: string; children: ReactNode }) {
  const t = useT();
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={props.id}>
      <DialogTitle id={props.id} sx={{ pr: 6 }}>
        {props.title}
        <IconButton aria-label={t('records.close')} onClick={props.onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>{props.children}</DialogContent>
    </Dialog>
  );
}

const Row = ({ primary, secondary, children }: { primary: string; secondary: string; children: ReactNode }) => (
  <ListItem divider sx={{ px: 0, gap: 1.5, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
    {/* At least 200 px for what the record is: on a phone its files and buttons go under it, never squeeze it to a letter's width. */}
    <Box sx={{ minWidth: 0, flex: { xs: '1 1 200px', sm: 1 } }}>
      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{primary}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {secondary}
      </Typography>
    </Box>
    <Stack spacing={0.5} sx={{ alignItems: 'flex-end', ml: 'auto' }}>
      {children}
    </Stack>
  </ListItem>
);

function ReportsList({ records }: { records: RecordsResponse }) {
  const t = useT();
  const f = useFormat();
  if (records.reports.length === 0) return <Typography color="text.secondary">{t('records.noReportsYet')}</Typography>;
  return (
    <List aria-label={t('records.medicalReportsLabel')} data-testid="reports-list">
      {records.reports.map((report) => (
        <Row
          key={report.id}
          primary={`${reportTypeText(t, report.report_type, report.report_type_name)} · ${shortDate(f, report.report_date)}`}
          secondary={[report.medical_facility, report.doctor_name, report.report_summary].filter(Boolean).join(' · ') || t('records.fileCount', { count: report.files.length })}
        >
          {report.files.map((file) => (
            <Stack key={file.file_id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={file.file_name}>
                {file.file_name} · {formatBytes(file.size)}
              </Typography>
              <DownloadButton url={file.download_url} name={file.file_name} label={t('records.downloadFile', { name: file.file_name })} />
            </Stack>
          ))}
        </Row>
      ))}
    </List>
  );
}

function PrescriptionsList({ records }: { records: RecordsResponse }) {
  const t = useT();
  const f = useFormat();
  if (records.prescriptions.length === 0 && records.prescription_files.length === 0) return <Typography color="text.secondary">{t('records.noPrescriptionsYet')}</Typography>;
  return (
    <List aria-label={t('records.prescriptions')} data-testid="prescriptions-list">
      {records.prescriptions.map((p) => (
        <Row key={p.id} primary={`${p.doctor_name} · ${shortDate(f, p.issued_at)}`} secondary={p.medicines.map((m) => `${m.medicine} ${m.dosage}`).join(', ') || (p.diagnosis ?? t('records.ePrescription'))}>
          <DownloadButton url={p.pdf_url} name={`prescription-${p.issued_at.slice(0, 10)}.pdf`} label={t('records.openPrescriptionPdf', { date: shortDate(f, p.issued_at) })} open />
          <DownloadButton url={p.pdf_url} name={`prescription-${p.issued_at.slice(0, 10)}.pdf`} label={t('records.downloadPrescriptionPdf', { date: shortDate(f, p.issued_at) })} />
        </Row>
      ))}
      {records.prescription_files.map((file) => (
        <Row key={file.id} primary={t('records.uploadedPrescriptionOn', { date: shortDate(f, file.uploaded_at) })} secondary={file.medication_summary ?? file.file.file_name}>
          <DownloadButton url={file.file.download_url} name={file.file.file_name} label={t('records.downloadFile', { name: file.file.file_name })} />
        </Row>
      ))}
    </List>
  );
}

/** Seed 000 §2: the Medical Reports and Prescriptions tiles of /home, with their modals over the patient's real records. */
export function RecordsTiles({ wrap }: { wrap: (tile: ReactNode, key: string) => ReactNode }) {
  const t = useT();
  const records = useMyRecords();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'reports' | 'prescriptions' | 'upload' | null>(null);
  const data = records.data;
  const reportCount = data ? data.reports.length : null;
  const prescriptionCount = data ? data.prescriptions.length + data.prescription_files.length : null;
  const body = (render: (r: RecordsResponse) => ReactNode) =>
    records.isLoading ? (
      <CircularProgress aria-label={t('records.loadingYourRecords')} />
    ) : records.isError || !data ? (
      <Alert severity="error">{t('records.yourRecordsFailed')}</Alert>
    ) : (
      render(data)
    );
  return (
    <>
      {wrap(
        <Tile
          testId="reports-tile"
          title={t('records.medicalReports')}
          viewLabel={t('records.viewMedicalReports')}
          icon={<DescriptionOutlined />}
          count={reportCount}
          text={reportCount ? t('records.yourReports') : t('records.noReportsYet')}
          onOpen={() => setOpen('reports')}
          action={
            <Button variant="text" startIcon={<UploadFileOutlined />} onClick={() => setOpen('upload')}>
              {t('records.uploadReports')}
            </Button>
          }
        />,
        'reports',
      )}
      {wrap(
        <Tile
          testId="prescriptions-tile"
          title={t('records.prescriptions')}
          viewLabel={t('records.viewPrescriptions')}
          icon={<MedicationOutlined />}
          count={prescriptionCount}
          text={prescriptionCount ? t('records.yourPrescriptions') : t('records.noPrescriptionsYet')}
          onOpen={() => setOpen('prescriptions')}
        />,
        'prescriptions',
      )}
      <RecordsDialog open={open === 'reports'} onClose={() => setOpen(null)} title={t('records.medicalReports')} id="medical-reports-title">
        {body((r) => <ReportsList records={r} />)}
      </RecordsDialog>
      <RecordsDialog open={open === 'prescriptions'} onClose={() => setOpen(null)} title={t('records.prescriptions')} id="prescriptions-title">
        {body((r) => <PrescriptionsList records={r} />)}
      </RecordsDialog>
      <UploadReportsModal open={open === 'upload'} onClose={() => setOpen(null)} onUploaded={() => void queryClient.invalidateQueries({ queryKey: MY_RECORDS_KEY })} />
    </>
  );
}
