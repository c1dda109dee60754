import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERROR_CODES, RECORD_TEXTS, type ConsultationNotesInput, type StoredPrescriptionLine } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { notesDecider } from './notes';
import { prescriptionDecider, type IssuePrescription } from './prescription';
import type { AppointmentFacts } from '../consultations/consultation';

const appointment: AppointmentFacts = { appointment_id: 'a1', patient_id: 'p1', doctor_id: 'd1', start: '2026-11-25T04:30:00Z', end: '2026-11-25T05:00:00Z', status: 'confirmed' };
const line = (generic: string, list: StoredPrescriptionLine['tpg_list']): StoredPrescriptionLine => ({
  medicine_id: null, medicine: generic, generic_name: generic, strength: null, dosage_form: 'Tablet', tpg_list: list, dosage: '1', frequency: 'once_daily', custom_schedule: null, duration_value: 3, duration_unit: 'days', instructions: null,
});
const issue = (over: Partial<IssuePrescription['data']> = {}): IssuePrescription => ({
  type: 'IssuePrescription',
  data: {
    prescription_id: 'rx1', verification_code: 'code1', actor_id: 'd1', appointment,
    consultation: { held: true, mode: 'video' }, kind: 'first', previously_prescribed: [],
    doctor: { name: 'Dr. A', qualification: 'MBBS', registration_number: 'R-1', medical_council: 'MMC', contact: null },
    patient: { name: 'P', age: null, gender: null }, lines: [line('Paracetamol', 'O')], diagnosis: null, advice: null, follow_up: null,
    ...over,
  },
});

/** The event an allowed prescription records, written out field by field (what the decider must produce, not what it does). */
const issued = (command: IssuePrescription) => {
  const { data } = command;
  return [
    {
      type: 'PrescriptionIssued' as const,
      data: {
        prescription_id: data.prescription_id,
        appointment_id: data.appointment!.appointment_id,
        patient_id: data.appointment!.patient_id,
        doctor_id: data.appointment!.doctor_id,
        verification_code: data.verification_code,
        consultation_mode: data.consultation.mode,
        consultation_kind: data.kind,
        doctor_name: 'Dr. A',
        doctor_qualification: 'MBBS',
        doctor_registration_number: 'R-1',
        doctor_medical_council: 'MMC',
        doctor_contact: null,
        patient_name: 'P',
        patient_age: null,
        patient_gender: null,
        diagnosis: null,
        advice: null,
        follow_up: null,
        lines: JSON.stringify(data.lines),
      },
    },
  ];
};

