import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Divider, Grid, List, ListItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type { RecordsResponse } from '@telemed/contracts';
import { recordsApi } from './api';
import { useAppointmentId, useAppointmentPatient, usePatientRecords } from './hooks';
import { PrescriptionBuilder } from './PrescriptionBuilder';
import { DownloadButton } from './RecordsTiles';
import { NOTES_SAVED_MS, RECENT_SHOWN } from './rules';
import { frequencyText, reportTypeText } from './texts';
import { AutosaveStatus, useAutosave } from '../../lib/autosave';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** '20 Nov 2026' in the chosen language: a report's calendar date, or the day of an instant. */
const SHORT_DATE = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/**
 * Seed 001 §2: free text and Save Notes (disabled while blank), 'Notes saved! ✅' for 2 s; saved into the consultation's
 * notes. The text also saves itself as a draft a moment after the doctor stops typing, and what is left when the call
 * ends or the page is left, so a dropped call or a closed tab loses at most a couple of seconds of it.
 */
export function NotesPanel({ appointmentId }: { appointmentId: string }) {
  const t = useT();
  const explain = useErrorText();
  const [text, setText] = useState('');
  const typed = useRef(false);
  const [loaded, setLoaded] = useState(false);
  // The notes' state before this panel saved a draft: none or final notes are saved final by Save Notes, as before.
  const finalBefore = useRef(true);
  const draftSaved = useRef(false);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // The failure itself, said in the language shown.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const draft = useAutosave({
    value: text,
    keyOf: (t) => t.trim(),
    canSave: (t) => t.trim() !== '',
    save: async (t) => {
      // A draft never reaches the patient; the other fields of the notes keep what was saved (see saveNotes below).
      await recordsApi.saveNotes(appointmentId, { clinical_assessment: t.trim(), is_draft: true });
      draftSaved.current = true;
    },
    enabled: loaded && !saving,
    saveOnUnmount: true,
  });
  const { reset } = draft;
  useUnsavedChanges(draft.dirty);
  // The panel edits the clinical assessment: it starts from the one saved so far (a call joined again), unless typed in.
  useEffect(() => {
    let live = true;
    void recordsApi
      .notes(appointmentId)
      .then((notes) => {
        if (!live) return;
        finalBefore.current = !notes?.is_draft;
        if (notes?.clinical_assessment && !typed.current) {
          setText(notes.clinical_assessment);
          reset(notes.clinical_assessment);
        }
      })
      .catch(() => {})
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [appointmentId, reset]);
  const save = async () => {
    if (text.trim() === '') return;
    setSaving(true);
    setFailure(null);
    try {
      await draft.settled();
      // The panel's text is the consultation's clinical assessment (the notes modal's field), and it sends only that:
      // the server merges it into the notes saved before, so the modal's fields (the patient name and ID among them)
      // keep their values, and the notes keep their state (a draft stays a draft; final notes, or none yet, are saved
      // final, naming the patient by their account where no save has named them). A draft this panel saved itself
      // over none or final notes does not count: those notes are saved final, as they would have been.
      const body = finalBefore.current && draftSaved.current ? { clinical_assessment: text.trim(), is_draft: false } : { clinical_assessment: text.trim() };
      await recordsApi.saveNotes(appointmentId, body);
      reset(text);
      setSaved(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setSaved(false), NOTES_SAVED_MS);
    } catch (e) {
      setFailure({ error: e });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Box component="section" aria-labelledby="call-notes-title">
      <Typography id="call-notes-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        {t('records.notesHeading')}
      </Typography>
      <TextField fullWidth multiline minRows={4} label={t('records.consultationNotesLabel')} value={text} onChange={(e) => {
          typed.current = true;
          setText(e.target.value);
        }} slotProps={{ htmlInput: { maxLength: 4000 } }} />
      <Stack direction="row" spacing={1.5} sx={{ mt: 1, alignItems: 'center' }}>
        <Button variant="contained" onClick={() => void save()} disabled={saving || text.trim() === ''}>
          {saving ? t('records.saving') : t('records.saveNotes')}
        </Button>
        {saved ? (
          <Typography role="status" color="success.main" data-testid="notes-saved">
            {t('records.notesSavedCheck')}
          </Typography>
        ) : (
          <AutosaveStatus state={draft.state} dirty={draft.dirty} canSave={text.trim() !== ''} />
        )}
      </Stack>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {explain(failure.error, 'records.saveNotesFailed')}
        </Alert>
      )}
    </Box>
  );
}

