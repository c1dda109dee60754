import { Alert, Box, Typography } from '@mui/material';
import { useT } from '../../i18n/useT';
import { DownloadButton } from './RecordsTiles';
import { PrescriptionLineForm } from './PrescriptionLineForm';
import { IssuePrescriptionForm, SessionLines } from './PrescriptionSession';
import { usePrescriptionBuilder } from './usePrescriptionBuilder';

export { guidelineNote } from './usePrescriptionBuilder';

/**
 * Seed 001 §2 quick prescription builder (doctor, in call): medicine with suggestions, dosage, frequency (custom
 * schedule only for custom), duration and unit, optional instructions, Add (rules of §5, then the form resets to once
 * daily for 1 day), the session list, and Issue Prescription (POST /consultations/{id}/prescriptions), whose refusal
 * (a Guidelines rule, a missing registration) is shown as the server wrote it. A medicine picked from the suggestions
 * is prescribed in one of the strengths the catalogue lists for it (chosen here; a free-text medicine takes any), and
 * the patient's age and gender, which the Guidelines' prescription shows and no profile holds, are asked before issuing.
 */
export function PrescriptionBuilder({ appointmentId, onIssued }: { appointmentId: string; onIssued?(): void }) {
  const t = useT();
  const builder = usePrescriptionBuilder(appointmentId, onIssued);
  const { lines, issuing, error, issued } = builder;
  return (
    <Box component="section" aria-labelledby="builder-title">
      <Typography id="builder-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        {t('records.quickPrescription')}
      </Typography>
      <PrescriptionLineForm draft={builder.draft} setDraft={builder.setDraft} note={builder.note} blocked={builder.blocked} onType={builder.typeMedicineText} onPick={builder.pickFromCatalogue} onAdd={builder.add} />
      <SessionLines lines={lines} issuing={issuing} onRemove={builder.removeLine} />
      {lines.length > 0 && <IssuePrescriptionForm particulars={builder.particulars} onParticular={builder.setParticular} issuing={issuing} onIssue={() => void builder.issue()} />}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {issued && (
        <Alert severity="success" sx={{ mt: 1.5 }} action={<DownloadButton url={`/api/v1/prescriptions/${encodeURIComponent(issued.id)}/pdf`} name={`prescription-${issued.at}.pdf`} label={t('records.downloadIssuedPdf')} />}>
          {t('records.prescriptionIssued')}
        </Alert>
      )}
    </Box>
  );
}
