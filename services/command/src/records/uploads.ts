import { API_TEXTS, RECORD_TEXTS, conflict, notFound, type DomainEventOf, type EventData } from '@telemed/contracts';
import type { Decider } from '../decider';
import type { AppointmentFacts } from '../consultations/consultation';
import { asTheDoctor, openForRecords } from './rules';

export type UploadEvent = DomainEventOf<'RecordFileStored' | 'MedicalReportUploaded' | 'PrescriptionFileUploaded'>;
export type UploadState = { status: 'none' } | { status: 'recorded' };
/** A file as the upload stored it (its size a number); the event records the size as digits (see RecordFileStored). */
type StoredFile = Omit<EventData<'RecordFileStored'>, 'patient_id' | 'record_id' | 'kind' | 'size'> & { size: number };
const storedFile = (file: StoredFile) => ({ ...file, size: String(file.size) });

export type UploadCommand =
  | {
      type: 'RecordPrescriptionFile';
      data: { record_id: string; actor_id: string; appointment: AppointmentFacts | null; consultation_held: boolean; file: StoredFile } & Pick<
        EventData<'PrescriptionFileUploaded'>,
        'patient_name' | 'patient_ref' | 'medication_summary' | 'additional_notes'
      >;
    }
  | {
      type: 'RecordMedicalReport';
      data: { actor_id: string; appointment: AppointmentFacts | null; files: StoredFile[] } & Omit<EventData<'MedicalReportUploaded'>, 'file_ids' | 'patient_id'>;
    };

/**
 * Who may upload, decided before the body is read: the appointment's doctor for a prescription file (confirmed or
 * completed), once its consultation has taken place or is under way: a prescription follows a consultation
 * (Telemedicine Practice Guidelines 2020), whether issued here or signed on paper and scanned, as an e-prescription.
 */
export function mayUploadPrescriptionFile(appointment: AppointmentFacts | null, actorId: string, consultationHeld: boolean): AppointmentFacts {
  const mine = asTheDoctor(appointment, actorId);
  openForRecords(mine, consultationHeld);
  if (!consultationHeld) throw conflict(RECORD_TEXTS.consultationNotHeld);
  return mine;
}

/** A report tied to an appointment must be one of the patient's own. */
export function mayTieReport(appointment: AppointmentFacts | null, appointmentId: string | null, actorId: string): void {
  if (appointmentId && appointment?.patient_id !== actorId) throw notFound(API_TEXTS.appointmentNotFound);
}

/** One upload = one stream (`prescription_file-<id>` or `medical_report-<id>`): its files, then the record naming them. */
export const uploadDecider: Decider<UploadState, UploadCommand, UploadEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: () => ({ status: 'recorded' }),
  decide: (command, state) => {
    if (state.status === 'recorded') throw conflict(RECORD_TEXTS.malformedUpload);
    if (command.type === 'RecordPrescriptionFile') {
      const { data } = command;
      const appointment = mayUploadPrescriptionFile(data.appointment, data.actor_id, data.consultation_held);
      return [
        { type: 'RecordFileStored', data: { ...storedFile(data.file), patient_id: appointment.patient_id, record_id: data.record_id, kind: 'prescription_file' } },
        {
          type: 'PrescriptionFileUploaded',
          data: {
            record_id: data.record_id,
            appointment_id: appointment.appointment_id,
            patient_id: appointment.patient_id,
            doctor_id: appointment.doctor_id,
            file_id: data.file.file_id,
            patient_name: data.patient_name,
            patient_ref: data.patient_ref,
            medication_summary: data.medication_summary,
            additional_notes: data.additional_notes,
          },
        },
      ];
    }
    const { data } = command;
    mayTieReport(data.appointment, data.appointment_id, data.actor_id);
    const { files, actor_id, appointment, ...report } = data;
    void appointment;
    return [
      ...files.map((file): UploadEvent => ({ type: 'RecordFileStored', data: { ...storedFile(file), patient_id: actor_id, record_id: report.report_id, kind: 'report' } })),
      { type: 'MedicalReportUploaded', data: { ...report, patient_id: actor_id, file_ids: files.map((f) => f.file_id) } },
    ];
  },
};
