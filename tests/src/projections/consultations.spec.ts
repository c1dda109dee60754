import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { consultationStarted, erased, people, registered } from '../support/spec-events';

const consultations = projectionSpec('consultations');
const JOIN = '2026-03-10T04:30:05.000Z';
const REJOIN = '2026-03-10T04:40:00.000Z';
const END = '2026-03-10T04:52:00.000Z';

/** A patient and a doctor the consultation knows by name, and their appointment's consultation started. */
function call() {
  const { patient, doctor } = people();
  const appointment = freshId('appointment');
  const known = [registered({ user_id: patient, name: 'Asha Rao' }), registered({ user_id: doctor, name: 'Dr. Vikram Shah', account_type: 'doctor' })];
  const started = consultationStarted({ appointment_id: appointment, patient_id: patient, doctor_id: doctor });
  const active = {
    _id: appointment,
    appointment_id: appointment,
    patient_id: patient,
    doctor_id: doctor,
    provider: 'p2p',
    room: `room-${appointment}`,
    status: 'active',
    started_at: '2026-03-10T04:30:00.000Z',
    ends_at: '2026-03-10T05:00:00Z',
    ended_at: null,
    ended_by: null,
    auto_ended: false,
    participants: [] as unknown[],
    message_count: 0,
  };
  const joins = (user_id: string, role: 'patient' | 'doctor', connection_id: string, at = JOIN, replaced_connection_id: string | null = null) =>
    event('ConsultationJoined', { appointment_id: appointment, user_id, role, connection_id, replaced_connection_id }, { at, actor: { user_id, role } });
  const present = (user_id: string, name: string, role: 'patient' | 'doctor', connection_id: string, joined_at = JOIN) => ({ user_id, name, role, present: true, connection_id, joined_at, left_at: null as string | null });
  const says = (sender_id: string, text: string) => event('ConsultationMessagePosted', { appointment_id: appointment, message_id: freshId('message'), sender_id, text }, { at: JOIN });
  const message = (log: Log, e: SpecEvent<'ConsultationMessagePosted'>, sender_name: string, text = e.data.text) => ({
    _id: e.data.message_id,
    appointment_id: appointment,
    position: log.positionOf(e),
    message_id: e.data.message_id,
    sender_id: e.data.sender_id,
    sender_name,
    text,
    sent_at: JOIN,
  });
  return { patient, doctor, appointment, known, started, active, joins, present, says, message };
}