/** The patient's real reports and previous prescriptions: 2 recent of each, all when expanded (seed 001 §2). */
export function PatientHistory({ records }: { records: RecordsResponse }) {
  const t = useT();
  const f = useFormat();
  const [expanded, setExpanded] = useState(false);
  const reports = expanded ? records.reports : records.reports.slice(0, RECENT_SHOWN);
  const previous = records.prescriptions.flatMap((p) => p.medicines.map((m, i) => ({ key: `${p.id}-${i}`, ...m, date: p.issued_at, pdf: p.pdf_url })));
  const shownPrevious = expanded ? previous : previous.slice(0, RECENT_SHOWN);
  const more = records.reports.length > RECENT_SHOWN || previous.length > RECENT_SHOWN;
  return (
    <Box component="section" aria-labelledby="patient-history-title">
      <Typography id="patient-history-title" variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
        {t('records.patientReports')}
      </Typography>
      {reports.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('records.noReportsUploaded')}
        </Typography>
      ) : (
        <List dense aria-label={t('records.patientReportsLabel')} data-testid="patient-reports">
          {reports.map((r) => (
            <ListItem key={r.id} disableGutters sx={{ gap: 1, flexWrap: 'wrap' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {reportTypeText(t, r.report_type, r.report_type_name)}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {f.date(r.report_date, SHORT_DATE)}
                  {r.medical_facility ? ` · ${r.medical_facility}` : ''}
                </Typography>
              </Box>
              {r.files[0] && <DownloadButton url={r.files[0].download_url} name={r.files[0].file_name} label={t('records.downloadFile', { name: r.files[0].file_name })} />}
            </ListItem>
          ))}
        </List>
      )}
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mt: 1 }}>
        {t('records.previousPrescriptions')}
      </Typography>
      {shownPrevious.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('records.noPreviousPrescriptions')}
        </Typography>
      ) : (
        <List dense aria-label={t('records.previousPrescriptionsLabel')} data-testid="previous-prescriptions">
          {shownPrevious.map((m) => (
            <ListItem key={m.key} disableGutters>
              <Box>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {m.medicine} · {m.dosage}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {frequencyText(t, m.frequency)} · {f.date(m.date, SHORT_DATE)}
                </Typography>
              </Box>
            </ListItem>
          ))}
        </List>
      )}
      {more && (
        <Button size="small" onClick={() => setExpanded((e) => !e)} aria-expanded={expanded}>
          {expanded ? t('records.showRecentOnly') : t('records.showAll')}
        </Button>
      )}
    </Box>
  );
}

/** Seed 001 §2: the doctor's Prescriptions & Notes panel in the call, with the quick prescription builder and the patient's records. */
export function CallRecordsPanel() {
  const t = useT();
  const appointmentId = useAppointmentId();
  const patient = useAppointmentPatient(appointmentId);
  const records = usePatientRecords(patient.data?.patientId);
  const queryClient = useQueryClient();
  if (!appointmentId) return null;
  return (
    <Paper variant="outlined" sx={{ mt: 2, p: { xs: 1.5, sm: 2 } }} component="section" aria-labelledby="records-panel-title" data-testid="call-records-panel">
      <Typography id="records-panel-title" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {t('records.callPanelTitle')}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <NotesPanel appointmentId={appointmentId} />
          <Divider sx={{ my: 2 }} />
          {records.isLoading || patient.isLoading ? (
            <CircularProgress size={24} aria-label={t('records.loadingPatientRecords')} />
          ) : records.data ? (
            <PatientHistory records={records.data} />
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('records.patientRecordsFailed')}
            </Typography>
          )}
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <PrescriptionBuilder appointmentId={appointmentId} onIssued={() => void queryClient.invalidateQueries({ queryKey: ['records', 'patient'] })} />
        </Grid>
      </Grid>
    </Paper>
  );
}
