import { ERASED_VALUE, RECORD_TEXTS, invalid, recordedNotesChoices, type ConsultationNotesFields, type ConsultationNotesInput, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';
import type { AppointmentFacts } from '../consultations/consultation';
import { asTheDoctor, openForRecords } from './rules';

export type NotesEvent = DomainEventOf<'ConsultationNotesSaved'>;
export type NotesState = { status: 'none' } | { status: 'saved'; patient_id: string; final_saved: boolean; latest_draft: boolean; latest: ConsultationNotesFields };
export type NotesCommand = {
  type: 'SaveConsultationNotes';
  /**
   * `account_name`: the patient's name on their account (null when unknown or erased), which a final save that leaves
   * the patient name out takes when no save so far has named the patient (the in-call panel sends only its text).
   */
  data: {
    actor_id: string;
    appointment: AppointmentFacts | null;
    notes: ConsultationNotesInput;
    account_name: string | null;
    /** The appointment's consultation has started (its stream exists): its notes stay writable (rules.ts, openForRecords). */
    consultation_held: boolean;
  };
};

const TEXT_FIELDS = ['patient_name', 'patient_ref', 'chief_complaint', 'clinical_assessment', 'treatment_plan', 'follow_up_instructions', 'additional_notes'] as const;
const filled = (value: string | null) => value !== null && value.trim() !== '';
const clean = (value: string | null) => (filled(value) ? value!.trim() : null);

/** Nothing saved yet: no text, the seeds' defaults (priority medium, follow-up no), no template. */
export const NO_NOTES: ConsultationNotesFields = {
  patient_name: null,
  patient_ref: null,
  chief_complaint: null,
  clinical_assessment: null,
  treatment_plan: null,
  follow_up_instructions: null,
  additional_notes: null,
  priority_level: 'medium',
  follow_up_required: 'no',
  template: null,
};

/** The fields an event recorded, as the base of the next save (text whose key was destroyed is gone, not kept). */
function fieldsOf(data: NotesEvent['data']): ConsultationNotesFields {
  const text = (v: string | null) => (v === ERASED_VALUE ? null : v);
  return {
    patient_name: text(data.patient_name),
    patient_ref: text(data.patient_ref),
    chief_complaint: text(data.chief_complaint),
    clinical_assessment: text(data.clinical_assessment),
    treatment_plan: text(data.treatment_plan),
    follow_up_instructions: text(data.follow_up_instructions),
    additional_notes: text(data.additional_notes),
    ...recordedNotesChoices(data),
  };
}

/**
 * A save merged into the notes saved before: a field the save leaves out (undefined) keeps its saved value; an explicit
 * null or blank text clears it; text replaces it (trimmed). The request's `patient_id` is the notes' `patient_ref`.
 */
export function mergeNotes(saved: ConsultationNotesFields, save: ConsultationNotesInput): ConsultationNotesFields {
  const text = (given: string | null | undefined, kept: string | null) => (given === undefined ? kept : clean(given));
  return {
    patient_name: text(save.patient_name, saved.patient_name),
    patient_ref: text(save.patient_id, saved.patient_ref),
    chief_complaint: text(save.chief_complaint, saved.chief_complaint),
    clinical_assessment: text(save.clinical_assessment, saved.clinical_assessment),
    treatment_plan: text(save.treatment_plan, saved.treatment_plan),
    follow_up_instructions: text(save.follow_up_instructions, saved.follow_up_instructions),
    additional_notes: text(save.additional_notes, saved.additional_notes),
    priority_level: save.priority_level ?? saved.priority_level,
    follow_up_required: save.follow_up_required ?? saved.follow_up_required,
    template: save.template === undefined ? saved.template : save.template,
  };
}

/**
 * A consultation's notes (stream `consultation_notes-<appointment_id>`): only the appointment's doctor writes them.
 * Each save merges into the latest one (draft or final; see mergeNotes), so the in-call panel's text saved after the
 * modal keeps the modal's other fields, and each event holds the whole notes. Seed 001 §5, on the merged notes: Save as
 * Draft needs any one text field; Save Notes needs the patient name and a chief complaint or a clinical assessment.
 * Every save is kept; the latest final one is what the patient reads.
 */
export const notesDecider: Decider<NotesState, NotesCommand, NotesEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => ({
    status: 'saved',
    patient_id: event.data.patient_id,
    final_saved: (state.status === 'saved' && state.final_saved) || !event.data.is_draft,
    latest_draft: event.data.is_draft,
    latest: fieldsOf(event.data),
  }),
  parties: (state) => (state.status === 'saved' ? { patient: state.patient_id } : {}),
  decide: ({ data }, state) => {
    const appointment = asTheDoctor(data.appointment, data.actor_id, RECORD_TEXTS.notesNotAllowed);
    openForRecords(appointment, data.consultation_held);
    // Left out (the in-call panel), the notes keep their state: a draft stays one; final notes or none are saved final.
    const is_draft = data.notes.is_draft ?? (state.status === 'saved' && state.latest_draft);
    const merged = mergeNotes(state.status === 'saved' ? state.latest : NO_NOTES, data.notes);
    // A final save that does not write the name (the in-call panel's) names the patient only where nobody is named yet:
    // never over a name a save wrote, and never where a save cleared it on purpose (the modal sends null then).
    const unnamed = !is_draft && data.notes.patient_name === undefined && !filled(merged.patient_name);
    const n = unnamed ? { ...merged, patient_name: clean(data.account_name) } : merged;
    if (is_draft && !TEXT_FIELDS.some((f) => filled(n[f]))) throw invalid(RECORD_TEXTS.notesDraftEmpty);
    if (!is_draft && !(filled(n.patient_name) && (filled(n.chief_complaint) || filled(n.clinical_assessment)))) throw invalid(RECORD_TEXTS.notesFinalIncomplete);
    return [{ type: 'ConsultationNotesSaved', data: { appointment_id: appointment.appointment_id, patient_id: appointment.patient_id, doctor_id: appointment.doctor_id, is_draft, ...n } }];
  },
};
