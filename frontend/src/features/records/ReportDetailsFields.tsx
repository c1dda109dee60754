import { MenuItem, Stack, TextField } from '@mui/material';
import { RECORD_LIMITS, REPORT_TYPES, type ReportTypeId } from '@telemed/contracts/record-constants';
import { useT } from '../../i18n/useT';
import { REPORT_TYPE_TEXT } from './texts';
import type { ReportDetails } from './useUploadReports';

/** The reports' type, date (not before 1900 nor after today, with the rule's message), facility, doctor, summary and notes. */
export function ReportDetailsFields(props: {
  details: ReportDetails;
  onDetail<K extends keyof ReportDetails>(key: K, value: ReportDetails[K]): void;
  today: string;
  dateError: string | null;
  disabled: boolean;
}) {
  const t = useT();
  const { details, onDetail, dateError, disabled } = props;
  return (
    <>
      <TextField select required label={t('records.reportType')} value={details.reportType} onChange={(e) => onDetail('reportType', e.target.value as ReportTypeId)} disabled={disabled}>
        {REPORT_TYPES.map((type) => (
          <MenuItem key={type.id} value={type.id}>
            {t(REPORT_TYPE_TEXT[type.id])}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        label={t('records.reportDate')}
        value={details.reportDate}
        onChange={(e) => onDetail('reportDate', e.target.value)}
        disabled={disabled}
        error={Boolean(dateError)}
        helperText={dateError ?? ' '}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: RECORD_LIMITS.earliestReportDate, max: props.today } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth label={t('records.medicalFacility')} value={details.facility} onChange={(e) => onDetail('facility', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label={t('records.doctorName')} value={details.doctorName} onChange={(e) => onDetail('doctorName', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      <TextField label={t('records.reportSummary')} multiline minRows={2} value={details.summary} onChange={(e) => onDetail('summary', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label={t('records.additionalNotes')} multiline minRows={2} value={details.notes} onChange={(e) => onDetail('notes', e.target.value)} disabled={disabled} slotProps={{ htmlInput: { maxLength: 4000 } }} />
    </>
  );
}