describe('prescription decider (Telemedicine Practice Guidelines 2020)', () => {
  const given = deciderSpec(prescriptionDecider);
  it('issues List O in any mode', () => {
    for (const mode of ['video', 'audio', 'chat'] as const) {
      const events = prescriptionDecider.decide(issue({ consultation: { held: true, mode } }), { status: 'none' });
      if (events[0]?.type !== 'PrescriptionIssued' || events[0].data.consultation_mode !== mode) throw new Error('not issued');
    }
  });
  it('refuses Schedule X / NDPS medicines always, naming the medicine', () =>
    given([]).when(issue({ kind: 'follow_up', lines: [line('Morphine', 'prohibited')] })).thenThrows('forbidden', RECORD_TEXTS.prohibited('MORPHINE')));
  it('List A: video yes; audio only as a refill in a follow-up', () => {
    given([]).when(issue({ lines: [line('Amoxicillin', 'A')] })).then(issued(issue({ lines: [line('Amoxicillin', 'A')] })));
    given([]).when(issue({ consultation: { held: true, mode: 'audio' }, lines: [line('Amoxicillin', 'A')] })).thenThrows('forbidden', RECORD_TEXTS.listANeedsVideo('AMOXICILLIN'));
    given([]).when(issue({ consultation: { held: true, mode: 'chat' }, kind: 'follow_up', lines: [line('Amoxicillin', 'A')] })).thenThrows('forbidden', RECORD_TEXTS.listANeedsVideo('AMOXICILLIN'));
    const refill = issue({ consultation: { held: true, mode: 'audio' }, kind: 'follow_up', previously_prescribed: ['amoxicillin'], lines: [line('Amoxicillin', 'A')] });
    given([]).when(refill).then(issued(refill));
  });
  it('List B only in a follow-up', () => {
    given([]).when(issue({ lines: [line('Warfarin', 'B')] })).thenThrows('forbidden', RECORD_TEXTS.listBNeedsFollowUp('WARFARIN'));
    const followUp = issue({ kind: 'follow_up', consultation: { held: true, mode: 'chat' }, lines: [line('Warfarin', 'B')] });
    given([]).when(followUp).then(issued(followUp));
  });
  it('only the appointment doctor, on a consultation held, with a registration number and council', () => {
    given([]).when(issue({ actor_id: 'p1' })).thenThrows('forbidden', RECORD_TEXTS.prescriberOnly);
    given([]).when(issue({ actor_id: 'stranger' })).thenThrows('not_found');
    given([]).when(issue({ consultation: { held: false, mode: 'video' } })).thenThrows('conflict', RECORD_TEXTS.consultationNotHeld);
    given([]).when(issue({ appointment: { ...appointment, status: 'cancelled' }, consultation: { held: false, mode: 'video' } })).thenThrows('conflict', RECORD_TEXTS.consultationNotHeld);
    given([]).when(issue({ appointment: { ...appointment, status: 'rejected' }, consultation: { held: true, mode: 'video' } })).thenThrows('conflict', RECORD_TEXTS.appointmentNotOpen('rejected'), ERROR_CODES.appointmentNotConfirmed);
    given([]).when(issue({ doctor: { name: 'Dr. A', qualification: 'MBBS', registration_number: null, medical_council: 'MMC', contact: null } })).thenThrows('forbidden', RECORD_TEXTS.registrationMissing);
  });
});

describe('prescription of a consultation that took place', () => {
  const given = deciderSpec(prescriptionDecider);
  it('is issued for a completed appointment, and for one the log shows cancelled after its consultation began', () => {
    for (const status of ['completed', 'cancelled'] as const) {
      const command = issue({ appointment: { ...appointment, status } });
      given([]).when(command).then(issued(command));
    }
  });
});

