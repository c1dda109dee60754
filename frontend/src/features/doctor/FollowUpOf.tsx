import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import type { DoctorAppointment } from '@telemed/contracts';
import { recordsApi } from '../records/api';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';

type EarlierConsultation = NonNullable<DoctorAppointment['follow_up_of']>;

const NOTE_FIELDS: Array<['chief_complaint' | 'clinical_assessment' | 'treatment_plan' | 'follow_up_instructions' | 'additional_notes', MessageId]> = [
  ['chief_complaint', 'records.chiefComplaint'],
  ['clinical_assessment', 'records.clinicalAssessment'],
  ['treatment_plan', 'records.treatmentPlan'],
  ['follow_up_instructions', 'records.followUpInstructions'],
  ['additional_notes', 'records.additionalNotes'],
];

/** The earlier consultation's notes, read-only: the context the doctor reads before a follow-up (issue 35). */
function EarlierNotesDialog({ open, earlier, onClose }: { open: boolean; earlier: EarlierConsultation; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const notes = useQuery({ queryKey: ['consultation-notes', earlier.appointment_id], enabled: open, queryFn: () => recordsApi.notes(earlier.appointment_id) });
  const saved = notes.data ?? null;
  const written = saved ? NOTE_FIELDS.filter(([key]) => saved[key]) : [];
  return (
    <Dialog open={open} onClose={onClose} fullWidth fullScreen={phone} maxWidth="sm" aria-labelledby="earlier-notes-title" data-testid="earlier-notes">
      <DialogTitle id="earlier-notes-title">{t('records.earlierNotesTitle', { date: f.longDate(earlier.start_at) })}</DialogTitle>
      <DialogContent dividers>
        {notes.isLoading && <CircularProgress size={20} aria-label={t('records.earlierNotesLoading')} />}
        {notes.isError && <Alert severity="warning">{t('records.earlierNotesFailed')}</Alert>}
        {notes.isSuccess && written.length === 0 && <Typography color="text.secondary">{t('records.earlierNotesNone')}</Typography>}
        <Stack spacing={1.5}>
          {written.map(([key, label]) => (
            <Box key={key}>
              <Typography variant="subtitle2" component="h3">
                {t(label)}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{saved?.[key]}</Typography>
            </Box>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('records.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** 'Follow-up of <date>' on a doctor's request or appointment (issue 35), opening that consultation's notes. */
export function FollowUpOf({ earlier }: { earlier: EarlierConsultation }) {
  const t = useT();
  const f = useFormat();
  const [open, setOpen] = useState(false);
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap', color: 'info.dark' }} data-testid="follow-up-of">
      <EventRepeatOutlined fontSize="small" aria-hidden />
      <Typography variant="body2">{t('doctor.followUpOf', { date: f.longDate(earlier.start_at) })}</Typography>
      <Button size="small" onClick={() => setOpen(true)} sx={{ py: 0 }}>
        {t('doctor.followUpOfNotes')}
      </Button>
      <EarlierNotesDialog open={open} earlier={earlier} onClose={() => setOpen(false)} />
    </Stack>
  );
}
