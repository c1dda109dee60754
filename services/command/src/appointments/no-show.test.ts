import { describe, it } from 'node:test';
import { API_TEXTS, NO_SHOW_DOCTOR_WAIT_MINUTES, NO_SHOW_GRACE_MINUTES } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { appointmentDecider, type AppointmentCommand, type AppointmentEvent, type Joined } from './appointment';

const spec = deciderSpec(appointmentDecider);
const details = { appointment_id: 'a-1', slot_id: 42, doctor_id: 'doc-1', patient_id: 'pat-1', start: '2030-01-01T04:00:00.000Z', end: '2030-01-01T04:30:00.000Z' };
const requested: AppointmentEvent = { type: 'AppointmentRequested', data: { ...details, notes: 'Fever' } };
const approved: AppointmentEvent = { type: 'AppointmentApproved', data: { appointment_id: 'a-1', doctor_id: 'doc-1' } };
const begun: AppointmentEvent = { type: 'AppointmentConsultationBegun', data: { appointment_id: 'a-1', begun_at: details.start } };
const minutesAfter = (at: string, minutes: number) => new Date(new Date(at).getTime() + minutes * 60_000);
const nobody: Joined = { patient: false, doctor: false };
const doctorOnly: Joined = { patient: false, doctor: true };
const patientOnly: Joined = { patient: true, doctor: false };
const both: Joined = { patient: true, doctor: true };

const sweep = (joined: Joined, now = minutesAfter(details.end, NO_SHOW_GRACE_MINUTES)): AppointmentCommand => ({ type: 'CloseNoShow', data: { now, joined } });
const mark = (joined: Joined, now = minutesAfter(details.start, NO_SHOW_DOCTOR_WAIT_MINUTES), actor_id = 'doc-1'): AppointmentCommand => ({
  type: 'MarkPatientAbsent',
  data: { actor_id, now, joined },
});
const noShow = (absent: 'patient' | 'doctor' | 'both', marked_by: 'system' | 'doctor'): AppointmentEvent => ({
  type: 'AppointmentNoShow',
  data: { appointment_id: 'a-1', doctor_id: 'doc-1', patient_id: 'pat-1', absent, marked_by },
});

describe('no-shows (issue 35)', () => {
  describe('closed by the system after the end and the grace', () => {
    it('names whoever never joined', () => {
      spec([requested, approved]).when(sweep(nobody)).then([noShow('both', 'system')]);
      spec([requested, approved, begun]).when(sweep(doctorOnly)).then([noShow('patient', 'system')]);
      spec([requested, approved, begun]).when(sweep(patientOnly)).then([noShow('doctor', 'system')]);
    });
    it('leaves one both parties joined to its consultation', () => spec([requested, approved, begun]).when(sweep(both)).then([]));
    it('waits until the grace has passed', () => {
      spec([requested, approved]).when(sweep(nobody, minutesAfter(details.end, NO_SHOW_GRACE_MINUTES - 1))).then([]);
      spec([requested, approved]).when(sweep(nobody, new Date(details.start))).then([]);
    });
    it('closes only a confirmed appointment, and once', () => {
      spec([requested]).when(sweep(nobody)).then([]);
      spec([requested, approved, noShow('both', 'system')]).when(sweep(nobody)).then([]);
      spec([requested, approved, begun, { type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: false } }]).when(sweep(doctorOnly)).then([]);
      spec([]).when(sweep(nobody)).then([]);
    });
  });

  describe('the doctor marks the patient absent', () => {
    it('after waiting the minutes the rule asks, the patient never having joined', () => {
      spec([requested, approved]).when(mark(nobody)).then([noShow('patient', 'doctor')]);
      spec([requested, approved, begun]).when(mark(doctorOnly)).then([noShow('patient', 'doctor')]);
    });
    it('not earlier, naming the rule', () =>
      spec([requested, approved])
        .when(mark(nobody, minutesAfter(details.start, NO_SHOW_DOCTOR_WAIT_MINUTES - 1)))
        .thenThrows('conflict', API_TEXTS.noShowTooEarly(String(NO_SHOW_DOCTOR_WAIT_MINUTES))));
    it('not once the grace has passed (the system closes it)', () =>
      spec([requested, approved]).when(mark(nobody, minutesAfter(details.end, NO_SHOW_GRACE_MINUTES))).thenThrows('conflict', API_TEXTS.noShowTooLate));
    it('not a patient who joined', () => spec([requested, approved, begun]).when(mark(patientOnly)).thenThrows('conflict', API_TEXTS.noShowPatientJoined));
    it('only a confirmed appointment, and only its own doctor', () => {
      spec([requested]).when(mark(nobody)).thenThrows('conflict', API_TEXTS.noShowNotConfirmed('requested'));
      spec([requested, approved]).when(mark(nobody, undefined, 'doc-2')).thenThrows('not_found', API_TEXTS.appointmentNotFound);
      spec([]).when(mark(nobody)).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    });
    it('again changes nothing', () => spec([requested, approved, noShow('patient', 'doctor')]).when(mark(nobody)).then([]));
  });

  it('a no-show can no longer be cancelled, moved or completed', () => {
    const closed = [requested, approved, noShow('patient', 'doctor')];
    spec(closed).when({ type: 'CancelAppointment', data: { actor_id: 'pat-1', reason: null, now: new Date(details.start), consultation_begun: false, rules: { minNoticeMinutes: 0, lateCancellation: 'cancellation' } } }).thenThrows('conflict');
    spec(closed).when({ type: 'CompleteAppointment', data: { ended_at: details.end, auto_ended: true, joined: both } }).then([]);
  });
});
