import type { Dispatch, SetStateAction } from 'react';
import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import type { MedicineSuggestion } from '@telemed/contracts';
import { DURATION_UNITS, FREQUENCIES, FREQUENCY_LABELS } from '@telemed/contracts/record-constants';
import { MedicineSearch } from './MedicineSearch';
import { canAddLine, type DurationUnit, type Frequency, type LineDraft } from './rules';

/** A picked medicine's strengths as the catalogue lists them, or any strength for a free-text medicine. */
function StrengthField({ draft, setDraft }: { draft: LineDraft; setDraft: Dispatch<SetStateAction<LineDraft>> }) {
  if (draft.medicine_id && draft.strengths.length > 0)
    return (
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
    );
  return <TextField label="Strength (optional)" placeholder="e.g. 500 mg" value={draft.strength} onChange={(e) => setDraft((d) => ({ ...d, strength: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />;
}

/**
 * The line being written (seed 001 §2): medicine with suggestions, strength, dosage, frequency (custom schedule only
 * for custom), duration and unit, optional instructions, and Add, disabled while the line is incomplete or blocked.
 */
export function PrescriptionLineForm(props: {
  draft: LineDraft;
  setDraft: Dispatch<SetStateAction<LineDraft>>;
  note: { severity: 'error' | 'info'; text: string } | null;
  blocked: boolean;
  onType(text: string): void;
  onPick(medicine: MedicineSuggestion): void;
  onAdd(): void;
}) {
  const { draft, setDraft, note, blocked } = props;
  return (
    <Stack spacing={1.5}>
      <MedicineSearch value={draft.medicine} onChange={props.onType} onPick={props.onPick} />
      <StrengthField draft={draft} setDraft={setDraft} />
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
      <Button variant="outlined" startIcon={<AddOutlined />} onClick={props.onAdd} disabled={!canAddLine(draft) || blocked}>
        Add
      </Button>
    </Stack>
  );
}
