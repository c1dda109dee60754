import { Box, Button, IconButton, List, ListItem, MenuItem, Stack, TextField, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { GENDERS, lineLabel, type Gender, type SessionLine } from './rules';
import { DURATION_UNIT_TEXT, FREQUENCY_TEXT } from './texts';
import type { PrescriptionParticulars } from './usePrescriptionBuilder';

/** The lines added in this session, each with its remove button (disabled while issuing). */
export function SessionLines({ lines, issuing, onRemove }: { lines: SessionLine[]; issuing: boolean; onRemove(index: number): void }) {
  const t = useT();
  const f = useFormat();
  return (
    <>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
        {t('records.thisSession', { count: lines.length })}
      </Typography>
      {lines.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('records.noMedicinesYet')}
        </Typography>
      ) : (
        <List dense aria-label={t('records.prescriptionLines')} data-testid="session-lines">
          {lines.map((line, i) => (
            <ListItem
              key={`${line.medicine}-${i}`}
              divider
              sx={{ px: 0 }}
              secondaryAction={
                <IconButton edge="end" aria-label={t('records.removeItem', { name: line.medicine })} onClick={() => onRemove(i)} disabled={issuing}>
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <Box sx={{ pr: 5, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {lineLabel(line)} · {line.dosage}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {line.frequency === 'custom' && line.custom_schedule ? line.custom_schedule : t(FREQUENCY_TEXT[line.frequency])} ·{' '}
                  {t(DURATION_UNIT_TEXT[line.duration_unit].count, { count: line.duration_value })}
                  {line.instructions ? ` · ${line.instructions}` : ''} · {t('records.addedAt', { time: f.timeOfDay(line.addedAt) })}
                </Typography>
              </Box>
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}

/** The patient's age and gender, the provisional diagnosis and advice, and Issue Prescription. */
export function IssuePrescriptionForm(props: {
  particulars: PrescriptionParticulars;
  onParticular<K extends keyof PrescriptionParticulars>(key: K, value: PrescriptionParticulars[K]): void;
  issuing: boolean;
  onIssue(): void;
}) {
  const t = useT();
  const { particulars, onParticular, issuing } = props;
  return (
    <Stack spacing={1.5} sx={{ mt: 1.5 }}>
      <Stack direction="row" spacing={1.5}>
        <TextField label={t('records.patientAge')} type="number" value={particulars.age} onChange={(e) => onParticular('age', e.target.value)} slotProps={{ htmlInput: { min: 0, max: 130, step: 1 } }} sx={{ flex: 1 }} />
        <TextField select label={t('records.patientGender')} value={particulars.gender} onChange={(e) => onParticular('gender', e.target.value as Gender | '')} sx={{ flex: 1 }}>
          <MenuItem value="">{t('records.notGiven')}</MenuItem>
          {GENDERS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {t(label)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField label={t('records.diagnosisOptional')} value={particulars.diagnosis} onChange={(e) => onParticular('diagnosis', e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label={t('records.adviceOptional')} value={particulars.advice} onChange={(e) => onParticular('advice', e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <Button variant="contained" onClick={props.onIssue} disabled={issuing}>
        {issuing ? t('records.issuing') : t('records.issuePrescription')}
      </Button>
    </Stack>
  );
}
