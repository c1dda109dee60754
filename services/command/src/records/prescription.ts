import {
  RECORD_TEXTS,
  genericKey,
  conflict,
  forbidden,
  invalid,
  type ConsultationMode,
  type DomainEventOf,
  type StoredPrescriptionLine,
} from '@telemed/contracts';
import type { Decider } from '../decider';
import type { AppointmentFacts } from '../consultations/consultation';
import { asTheDoctor, openForRecords } from './rules';

export type PrescriptionEvent = DomainEventOf<'PrescriptionIssued'>;
export type PrescriptionState = { status: 'none' } | { status: 'issued'; prescription_id: string; patient_id: string };

export interface Prescriber {
  name: string;
  qualification: string;
  registration_number: string | null;
  medical_council: string | null;
  contact: string | null;
}

export interface IssuePrescription {
  type: 'IssuePrescription';
  data: {
    prescription_id: string;
    verification_code: string;
    actor_id: string;
    appointment: AppointmentFacts | null;
    /** The consultation of the appointment: whether it was held (started) and in which mode. */
    consultation: { held: boolean; mode: ConsultationMode };
    /** First consultation with this doctor, or a follow-up (an earlier consultation of theirs took place). */
    kind: 'first' | 'follow_up';
    /** Generic names (normalized) this doctor prescribed this patient before: what a follow-up may refill. */
    previously_prescribed: readonly string[];
    doctor: Prescriber | null;
    patient: { name: string; age: string | null; gender: string | null };
    lines: StoredPrescriptionLine[];
    diagnosis: string | null;
    advice: string | null;
    follow_up: string | null;
  };
}

export { genericKey };

/**
 * The Telemedicine Practice Guidelines 2020 on one line: List O in any mode; List A in a video consultation, or
 * re-prescribed as a refill in a follow-up; List B only in a follow-up; Schedule X and NDPS medicines never. A
 * medicine the catalogue does not classify is held to List A's rule. Returns the refusal, or null.
 */
export function lineRefusal(line: StoredPrescriptionLine, context: { mode: ConsultationMode; kind: 'first' | 'follow_up'; previously_prescribed: readonly string[] }): string | null {
  const name = line.generic_name.toUpperCase();
  switch (line.tpg_list) {
    case 'prohibited':
      return RECORD_TEXTS.prohibited(name);
    case 'O':
      return null;
    case 'B':
      return context.kind === 'follow_up' ? null : RECORD_TEXTS.listBNeedsFollowUp(name);
    case 'A':
    case null:
      if (context.mode === 'video') return null;
      return context.kind === 'follow_up' && context.previously_prescribed.includes(genericKey(line.generic_name)) ? null : RECORD_TEXTS.listANeedsVideo(name);
  }
}

/** An e-prescription (stream `prescription-<id>`): issued once, by the appointment's doctor, under the Guidelines. */
export const prescriptionDecider: Decider<PrescriptionState, IssuePrescription, PrescriptionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'issued', prescription_id: event.data.prescription_id, patient_id: event.data.patient_id }),
  decide: ({ data }, state) => {
    const appointment = asTheDoctor(data.appointment, data.actor_id, RECORD_TEXTS.prescriberOnly);
    if (state.status === 'issued') throw conflict('This prescription was already issued');
    if (!data.consultation.held) throw conflict(RECORD_TEXTS.consultationNotHeld);
    openForRecords(appointment, data.consultation.held);
    const doctor = data.doctor;
    if (!doctor?.registration_number?.trim() || !doctor.medical_council?.trim()) throw forbidden(RECORD_TEXTS.registrationMissing);
    if (data.lines.length === 0) throw invalid(RECORD_TEXTS.prescriptionEmpty);
    for (const line of data.lines) {
      const refusal = lineRefusal(line, { mode: data.consultation.mode, kind: data.kind, previously_prescribed: data.previously_prescribed });
      if (refusal) throw forbidden(refusal);
    }
    return [
      {
        type: 'PrescriptionIssued',
        data: {
          prescription_id: data.prescription_id,
          appointment_id: appointment.appointment_id,
          patient_id: appointment.patient_id,
          doctor_id: appointment.doctor_id,
          verification_code: data.verification_code,
          consultation_mode: data.consultation.mode,
          consultation_kind: data.kind,
          doctor_name: doctor.name,
          doctor_qualification: doctor.qualification,
          doctor_registration_number: doctor.registration_number.trim(),
          doctor_medical_council: doctor.medical_council.trim(),
          doctor_contact: doctor.contact,
          patient_name: data.patient.name,
          patient_age: data.patient.age,
          patient_gender: data.patient.gender,
          diagnosis: data.diagnosis,
          advice: data.advice,
          follow_up: data.follow_up,
          lines: JSON.stringify(data.lines),
        },
      },
    ];
  },
};

