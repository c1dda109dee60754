import { MenuItem, Stack, TextField } from '@mui/material';
import { RECORD_LIMITS, REPORT_TYPES, type ReportTypeId } from '@telemed/contracts/record-constants';
import type { ReportDetails } from './useUploadReports';

/** The reports' type, date (not before 1900 nor after today, with the rule's message), facility, doctor, summary and notes. */
export function ReportDetailsFields(props: {
  details: ReportDetails;
  onDetail<K extends keyof ReportDetails>(key: K, value: ReportDetails[K]): void;
  today: string;
  dateError: string | null;
  disabled: boolean;
}) {
  const { details, onDetail, dateError, disabled } = props;
  return (
    <>
      <TextField select required label="Report type" value={details.reportType} onChange={(e) => onDetail('reportType', e.target.value as ReportTypeId)} disabled={disabled}>
        {REPORT_TYPES.map((t) => (
          <MenuItem key={t.id} value={t.id}>
            {t.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        label="Report date"
        value={details.reportDate}
        onChange={(e) => onDetail('reportDate', e.target.value)}
        disabled={disabled}
        error={Boolean(dateError)}
        helperText={dateError ?? ' '}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: RECORD_LIMITS.earliestReportDate, max: props.today } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth label="Medical facility" value={details.facility} onChange={(e) => onDetail('facility', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label="Doctor name" value={details.doctorName} onChange={(e) => onDetail('doctorName', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      <TextField label="Report summary" multiline minRows={2} value={details.summary} onChange={(e) => onDetail('summary', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label="Additional notes" multiline minRows={2} value={details.notes} onChange={(e) => onDetail('notes', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 4000 } }} />
    </>
  );
}
