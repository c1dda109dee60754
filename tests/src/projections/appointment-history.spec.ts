import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { appointmentRequested, consultationStarted, fileStored, notesSaved, people, prescriptionIssued, reportUploaded, slotReserved } from '../support/spec-events';

const history = projectionSpec('appointment_history');

/** The history's entry of an event: who did it, when, under which correlation, and `data` as kept. */
const entry = (log: Log, e: SpecEvent, appointment_id: string, data: Record<string, unknown> = e.data) => ({
  _id: e.event_id,
  appointment_id,
  position: log.positionOf(e),
  event_id: e.event_id,
  type: e.type,
  occurred_at: e.metadata.occurred_at,
  actor: e.metadata.actor,
  correlation_id: e.metadata.correlation_id,
  data,
});

function booking() {
  const { patient, doctor } = people();
  const appointment = freshId('appointment');
  const asPatient = { actor: { user_id: patient, role: 'patient' as const }, at: '2026-03-03T12:00:00.000Z' };
  const asDoctor = { actor: { user_id: doctor, role: 'doctor' as const }, at: '2026-03-04T09:00:00.000Z' };
  return { patient, doctor, appointment, asPatient, asDoctor };
}

describe('appointment_history projection (the audit trail of an appointment)', () => {
  it('the reservation, the request and the decision are entries with who did them, when and why', () => {
    const b = booking();
    const reserved = slotReserved({ slot_id: 101, doctor_id: b.doctor, appointment_id: b.appointment, patient_id: b.patient }, b.asPatient);
    const requested = appointmentRequested({ appointment_id: b.appointment, doctor_id: b.doctor, patient_id: b.patient }, b.asPatient);
    const rejected = event('AppointmentRejected', { appointment_id: b.appointment, doctor_id: b.doctor, reason: 'Fully booked' }, b.asDoctor);
    const released = event('SlotReleased', { slot_id: 101, doctor_id: b.doctor, appointment_id: b.appointment, reason: 'rejected' });
    return history
      .given(reserved, requested)
      .when(rejected, released)
      .then((log) => ({ appointment_history: [entry(log, reserved, b.appointment), entry(log, requested, b.appointment), entry(log, rejected, b.appointment), entry(log, released, b.appointment)] }));
  });

  it('the call is in the history; its chat is not', () => {
    const b = booking();
    const started = consultationStarted({ appointment_id: b.appointment, patient_id: b.patient, doctor_id: b.doctor });
    const joined = event('ConsultationJoined', { appointment_id: b.appointment, user_id: b.doctor, role: 'doctor', connection_id: 'c1', replaced_connection_id: null }, b.asDoctor);
    const ended = event('ConsultationEnded', { appointment_id: b.appointment, ended_by: b.doctor }, b.asDoctor);
    return history
      .given()
      .when(started, joined, event('ConsultationMessagePosted', { appointment_id: b.appointment, message_id: freshId('message'), sender_id: b.doctor, text: 'Can you hear me?' }), ended)
      .then((log) => ({ appointment_history: [entry(log, started, b.appointment), entry(log, joined, b.appointment), entry(log, ended, b.appointment)] }));
  });

  it('clinical records are entries of ids only, never their health content; a report for no appointment is in no history', () => {
    const b = booking();
    const notes = notesSaved({ appointment_id: b.appointment, patient_id: b.patient, doctor_id: b.doctor, is_draft: true }, b.asDoctor);
    const prescription = prescriptionIssued({ prescription_id: freshId('rx'), appointment_id: b.appointment, patient_id: b.patient, doctor_id: b.doctor }, b.asDoctor);
    const report = reportUploaded({ report_id: freshId('report'), patient_id: b.patient, appointment_id: b.appointment, file_ids: ['f1'] }, b.asPatient);
    return history
      .given()
      .when(notes, prescription, report, reportUploaded({ report_id: freshId('report'), patient_id: b.patient, file_ids: ['f2'] }, b.asPatient))
      .then((log) => ({
        appointment_history: [
          entry(log, notes, b.appointment, { appointment_id: b.appointment, patient_id: b.patient, doctor_id: b.doctor, is_draft: true }),
          entry(log, prescription, b.appointment, { appointment_id: b.appointment, prescription_id: prescription.data.prescription_id, patient_id: b.patient, doctor_id: b.doctor }),
          entry(log, report, b.appointment, { appointment_id: b.appointment, report_id: report.data.report_id, patient_id: b.patient }),
        ],
      }));
  });

  it("the patient's erasure blanks the notes and reasons in their appointments' entries and keeps the facts; another patient's stay", () => {
    const b = booking();
    const other = booking();
    const requested = appointmentRequested({ appointment_id: b.appointment, doctor_id: b.doctor, patient_id: b.patient }, b.asPatient);
    const cancelled = event('AppointmentCancelled', { appointment_id: b.appointment, cancelled_by: 'patient', reason: 'Feeling better' }, b.asPatient);
    const declined = booking();
    const unanswered = appointmentRequested({ appointment_id: declined.appointment, doctor_id: b.doctor, patient_id: b.patient, slot_id: 102 }, b.asPatient);
    const rejectedSilently = event('AppointmentRejected', { appointment_id: declined.appointment, doctor_id: b.doctor, reason: null }, b.asDoctor);
    const othersRequest = appointmentRequested({ appointment_id: other.appointment, doctor_id: b.doctor, patient_id: other.patient, slot_id: 103 }, other.asPatient);
    return history
      .given(requested, cancelled, unanswered, rejectedSilently, othersRequest)
      .when(event('PersonalDataErased', { user_id: b.patient, requested_by: 'self', kept: [] }))
      .then((log) => ({
        appointment_history: [
          entry(log, requested, b.appointment, { ...requested.data, notes: ERASED_VALUE }),
          entry(log, cancelled, b.appointment, { ...cancelled.data, reason: ERASED_VALUE }),
          entry(log, unanswered, declined.appointment, { ...unanswered.data, notes: ERASED_VALUE }),
          entry(log, rejectedSilently, declined.appointment),
          entry(log, othersRequest, other.appointment),
        ],
      }));
  });

  it('voiding, the chat, the video provider, stored files and slot openings leave the history as it was', () => {
    const b = booking();
    return history
      .given(appointmentRequested({ appointment_id: b.appointment, doctor_id: b.doctor, patient_id: b.patient }, b.asPatient))
      .when(
        event('AppointmentVoided', { appointment_id: freshId('appointment'), slot_id: 104 }),
        event('AppointmentConsultationBegun', { appointment_id: b.appointment, begun_at: '2026-03-10T04:31:00.000Z' }),
        event('VideoProviderEventReceived', { appointment_id: b.appointment, provider: 'livekit', provider_event_id: 'ev1', event: 'participant_joined', room: 'r', participant_identity: b.patient, participant_sid: 'PA_1', created_at: null }),
        fileStored({ file_id: freshId('file'), patient_id: b.patient, record_id: freshId('report') }),
        event('SlotOpened', { slot_id: 105, doctor_id: b.doctor, start: '2026-03-11T04:30:00.000Z', end: '2026-03-11T05:00:00.000Z' }),
      )
      .thenUnchanged();
  });
});