describe('consultations projection (the video call, who is in it, its chat)', () => {
  it('the first join starts the consultation: active, open until its limit', () => {
    const c = call();
    return consultations
      .given(...c.known)
      .when(c.started)
      .then({ consultations: [c.active], open_consultations: [{ _id: c.appointment, appointment_id: c.appointment, ends_at: '2026-03-10T05:00:00Z' }] });
  });

  it('participants join by name; a rejoin replaces their connection and keeps when they first joined', () => {
    const c = call();
    return consultations
      .given(...c.known, c.started)
      .when(c.joins(c.patient, 'patient', 'c1'), c.joins(c.doctor, 'doctor', 'c2'), c.joins(c.patient, 'patient', 'c3', REJOIN, 'c1'))
      .then({ consultations: [{ ...c.active, participants: [c.present(c.doctor, 'Dr. Vikram Shah', 'doctor', 'c2'), c.present(c.patient, 'Asha Rao', 'patient', 'c3')] }] }, { untouched: ['open_consultations'] });
  });

  it("a leave of a connection already replaced does not mark the person absent; their current connection's leave does", async () => {
    const c = call();
    const rejoined = [c.joins(c.patient, 'patient', 'c1'), c.joins(c.patient, 'patient', 'c3', REJOIN, 'c1')];
    await consultations
      .given(...c.known, c.started, ...rejoined)
      .when(event('ConsultationLeft', { appointment_id: c.appointment, user_id: c.patient, connection_id: 'c1', reason: 'disconnected' }))
      .then({ consultations: [{ ...c.active, participants: [c.present(c.patient, 'Asha Rao', 'patient', 'c3')] }] });
    await consultations
      .given(...c.known, c.started, ...rejoined)
      .when(event('ConsultationLeft', { appointment_id: c.appointment, user_id: c.patient, connection_id: 'c3', reason: 'left' }, { at: END }))
      .then({ consultations: [{ ...c.active, participants: [{ ...c.present(c.patient, 'Asha Rao', 'patient', 'c3'), present: false, left_at: END }] }] });
  });

  it('End Call ends it for everyone present at that moment, and it is open no more', () => {
    const c = call();
    return consultations
      .given(...c.known, c.started, c.joins(c.patient, 'patient', 'c1'), c.joins(c.doctor, 'doctor', 'c2'))
      .when(event('ConsultationEnded', { appointment_id: c.appointment, ended_by: c.doctor }, { at: END }))
      .then({
        consultations: [
          {
            ...c.active,
            status: 'ended',
            ended_at: END,
            ended_by: c.doctor,
            participants: [
              { ...c.present(c.patient, 'Asha Rao', 'patient', 'c1'), present: false, left_at: END },
              { ...c.present(c.doctor, 'Dr. Vikram Shah', 'doctor', 'c2'), present: false, left_at: END },
            ],
          },
        ],
        open_consultations: [],
      });
  });

  it('ended at its limit, the call ends at the limit even when the system noticed later, marked auto-ended', () => {
    const c = call();
    return consultations
      .given(...c.known, c.started, c.joins(c.patient, 'patient', 'c1'))
      .when(event('ConsultationAutoEnded', { appointment_id: c.appointment, ends_at: '2026-03-10T05:00:00.000Z' }, { at: '2026-03-10T05:00:04.000Z' }))
      .then({
        consultations: [{ ...c.active, status: 'ended', ended_at: '2026-03-10T05:00:00Z', auto_ended: true, participants: [{ ...c.present(c.patient, 'Asha Rao', 'patient', 'c1'), present: false, left_at: '2026-03-10T05:00:00Z' }] }],
        open_consultations: [],
      });
  });

  it('a chat message is kept in log order with its sender as named then, and counted', () => {
    const c = call();
    const hello = c.says(c.patient, 'I have the ECG here');
    return consultations
      .given(...c.known, c.started)
      .when(hello)
      .then((log) => ({ consultation_messages: [c.message(log, hello, 'Asha Rao')], consultations: [{ ...c.active, message_count: 1 }] }));
  });

  it('a message delivered again is counted once', () => {
    const c = call();
    const hello = c.says(c.patient, 'I have the ECG here');
    return consultations
      .given(...c.known, c.started)
      .when(hello, c.says(c.doctor, 'Please hold it to the camera'))
      .deliveredAgain()
      .then({ consultations: [{ ...c.active, message_count: 2 }] });
  });

  it("the patient's erasure makes them a Participant everywhere and blanks their consultation's chat; the doctor's name stays", () => {
    const c = call();
    const theirs = c.says(c.patient, 'I have the ECG here');
    const doctors = c.says(c.doctor, 'Please hold it to the camera');
    return consultations
      .given(...c.known, c.started, c.joins(c.patient, 'patient', 'c1'), c.joins(c.doctor, 'doctor', 'c2'), theirs, doctors)
      .when(erased(c.patient))
      .then((log) => ({
        consultations: [{ ...c.active, message_count: 2, participants: [c.present(c.patient, 'Participant', 'patient', 'c1'), c.present(c.doctor, 'Dr. Vikram Shah', 'doctor', 'c2')] }],
        consultation_messages: [c.message(log, theirs, 'Participant', ERASED_VALUE), c.message(log, doctors, 'Dr. Vikram Shah', ERASED_VALUE)],
        consultation_people: [
          { _id: c.patient, name: 'Participant', phone_number: null, specialty: null, consultation_fee: null },
          { _id: c.doctor, name: 'Dr. Vikram Shah', phone_number: null, specialty: null, consultation_fee: null },
        ],
      }));
  });

  it("the doctor's erasure makes them a Participant and keeps the patient's chat", () => {
    const c = call();
    const theirs = c.says(c.patient, 'I have the ECG here');
    const doctors = c.says(c.doctor, 'Please hold it to the camera');
    return consultations
      .given(...c.known, c.started, c.joins(c.doctor, 'doctor', 'c2'), theirs, doctors)
      .when(erased(c.doctor))
      .then((log) => ({
        consultations: [{ ...c.active, message_count: 2, participants: [c.present(c.doctor, 'Participant', 'doctor', 'c2')] }],
        consultation_messages: [c.message(log, theirs, 'Asha Rao'), c.message(log, doctors, 'Participant')],
      }));
  });

  it("the video provider's reports and the appointment's events leave the consultation as it was", () => {
    const c = call();
    return consultations
      .given(...c.known, c.started, c.joins(c.patient, 'patient', 'c1'))
      .when(
        event('VideoProviderEventReceived', { appointment_id: c.appointment, provider: 'livekit', provider_event_id: 'ev1', event: 'participant_left', room: c.active.room, participant_identity: c.patient, created_at: null }),
        event('AppointmentCompleted', { appointment_id: c.appointment, ended_at: END, auto_ended: false }),
        event('DoctorProfileUpdated', { doctor_id: c.doctor, specialty: 'General medicine' }),
      )
      .thenUnchanged();
  });
});
