import { useEffect, useRef, useState } from 'react';
import { Box, Button, MenuItem, Stack, TextField } from '@mui/material';
import { useT, type MessageId } from '../../i18n/useT';
import { recordsApi } from './api';
import { NOTE_TEMPLATE_TEXTS, applyTemplate, canSaveDraft, canSaveNotes, emptyNotes, notesChanges, notesKey, savedNotesFields, type FollowUp, type NotesFields, type Priority, type TemplateId } from './rules';
import { RecordsDialog, useFailure } from './RecordsDialog';
import { AutosaveStatus, useAutosave } from '../../lib/autosave';
import { FollowUpOfferFields } from './FollowUpOfferFields';
import { DEFAULT_FOLLOW_UP_OFFER, followUpOfferBody } from './followUpOffer';

const PRIORITIES: Array<[Priority, MessageId]> = [
  ['low', 'records.priorityLow'],
  ['medium', 'records.priorityMedium'],
  ['high', 'records.priorityHigh'],
  ['urgent', 'records.priorityUrgent'],
];
const FOLLOW_UPS: Array<[FollowUp, MessageId]> = [
  ['no', 'records.followUpNo'],
  ['routine', 'records.followUpRoutine'],
  ['urgent', 'records.followUpUrgent'],
];

/**
 * Seed 001 §2 consultation notes modal (doctor): the fields, a template (fills only empty fields; Urgent Care and
 * Follow-up Visit set priority and follow-up), Save as Draft (any text) and Save Notes (patient name plus a chief
 * complaint or clinical assessment), saved with PUT /consultations/{id}/notes. The writing saves itself as a draft a
 * moment after the doctor stops typing ('Saving…', 'Saved'); closing saves what is left, and asks only if it cannot be.
 */
