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
import { ApiError } from '../../lib/api';
import { downloadFile, openPdf, recordsApi } from './api';
import { formatBytes } from './rules';
import { UploadReportsModal } from './UploadReportsModal';

export const MY_RECORDS_KEY = ['records', 'me'] as const;
/** The server takes a patient's reports at any time (with a consultation or without): the tile says so, beside its Upload button. */
export const NO_REPORTS_TEXT = 'No reports yet. You can upload your reports at any time, before or after a consultation.';

const longDate = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00` : iso).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/** The patient's own records (GET /records/me), shared by both tiles. */
export function useMyRecords() {
  return useQuery({ queryKey: MY_RECORDS_KEY, queryFn: recordsApi.mine });
}

/** A Download button: the file through the API with the bearer token, saved as a download; a failure said beside it. */
export function DownloadButton({ url, name, label, open = false }: { url: string; name: string; label: string; open?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
          setError(null);
          try {
            await (open ? openPdf(url) : downloadFile(url, name));
          } catch (e) {
            setError(e instanceof ApiError && e.detail ? e.detail : 'The file could not be downloaded. Please try again.');
          } finally {
            setBusy(false);
          }
        }}
      >
        {open ? 'Open PDF' : 'Download'}
      </Button>
      {error && (
        <Typography variant="caption" color="error" role="alert">
          {error}
        </Typography>
      )}
    </Stack>
  );
}

function Tile(props: { title: string; icon: ReactNode; count: number | null; text: string; onOpen(): void; action?: ReactNode; testId: string }) {
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
                {props.count}
              </Typography>
            )}
          </Box>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {props.text}
        </Typography>
        <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" onClick={props.onOpen}>
            View {props.title}
          </Button>
          {props.action}
        </Stack>
      </CardContent>
    </Card>
  );
}

function RecordsDialog(props: { open: boolean; onClose(): void; title: string; id: string; children: ReactNode }) {
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={props.id}>
      <DialogTitle id={props.id} sx={{ pr: 6 }}>
        {props.title}
        <IconButton aria-label="Close" onClick={props.onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>{props.children}</DialogContent>
    </Dialog>
  );
}

const Row = ({ primary, secondary, children }: { primary: string; secondary: string; children: ReactNode }) => (
  <ListItem divider sx={{ px: 0, gap: 1.5, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
    <Box sx={{ minWidth: 0, flex: 1 }}>
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
  if (records.reports.length === 0) return <Typography color="text.secondary">{NO_REPORTS_TEXT}</Typography>;
  return (
    <List aria-label="Medical reports" data-testid="reports-list">
      {records.reports.map((report) => (
        <Row
          key={report.id}
          primary={`${report.report_type_name} · ${longDate(report.report_date)}`}
          secondary={[report.medical_facility, report.doctor_name, report.report_summary].filter(Boolean).join(' · ') || `${report.files.length} file${report.files.length === 1 ? '' : 's'}`}
        >
          {report.files.map((file) => (
            <Stack key={file.file_id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="caption" color="text.secondary" sx={{ maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={file.file_name}>
                {file.file_name} · {formatBytes(file.size)}
              </Typography>
              <DownloadButton url={file.download_url} name={file.file_name} label={`Download ${file.file_name}`} />
            </Stack>
          ))}
        </Row>
      ))}
    </List>
  );
}

function PrescriptionsList({ records }: { records: RecordsResponse }) {
  if (records.prescriptions.length === 0 && records.prescription_files.length === 0) return <Typography color="text.secondary">No prescriptions yet.</Typography>;
  return (
    <List aria-label="Prescriptions" data-testid="prescriptions-list">
      {records.prescriptions.map((p) => (
        <Row key={p.id} primary={`${p.doctor_name} · ${longDate(p.issued_at)}`} secondary={p.medicines.map((m) => `${m.medicine} ${m.dosage}`).join(', ') || (p.diagnosis ?? 'E-prescription')}>
          <DownloadButton url={p.pdf_url} name={`prescription-${p.issued_at.slice(0, 10)}.pdf`} label={`Open the prescription of ${longDate(p.issued_at)} as PDF`} open />
          <DownloadButton url={p.pdf_url} name={`prescription-${p.issued_at.slice(0, 10)}.pdf`} label={`Download the prescription of ${longDate(p.issued_at)} as PDF`} />
        </Row>
      ))}
      {records.prescription_files.map((f) => (
        <Row key={f.id} primary={`Uploaded prescription · ${longDate(f.uploaded_at)}`} secondary={f.medication_summary ?? f.file.file_name}>
          <DownloadButton url={f.file.download_url} name={f.file.file_name} label={`Download ${f.file.file_name}`} />
        </Row>
      ))}
    </List>
  );
}

/** Seed 000 §2: the Medical Reports and Prescriptions tiles of /home, with their modals over the patient's real records. */
export function RecordsTiles({ wrap }: { wrap: (tile: ReactNode, key: string) => ReactNode }) {
  const records = useMyRecords();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'reports' | 'prescriptions' | 'upload' | null>(null);
  const data = records.data;
  const reportCount = data ? data.reports.length : null;
  const prescriptionCount = data ? data.prescriptions.length + data.prescription_files.length : null;
  const body = (render: (r: RecordsResponse) => ReactNode) =>
    records.isLoading ? <CircularProgress aria-label="Loading your records" /> : records.isError || !data ? <Alert severity="error">Your records could not be loaded. Please try again.</Alert> : render(data);
  return (
    <>
      {wrap(
        <Tile
          testId="reports-tile"
          title="Medical Reports"
          icon={<DescriptionOutlined />}
          count={reportCount}
          text={reportCount ? `Your uploaded reports, newest first.` : NO_REPORTS_TEXT}
          onOpen={() => setOpen('reports')}
          action={
            <Button variant="text" startIcon={<UploadFileOutlined />} onClick={() => setOpen('upload')}>
              Upload Reports
            </Button>
          }
        />,
        'reports',
      )}
      {wrap(
        <Tile
          testId="prescriptions-tile"
          title="Prescriptions"
          icon={<MedicationOutlined />}
          count={prescriptionCount}
          text={prescriptionCount ? 'Prescriptions from your doctors, newest first.' : 'No prescriptions yet.'}
          onOpen={() => setOpen('prescriptions')}
        />,
        'prescriptions',
      )}
      <RecordsDialog open={open === 'reports'} onClose={() => setOpen(null)} title="Medical Reports" id="medical-reports-title">
        {body((r) => <ReportsList records={r} />)}
      </RecordsDialog>
      <RecordsDialog open={open === 'prescriptions'} onClose={() => setOpen(null)} title="Prescriptions" id="prescriptions-title">
        {body((r) => <PrescriptionsList records={r} />)}
      </RecordsDialog>
      <UploadReportsModal open={open === 'upload'} onClose={() => setOpen(null)} onUploaded={() => void queryClient.invalidateQueries({ queryKey: MY_RECORDS_KEY })} />
    </>
  );
}
