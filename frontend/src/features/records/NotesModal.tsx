import { useEffect, useState } from 'react';
import { Button, MenuItem, Stack, TextField } from '@mui/material';
import { RECORD_TEXTS } from '@telemed/contracts/record-constants';
import { recordsApi } from './api';
import { NOTE_TEMPLATE_TEXTS, applyTemplate, canSaveDraft, canSaveNotes, emptyNotes, notesChanges, savedNotesFields, type FollowUp, type NotesFields, type Priority, type TemplateId } from './rules';
import { RecordsDialog, useFailure } from './RecordsDialog';

const PRIORITIES: Array<[Priority, string]> = [
  ['low', 'Low'],
  ['medium', 'Medium'],
  ['high', 'High'],
  ['urgent', 'Urgent'],
];
const FOLLOW_UPS: Array<[FollowUp, string]> = [
  ['no', 'No'],
  ['routine', 'Routine'],
  ['urgent', 'Urgent'],
];

/**
 * Seed 001 §2 consultation notes modal (doctor): the fields, a template (fills only empty fields; Urgent Care and
 * Follow-up Visit set priority and follow-up), Save as Draft (any text) and Save Notes (patient name plus a chief
 * complaint or clinical assessment), saved with PUT /consultations/{id}/notes.
 */
export function NotesModal(props: { open: boolean; onClose(): void; onSaved?(isDraft: boolean): void; appointmentId: string; patientName?: string; patientId?: string }) {
  const [fields, setFields] = useState<NotesFields>(() => emptyNotes(props.patientName, props.patientId));
  // What the server held when the modal opened: a save sends only what was edited since (see notesChanges).
  const [from, setFrom] = useState<NotesFields>(() => savedNotesFields(null));
  const [saving, setSaving] = useState<'draft' | 'final' | null>(null);
  const failure = useFailure(RECORD_TEXTS.saveNotesFailed);
  // What was saved before (the in-call panel's notes, a draft) is the starting point, so a save never drops it.
  useEffect(() => {
    if (!props.open || !props.appointmentId) return;
    setFrom(savedNotesFields(null));
    let live = true;
    void recordsApi
      .notes(props.appointmentId)
      .then((saved) => {
        if (!live || !saved) return;
        const base = savedNotesFields(saved);
        setFrom(base);
        // The name and ID the modal was given stand in only where no save wrote them.
        setFields((f) => ({ ...base, patient_name: base.patient_name || f.patient_name, patient_id: base.patient_id || f.patient_id }));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [props.open, props.appointmentId]);
  const set = (key: keyof NotesFields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const close = () => {
    failure.clear();
    props.onClose();
  };
  const save = async (isDraft: boolean) => {
    if (isDraft ? !canSaveDraft(fields) : !canSaveNotes(fields)) return;
    setSaving(isDraft ? 'draft' : 'final');
    // Only the fields edited here since it opened (blank ones as null, which clears them): a field left out keeps what
    // the server holds, so text the in-call panel saved meanwhile is not overwritten with this modal's older copy.
    const saved = await failure.run(() => recordsApi.saveNotes(props.appointmentId, notesChanges(fields, from, isDraft)));
    setSaving(null);
    if (!saved) return;
    props.onSaved?.(isDraft);
    if (!isDraft) setFields(emptyNotes(props.patientName, props.patientId));
    props.onClose();
  };
  const busy = saving !== null;
  const text = (key: keyof NotesFields, label: string, rows = 2) => (
    <TextField label={label} multiline minRows={rows} value={fields[key] ?? ''} onChange={set(key)} disabled={busy} slotProps={{ htmlInput: { maxLength: 4000 } }} />
  );
  return (
    <RecordsDialog
      open={props.open}
      title="Consultation Notes"
      titleId="notes-title"
      maxWidth="md"
      busy={busy}
      error={failure.error}
      onClose={close}
      actions={
        <>
          <Button variant="outlined" onClick={() => void save(true)} disabled={busy || !canSaveDraft(fields)}>
            {saving === 'draft' ? 'Saving...' : 'Save as Draft'}
          </Button>
          <Button variant="contained" onClick={() => void save(false)} disabled={busy || !canSaveNotes(fields)}>
            {saving === 'final' ? 'Saving...' : 'Save Notes'}
          </Button>
        </>
      }
    >
      <TextField
        select
        label="Template"
        value={fields.template ?? ''}
        onChange={(e) => setFields((f) => applyTemplate(f, e.target.value as TemplateId))}
        disabled={busy}
        helperText="A template fills only the fields that are empty"
      >
        {(Object.keys(NOTE_TEMPLATE_TEXTS) as TemplateId[]).map((id) => (
          <MenuItem key={id} value={id}>
            {NOTE_TEMPLATE_TEXTS[id].name}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth required label="Patient name" value={fields.patient_name} onChange={set('patient_name')} disabled={busy} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label="Patient ID" value={fields.patient_id} onChange={set('patient_id')} disabled={busy} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      {text('chief_complaint', 'Chief complaint')}
      {text('clinical_assessment', 'Clinical assessment', 3)}
      {text('treatment_plan', 'Treatment plan', 3)}
      {text('follow_up_instructions', 'Follow-up instructions')}
      {text('additional_notes', 'Additional notes')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth select label="Priority level" value={fields.priority_level} onChange={(e) => setFields((f) => ({ ...f, priority_level: e.target.value as Priority }))} disabled={busy}>
          {PRIORITIES.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        <TextField fullWidth select label="Follow-up required" value={fields.follow_up_required} onChange={(e) => setFields((f) => ({ ...f, follow_up_required: e.target.value as FollowUp }))} disabled={busy}>
          {FOLLOW_UPS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {label}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
    </RecordsDialog>
  );
}
