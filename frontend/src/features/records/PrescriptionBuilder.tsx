import { useState } from 'react';
import { Alert, Box, Button, IconButton, List, ListItem, MenuItem, Stack, TextField, Typography } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { DURATION_UNITS, FREQUENCIES, FREQUENCY_LABELS, RECORD_TEXTS, type TpgList } from '@telemed/contracts/record-constants';
import { recordsApi } from './api';
import { MedicineSearch } from './MedicineSearch';
import { DownloadButton } from './RecordsTiles';
import { GENDERS, ageBody, canAddLine, emptyLine, lineBody, lineLabel, pickMedicine, sameLine, toSessionLine, typeMedicine, type DurationUnit, type Frequency, type Gender, type LineDraft, type SessionLine } from './rules';
import { failureText } from './RecordsDialog';
import { useUnsavedChanges } from '../../lib/unsavedChanges';

/** What the Guidelines say of a picked medicine before sending (the server decides; this only warns early). */
export function guidelineNote(medicine: string, list: TpgList | null): { severity: 'error' | 'info'; text: string } | null {
  if (list === 'prohibited') return { severity: 'error', text: RECORD_TEXTS.prohibited(medicine) };
  if (list === 'B') return { severity: 'info', text: RECORD_TEXTS.listBNeedsFollowUp(medicine) };
  return null;
}

/**
 * Seed 001 §2 quick prescription builder (doctor, in call): medicine with suggestions, dosage, frequency (custom
 * schedule only for custom), duration and unit, optional instructions, Add (rules of §5, then the form resets to once
 * daily for 1 day), the session list, and Issue Prescription (POST /consultations/{id}/prescriptions), whose refusal
 * (a Guidelines rule, a missing registration) is shown as the server wrote it. A medicine picked from the suggestions
 * is prescribed in one of the strengths the catalogue lists for it (chosen here; a free-text medicine takes any), and
 * the patient's age and gender, which the Guidelines' prescription shows and no profile holds, are asked before issuing.
 */