describe('notes decider (seed 001 §5)', () => {
  const given = deciderSpec(notesDecider);
  const notes: ConsultationNotesInput = { is_draft: true };
  const save = (over: Partial<typeof notes>, actor = 'd1', status: AppointmentFacts['status'] = 'confirmed', account_name: string | null = null, consultation_held = false) => ({
    type: 'SaveConsultationNotes' as const,
    data: { actor_id: actor, appointment: { ...appointment, status }, notes: { ...notes, ...over }, account_name, consultation_held },
  });
  it('a draft needs one text field; final notes a patient name and a complaint or assessment', () => {
    given([]).when(save({})).thenThrows('invalid', RECORD_TEXTS.notesDraftEmpty);
    given([]).when(save({ is_draft: false, patient_name: 'Ravi', treatment_plan: 'Rest' })).thenThrows('invalid', RECORD_TEXTS.notesFinalIncomplete);
    given([]).when(save({ is_draft: false, patient_name: ' Ravi ', clinical_assessment: 'Viral' })).then([
      { type: 'ConsultationNotesSaved', data: { appointment_id: 'a1', patient_id: 'p1', doctor_id: 'd1', is_draft: false, patient_name: 'Ravi', patient_ref: null, chief_complaint: null, clinical_assessment: 'Viral', treatment_plan: null, follow_up_instructions: null, additional_notes: null, priority_level: 'medium', follow_up_required: 'no', template: null } },
    ]);
  });
  it('a save merges into the latest one: left out keeps, null or blank clears, text replaces; the rules hold for the merged notes', () => {
    const modal = save({ is_draft: false, patient_name: 'Ravi', patient_id: 'OPD-7', chief_complaint: 'Fever', treatment_plan: 'Rest', priority_level: 'high', follow_up_required: 'routine', template: 'general_consultation' });
    const [first] = notesDecider.decide(modal, notesDecider.initialState());
    const after = (command: ReturnType<typeof save>) => notesDecider.decide(command, notesDecider.evolve(notesDecider.initialState(), first!))[0]!.data;
    assert.deepEqual(after(save({ is_draft: false, clinical_assessment: ' Viral ' })), { ...first!.data, clinical_assessment: 'Viral' }, "the panel's text kept beside the modal's fields");
    assert.deepEqual(after(save({ is_draft: true, treatment_plan: null, additional_notes: '  ', template: null })), { ...first!.data, is_draft: true, treatment_plan: null, additional_notes: null, template: null });
    given([first!]).when(save({ is_draft: false, chief_complaint: '' })).thenThrows('invalid', RECORD_TEXTS.notesFinalIncomplete);
    given([first!]).when(save({ is_draft: true, patient_name: null, patient_id: '', chief_complaint: null, treatment_plan: null })).thenThrows('invalid', RECORD_TEXTS.notesDraftEmpty);
  });
  it("a final save that leaves the name out takes the account's name only where no save named the patient", () => {
    const panel = (saved: Parameters<typeof given>[0]) => notesDecider.decide(save({ is_draft: undefined, clinical_assessment: 'Viral' }, 'd1', 'confirmed', 'Ravi Kumar'), saved.reduce(notesDecider.evolve, notesDecider.initialState()))[0]!.data;
    assert.equal(panel([]).patient_name, 'Ravi Kumar', 'first save, from the panel: the account name');
    const [named] = notesDecider.decide(save({ is_draft: true, patient_name: 'Ravi K. (OPD name)', chief_complaint: 'Fever' }), notesDecider.initialState());
    assert.equal(panel([named!]).patient_name, 'Ravi K. (OPD name)', "a name the modal wrote is never replaced");
    assert.equal(panel([]).is_draft, false, 'the first save, left open, is final');
    assert.equal(panel([named!]).is_draft, true, 'a save that leaves is_draft out keeps a draft a draft');
    const [final] = notesDecider.decide(save({ is_draft: false, patient_name: 'Ravi', chief_complaint: 'Fever' }), notesDecider.initialState());
    assert.equal(panel([final!]).is_draft, false, 'and final notes final');
    given([]).when(save({ is_draft: false, patient_name: null, clinical_assessment: 'Viral' }, 'd1', 'confirmed', 'Ravi Kumar')).thenThrows('invalid', RECORD_TEXTS.notesFinalIncomplete);
    given([]).when(save({ is_draft: false, clinical_assessment: 'Viral' })).thenThrows('invalid', RECORD_TEXTS.notesFinalIncomplete);
    given([]).when(save({ is_draft: true }, 'd1', 'confirmed', 'Ravi Kumar')).thenThrows('invalid', RECORD_TEXTS.notesDraftEmpty);
  });
  it('only the doctor, on a confirmed or completed appointment', () => {
    given([]).when(save({ chief_complaint: 'x' }, 'p1')).thenThrows('forbidden', RECORD_TEXTS.notesNotAllowed);
    given([]).when(save({ chief_complaint: 'x' }, 'd1', 'requested')).thenThrows('conflict', RECORD_TEXTS.appointmentNotOpen('requested'), ERROR_CODES.appointmentNotConfirmed);
    given([]).when(save({ chief_complaint: 'x' }, 'd1', 'cancelled')).thenThrows('conflict', RECORD_TEXTS.appointmentNotOpen('cancelled'), ERROR_CODES.appointmentNotConfirmed);
  });
  it('stays writable for a consultation that took place, also where the log holds a cancel from before cancels were refused once it began', () => {
    const draft = (status: AppointmentFacts['status']) => notesDecider.decide(save({ chief_complaint: 'Fever' }, 'd1', status, null, true), notesDecider.initialState());
    for (const status of ['confirmed', 'completed', 'cancelled'] as const) assert.equal(draft(status)[0]?.type, 'ConsultationNotesSaved', status);
    given([]).when(save({ chief_complaint: 'x' }, 'd1', 'rejected', null, true)).thenThrows('conflict', RECORD_TEXTS.appointmentNotOpen('rejected'));
  });
});