export function NotesModal(props: { open: boolean; onClose(): void; onSaved?(isDraft: boolean): void; appointmentId: string; patientName?: string; patientId?: string }) {
  const t = useT();
  const [fields, setFields] = useState<NotesFields>(() => emptyNotes(props.patientName, props.patientId));
  const fieldsNow = useRef(fields);
  fieldsNow.current = fields;
  // What the server holds (loaded when the modal opened, then each save): a save sends only what was edited since (see
  // notesChanges), so text the in-call panel saved meanwhile is not overwritten with this modal's older copy.
  const from = useRef<NotesFields>(savedNotesFields(null));
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState<'draft' | 'final' | null>(null);
  const failure = useFailure('records.saveNotesFailed');
  const { offer, setOffer, followUpNeeded, offerBody } = useFollowUpOffer(fields);
  const canSaveFinal = canSaveNotes(fields) && (!followUpNeeded || offerBody !== null);
  // The doctor's writing saves itself as a draft (never reaching the patient) a moment after they stop typing.
  const draft = useAutosave({
    value: fields,
    keyOf: notesKey,
    canSave: canSaveDraft,
    save: async (snapshot) => {
      await recordsApi.saveNotes(props.appointmentId, notesChanges(snapshot, from.current, true));
      from.current = snapshot;
    },
    enabled: props.open && loaded && saving === null,
  });
  const { reset } = draft;
  // What was saved before (the in-call panel's notes, a draft) is the starting point, so a save never drops it.
  useEffect(() => {
    if (!props.open || !props.appointmentId) return;
    from.current = savedNotesFields(null);
    setLoaded(false);
    let live = true;
    const show = (f: NotesFields) => {
      setFields(f);
      reset(f);
      setLoaded(true);
    };
    void recordsApi
      .notes(props.appointmentId)
      .then((saved) => {
        if (!live) return;
        // None saved yet: what was given (and anything typed meanwhile) stays.
        if (!saved) return setLoaded(true);
        const base = savedNotesFields(saved);
        from.current = base;
        // The name and ID the modal was given stand in only where no save wrote them.
        const given = fieldsNow.current;
        show({ ...base, patient_name: base.patient_name || given.patient_name, patient_id: base.patient_id || given.patient_id });
      })
      .catch(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [props.open, props.appointmentId, reset]);
  const set = (key: keyof NotesFields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const close = () => {
    failure.clear();
    props.onClose();
  };
  const save = async (isDraft: boolean) => {
    if (isDraft ? !canSaveDraft(fields) : !canSaveFinal) return;
    setSaving(isDraft ? 'draft' : 'final');
    // After the draft saving itself, if one is under way (it may have just sent these fields).
    await draft.settled();
    const changes = notesChanges(fields, from.current, isDraft);
    const body = !isDraft && followUpNeeded && offerBody ? { ...changes, ...offerBody } : changes;
    const saved = await failure.run(() => recordsApi.saveNotes(props.appointmentId, body));
    setSaving(null);
    if (!saved) return;
    from.current = fields;
    const next = isDraft ? fields : emptyNotes(props.patientName, props.patientId);
    setFields(next);
    reset(next);
    props.onSaved?.(isDraft);
    props.onClose();
  };
  const busy = saving !== null;
  const text = (key: keyof NotesFields, label: MessageId, rows = 2) => (
    <TextField label={t(label)} multiline minRows={rows} value={fields[key] ?? ''} onChange={set(key)} disabled={busy} slotProps={{ htmlInput: { maxLength: 4000 } }} />
  );
  return (
    <RecordsDialog
      open={props.open}
      title={t('records.notesTitle')}
      titleId="notes-title"
      maxWidth="md"
      busy={busy}
      error={failure.error}
      onClose={close}
      dirty={draft.dirty}
      beforeClose={draft.saveNow}
      summary={
        <Box sx={{ mr: 'auto', pl: 1 }}>
          <AutosaveStatus state={draft.state} dirty={draft.dirty} canSave={canSaveDraft(fields)} />
        </Box>
      }
      actions={
        <>
          <Button variant="outlined" onClick={() => void save(true)} disabled={busy || !canSaveDraft(fields)}>
            {saving === 'draft' ? t('records.saving') : t('records.saveAsDraft')}
          </Button>
          <Button variant="contained" onClick={() => void save(false)} disabled={busy || !canSaveFinal}>
            {saving === 'final' ? t('records.saving') : t('records.saveNotes')}
          </Button>
        </>
      }
    >
      <TextField
        select
        label={t('records.template')}
        value={fields.template ?? ''}
        onChange={(e) => setFields((f) => applyTemplate(f, e.target.value as TemplateId, t))}
        disabled={busy}
        helperText={t('records.templateHelp')}
      >
        {(Object.keys(NOTE_TEMPLATE_TEXTS) as TemplateId[]).map((id) => (
          <MenuItem key={id} value={id}>
            {t(NOTE_TEMPLATE_TEXTS[id].name)}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth required label={t('records.patientName')} value={fields.patient_name} onChange={set('patient_name')} disabled={busy} slotProps={{ htmlInput: { maxLength: 200 } }} />
        <TextField fullWidth label={t('records.patientId')} value={fields.patient_id} onChange={set('patient_id')} disabled={busy} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      {text('chief_complaint', 'records.chiefComplaint')}
      {text('clinical_assessment', 'records.clinicalAssessment', 3)}
      {text('treatment_plan', 'records.treatmentPlan', 3)}
      {text('follow_up_instructions', 'records.followUpInstructions')}
      {text('additional_notes', 'records.additionalNotes')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth select label={t('records.priorityLevel')} value={fields.priority_level} onChange={(e) => setFields((f) => ({ ...f, priority_level: e.target.value as Priority }))} disabled={busy}>
          {PRIORITIES.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {t(label)}
            </MenuItem>
          ))}
        </TextField>
        <TextField fullWidth select label={t('records.followUpRequired')} value={fields.follow_up_required} onChange={(e) => setFields((f) => ({ ...f, follow_up_required: e.target.value as FollowUp }))} disabled={busy}>
          {FOLLOW_UPS.map(([value, label]) => (
            <MenuItem key={value} value={value}>
              {t(label)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {followUpNeeded && <FollowUpOfferFields offer={offer} onChange={setOffer} disabled={busy} />}
    </RecordsDialog>
  );
}

/** A follow-up required: the one the patient may book (issue 35), sent with the final save. */
function useFollowUpOffer(fields: NotesFields) {
  const [offer, setOffer] = useState(DEFAULT_FOLLOW_UP_OFFER);
  return { offer, setOffer, followUpNeeded: fields.follow_up_required !== 'no', offerBody: followUpOfferBody(offer) };
}
