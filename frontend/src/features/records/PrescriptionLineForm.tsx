import type { Dispatch, SetStateAction } from 'react';
import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import type { MedicineSuggestion } from '@telemed/contracts';
import { DURATION_UNITS, FREQUENCIES } from '@telemed/contracts/record-constants';
import { useT } from '../../i18n/useT';
import { MedicineSearch } from './MedicineSearch';
import { canAddLine, type DurationUnit, type Frequency, type LineDraft } from './rules';
import { DURATION_UNIT_TEXT, FREQUENCY_TEXT } from './texts';
import type { GuidelineNote } from './usePrescriptionBuilder';

/** A picked medicine's strengths as the catalogue lists them, or any strength for a free-text medicine. */
function StrengthField({ draft, setDraft }: { draft: LineDraft; setDraft: Dispatch<SetStateAction<LineDraft>> }) {
  const t = useT();
  if (draft.medicine_id && draft.strengths.length > 0)
    return (
      <TextField
        select
        required
        label={t('records.strength')}
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
  return <TextField label={t('records.strengthOptional')} placeholder={t('records.strengthPlaceholder')} value={draft.strength} onChange={(e) => setDraft((d) => ({ ...d, strength: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />;
}

/**
 * The line being written (seed 001 §2): medicine with suggestions, strength, dosage, frequency (custom schedule only
 * for custom), duration and unit, optional instructions, and Add, disabled while the line is incomplete or blocked.
 */
export function PrescriptionLineForm(props: {
  draft: LineDraft;
  setDraft: Dispatch<SetStateAction<LineDraft>>;
  note: GuidelineNote | null;
  blocked: boolean;
  onType(text: string): void;
  onPick(medicine: MedicineSuggestion): void;
  onAdd(): void;
}) {
  const t = useT();
  const { draft, setDraft, note, blocked } = props;
  return (
    <Stack spacing={1.5}>
      <MedicineSearch value={draft.medicine} onChange={props.onType} onPick={props.onPick} />
      <StrengthField draft={draft} setDraft={setDraft} />
      {note && (
        <Alert severity={note.severity} data-testid="guideline-note">
          {t(note.text, { medicine: note.medicine })}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField fullWidth required label={t('records.dosage')} placeholder={t('records.dosagePlaceholder')} value={draft.dosage} onChange={(e) => setDraft((d) => ({ ...d, dosage: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField
          fullWidth
          select
          label={t('records.frequency')}
          value={draft.frequency}
          onChange={(e) => {
            const frequency = e.target.value as Frequency;
            setDraft((d) => ({ ...d, frequency, custom_schedule: frequency === 'custom' ? d.custom_schedule : '' }));
          }}
        >
          {FREQUENCIES.map((f) => (
            <MenuItem key={f} value={f}>
              {t(FREQUENCY_TEXT[f])}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {draft.frequency === 'custom' && (
        <TextField label={t('records.customSchedule')} placeholder={t('records.customSchedulePlaceholder')} value={draft.custom_schedule} onChange={(e) => setDraft((d) => ({ ...d, custom_schedule: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
      )}
      <Stack direction="row" spacing={1.5}>
        <TextField
          label={t('records.duration')}
          type="number"
          value={Number.isNaN(draft.duration_value) ? '' : draft.duration_value}
          onChange={(e) => setDraft((d) => ({ ...d, duration_value: e.target.value === '' ? Number.NaN : Number(e.target.value) }))}
          slotProps={{ htmlInput: { min: 1, max: 365, step: 1 } }}
          sx={{ flex: 1 }}
        />
        <TextField select label={t('records.unit')} value={draft.duration_unit} onChange={(e) => setDraft((d) => ({ ...d, duration_unit: e.target.value as DurationUnit }))} sx={{ flex: 1 }}>
          {DURATION_UNITS.map((u) => (
            <MenuItem key={u} value={u}>
              {t(DURATION_UNIT_TEXT[u].unit)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField label={t('records.instructionsOptional')} placeholder={t('records.instructionsPlaceholder')} value={draft.instructions} onChange={(e) => setDraft((d) => ({ ...d, instructions: e.target.value }))} slotProps={{ htmlInput: { maxLength: 200 } }} />
      <Button variant="outlined" startIcon={<AddOutlined />} onClick={props.onAdd} disabled={!canAddLine(draft) || blocked}>
        {t('records.add')}
      </Button>
    </Stack>
  );
}
