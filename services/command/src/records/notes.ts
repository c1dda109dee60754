import { RECORD_TEXTS, invalid, type ConsultationNotesInput, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';
import type { AppointmentFacts } from '../consultations/consultation';
import { asTheDoctor, openForRecords } from './rules';

export type NotesEvent = DomainEventOf<'ConsultationNotesSaved'>;
export type NotesState = { status: 'none' } | { status: 'saved'; patient_id: string; final_saved: boolean };
export type NotesCommand = { type: 'SaveConsultationNotes'; data: { actor_id: string; appointment: AppointmentFacts | null; notes: ConsultationNotesInput } };

const TEXT_FIELDS = ['patient_name', 'patient_id', 'chief_complaint', 'clinical_assessment', 'treatment_plan', 'follow_up_instructions', 'additional_notes'] as const;
const filled = (value: string | null) => value !== null && value.trim() !== '';
const clean = (value: string | null) => (filled(value) ? value!.trim() : null);

/**
 * A consultation's notes (stream `consultation_notes-<appointment_id>`): only the appointment's doctor writes them.
 * Seed 001 §5: Save as Draft needs any one text field; Save Notes needs the patient name and a chief complaint or a
 * clinical assessment. Every save is kept; the latest final one is what the patient reads.
 */
export const notesDecider: Decider<NotesState, NotesCommand, NotesEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => ({ status: 'saved', patient_id: event.data.patient_id, final_saved: (state.status === 'saved' && state.final_saved) || !event.data.is_draft }),
  parties: (state) => (state.status === 'saved' ? { patient: state.patient_id } : {}),
  decide: ({ data }) => {
    const appointment = asTheDoctor(data.appointment, data.actor_id, RECORD_TEXTS.notesNotAllowed);
    openForRecords(appointment);
    const n = data.notes;
    if (n.is_draft && !TEXT_FIELDS.some((f) => filled(n[f]))) throw invalid(RECORD_TEXTS.notesDraftEmpty);
    if (!n.is_draft && !(filled(n.patient_name) && (filled(n.chief_complaint) || filled(n.clinical_assessment)))) throw invalid(RECORD_TEXTS.notesFinalIncomplete);
    return [
      {
        type: 'ConsultationNotesSaved',
        data: {
          appointment_id: appointment.appointment_id,
          patient_id: appointment.patient_id,
          doctor_id: appointment.doctor_id,
          is_draft: n.is_draft,
          patient_name: clean(n.patient_name),
          patient_ref: clean(n.patient_id),
          chief_complaint: clean(n.chief_complaint),
          clinical_assessment: clean(n.clinical_assessment),
          treatment_plan: clean(n.treatment_plan),
          follow_up_instructions: clean(n.follow_up_instructions),
          additional_notes: clean(n.additional_notes),
          priority_level: n.priority_level,
          follow_up_required: n.follow_up_required,
          template: n.template,
        },
      },
    ];
  },
};