export function PrescriptionBuilder({ appointmentId, onIssued }: { appointmentId: string; onIssued?(): void }) {
  const [draft, setDraft] = useState<LineDraft>(emptyLine);
  const [list, setList] = useState<TpgList | null>(null);
  const [lines, setLines] = useState<SessionLine[]>([]);
  const [diagnosis, setDiagnosis] = useState('');
  const [advice, setAdvice] = useState('');
  const [age, setAge] = useState('');
  const [gender, setGender] = useState<Gender | ''>('');
  const [issuing, setIssuing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ id: string; at: string } | null>(null);
  // Lines added but not issued, or a line or the patient's particulars being written: asked about before they are lost.
  useUnsavedChanges(lines.length > 0 || !sameLine(draft, emptyLine()) || [diagnosis, advice, age, gender].some((v) => v.trim() !== ''));
  const note = draft.medicine_id ? guidelineNote(draft.medicine.trim(), list) : null;
  const blocked = note?.severity === 'error';

  const add = () => {
    if (!canAddLine(draft) || blocked) return;
    setLines((l) => [...l, toSessionLine(draft)]);
    setDraft(emptyLine());
    setList(null);
  };
  const issue = async () => {
    if (lines.length === 0) return;
    setIssuing(true);
    setError(null);
    try {
      const answer = await recordsApi.issuePrescription(appointmentId, {
        lines: lines.map(lineBody),
        diagnosis: diagnosis.trim() || null,
        advice: advice.trim() || null,
        patient_age: ageBody(age),
        patient_gender: gender || null,
      });
      setIssued({ id: answer.prescription_id, at: new Date().toISOString().slice(0, 10) });
      setLines([]);
      setDiagnosis('');
      setAdvice('');
      setAge('');
      setGender('');
      onIssued?.();
    } catch (e) {
      setError(failureText(e, 'Failed to issue the prescription. Please try again.'));
    } finally {
      setIssuing(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="builder-title">
      <Typography id="builder-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        Quick Prescription
      </Typography>
      <Stack spacing={1.5}>
        <MedicineSearch
          value={draft.medicine}
          onChange={(text) => {
            setDraft((d) => typeMedicine(d, text));
            setList(null);
          }}
          onPick={(m) => {
            setDraft((d) => pickMedicine(d, m));
            setList(m.tpg_list);
          }}
        />
        {draft.medicine_id && draft.strengths.length > 0 ? (
          <TextField
            select
            required
            label="Strength"
            value={draft.strength}
            onChange={(e) => setDraft((d) => ({ ...d, strength: e.target.value }))}
            helperText={draft.dosage_form ?? undefined}
          >
            {draft.strengths.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField label="Strength (optional)" placeholder="e.g. 500 mg" value={draft.strength} onChange={(e) => setDraft((d) => ({ ...d, strength: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
        )}
        {note && (
          <Alert severity={note.severity} data-testid="guideline-note">
            {note.text}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField fullWidth required label="Dosage" placeholder="e.g. 1 tablet" value={draft.dosage} onChange={(e) => setDraft((d) => ({ ...d, dosage: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
          <TextField
            fullWidth
            select
            label="Frequency"
            value={draft.frequency}
            onChange={(e) => {
              const frequency = e.target.value as Frequency;
              setDraft((d) => ({ ...d, frequency, custom_schedule: frequency === 'custom' ? d.custom_schedule : '' }));
            }}
          >
            {FREQUENCIES.map((f) => (
              <MenuItem key={f} value={f}>
                {FREQUENCY_LABELS[f]}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {draft.frequency === 'custom' && (
          <TextField label="Custom schedule" placeholder="e.g. every 6 hours" value={draft.custom_schedule} onChange={(e) => setDraft((d) => ({ ...d, custom_schedule: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
        )}
        <Stack direction="row" spacing={1.5}>
          <TextField
            label="Duration"
            type="number"
            value={Number.isNaN(draft.duration_value) ? '' : draft.duration_value}
            onChange={(e) => setDraft((d) => ({ ...d, duration_value: e.target.value === '' ? Number.NaN : Number(e.target.value) }))}
            slotProps={{ htmlInput: { min: 1, max: 365, step: 1 } }}
            sx={{ flex: 1 }}
          />
          <TextField select label="Unit" value={draft.duration_unit} onChange={(e) => setDraft((d) => ({ ...d, duration_unit: e.target.value as DurationUnit }))} sx={{ flex: 1 }}>
            {DURATION_UNITS.map((u) => (
              <MenuItem key={u} value={u}>
                {u[0]!.toUpperCase() + u.slice(1)}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <TextField label="Instructions (optional)" placeholder="e.g. after food" value={draft.instructions} onChange={(e) => setDraft((d) => ({ ...d, instructions: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <Button variant="outlined" startIcon={<AddOutlined />} onClick={add} disabled={!canAddLine(draft) || blocked}>
          Add
        </Button>
      </Stack>

      <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
        This session ({lines.length})
      </Typography>
      {lines.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No medicines added yet.
        </Typography>
      ) : (
        <List dense aria-label="Prescription lines" data-testid="session-lines">
          {lines.map((line, i) => (
            <ListItem
              key={`${line.medicine}-${i}`}
              divider
              sx={{ px: 0 }}
              secondaryAction={
                <IconButton edge="end" aria-label={`Remove ${line.medicine}`} onClick={() => setLines((l) => l.filter((_, j) => j !== i))} disabled={issuing}>
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <Box sx={{ pr: 5, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {lineLabel(line)} · {line.dosage}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {line.frequency === 'custom' ? (line.custom_schedule ?? 'Custom') : FREQUENCY_LABELS[line.frequency]} · {line.duration_value} {line.duration_unit}
                  {line.instructions ? ` · ${line.instructions}` : ''} · added {line.addedAt}
                </Typography>
              </Box>
            </ListItem>
          ))}
        </List>
      )}
      {lines.length > 0 && (
        <Stack spacing={1.5} sx={{ mt: 1.5 }}>
          <Stack direction="row" spacing={1.5}>
            <TextField label="Patient age (years)" type="number" value={age} onChange={(e) => setAge(e.target.value)} slotProps={{ htmlInput: { min: 0, max: 130, step: 1 } }} sx={{ flex: 1 }} />
            <TextField select label="Patient gender" value={gender} onChange={(e) => setGender(e.target.value as Gender | '')} sx={{ flex: 1 }}>
              <MenuItem value="">Not given</MenuItem>
              {GENDERS.map(([value, label]) => (
                <MenuItem key={value} value={value}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField label="Provisional diagnosis (optional)" value={diagnosis} onChange={(e) => setDiagnosis(e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
          <TextField label="Advice (optional)" value={advice} onChange={(e) => setAdvice(e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
          <Button variant="contained" onClick={() => void issue()} disabled={issuing}>
            {issuing ? 'Issuing...' : 'Issue Prescription'}
          </Button>
        </Stack>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
      {issued && (
        <Alert severity="success" sx={{ mt: 1.5 }} action={<DownloadButton url={`/api/v1/prescriptions/${encodeURIComponent(issued.id)}/pdf`} name={`prescription-${issued.at}.pdf`} label="Download the issued prescription as PDF" />}>
          Prescription issued and shared with the patient.
        </Alert>
      )}
    </Box>
  );
}
