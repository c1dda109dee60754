import { Box, Button, IconButton, List, ListItem, MenuItem, Stack, TextField, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { FREQUENCY_LABELS } from '@telemed/contracts/record-constants';
import { GENDERS, lineLabel, type Gender, type SessionLine } from './rules';
import type { PrescriptionParticulars } from './usePrescriptionBuilder';

/** The lines added in this session, each with its remove button (disabled while issuing). */
export function SessionLines({ lines, issuing, onRemove }: { lines: SessionLine[]; issuing: boolean; onRemove(index: number): void }) {
  return (
    <>
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
                <IconButton edge="end" aria-label={`Remove ${line.medicine}`} onClick={() => onRemove(i)} disabled={issuing}>
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
  const { particulars, onParticular, issuing } = props;
  return (
    <Stack spacing={1.5} sx={{ mt: 1.5 }}>
      <Stack direction="row" spacing={1.5}>
        <TextField label="Patient age (years)" type="number" value={particulars.age} onChange={(e) => onParticular('age', e.target.value)} slotProps={{ htmlInput: { min: 0, max: 130, step: 1 } }} sx={{ flex: 1 }} />
        <TextField select label="Patient gender" value={particulars.gender} onChange={(e) => onParticular('gender', e.target.value as Gender | '')} sx={{ flex: 1 }}>
          <MenuItem value="">Not given</MenuItem>
          {GENDERS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField label="Provisional diagnosis (optional)" value={particulars.diagnosis} onChange={(e) => onParticular('diagnosis', e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <TextField label="Advice (optional)" value={particulars.advice} onChange={(e) => onParticular('advice', e.target.value)} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <Button variant="contained" onClick={props.onIssue} disabled={issuing}>
        {issuing ? 'Issuing...' : 'Issue Prescription'}
      </Button>
    </Stack>
  );
}
