import { describe, it } from 'node:test';
import { API_TEXTS, CONSENT_TEXTS, ERROR_CODES } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { REQUEST_VOIDED, appointmentDecider, type AppointmentEvent } from './appointment';

const spec = deciderSpec(appointmentDecider);
const details = {
  appointment_id: 'a-1',
  slot_id: 42,
  doctor_id: 'doc-1',
  patient_id: 'pat-1',
  start: '2030-01-01T04:00:00Z',
  end: '2030-01-01T04:30:00Z',
};
const requested: AppointmentEvent = { type: 'AppointmentRequested', data: { ...details, notes: 'Fever for three days' } };
const approved: AppointmentEvent = { type: 'AppointmentApproved', data: { appointment_id: 'a-1', doctor_id: 'doc-1' } };
const rejected: AppointmentEvent = { type: 'AppointmentRejected', data: { appointment_id: 'a-1', doctor_id: 'doc-1', reason: 'Out of town' } };
const before = new Date('2029-12-31T00:00:00Z');
const begun: AppointmentEvent = { type: 'AppointmentConsultationBegun', data: { appointment_id: 'a-1', begun_at: '2029-12-31T00:00:00.000Z' } };
const atStart = new Date(details.start);
const afterEnd = new Date('2030-01-01T05:00:00Z');

describe('appointment decider', () => {
  describe('request', () => {
    it('records the request', () =>
      spec([]).when({ type: 'RequestAppointment', data: { ...details, notes: 'Fever for three days' } }).then([requested]));
    it('refuses to request the same appointment twice', () =>
      spec([requested]).when({ type: 'RequestAppointment', data: { ...details, notes: 'again' } }).thenThrows('conflict'));
  });

  describe('void an id whose request never appeared (the reservation healer)', () => {
    const voided: AppointmentEvent = { type: 'AppointmentVoided', data: { appointment_id: 'a-1', slot_id: 42 } };
    const voidIt = { type: 'VoidUnrequestedAppointment', data: { appointment_id: 'a-1', slot_id: 42 } } as const;
    it('voids it once while nothing was requested', () => {
      spec([]).when(voidIt).then([voided]);
      spec([voided]).when(voidIt).then([]);
    });
    it('leaves a request that was recorded first', () => spec([requested]).when(voidIt).then([]));
    it('refuses a request that comes after', () =>
      spec([voided]).when({ type: 'RequestAppointment', data: { ...details, notes: 'late' } }).thenThrows('conflict', REQUEST_VOIDED));
  });

  describe('approve', () => {
    const approve = (actor_id: string, now = before, patient_consents = true) => ({ type: 'ApproveAppointment', data: { actor_id, now, patient_consents } }) as const;
    it("confirms the slot's doctor's request", () => spec([requested]).when(approve('doc-1')).then([approved]));
    it('is idempotent once confirmed', () => spec([requested, approved]).when(approve('doc-1')).then([]));
    it("answers not_found to another doctor", () =>
      spec([requested]).when(approve('doc-2')).thenThrows('not_found', API_TEXTS.appointmentNotFound));
    it('answers not_found for an unknown appointment', () => spec([]).when(approve('doc-1')).thenThrows('not_found'));
    it('refuses a rejected request', () => spec([requested, rejected]).when(approve('doc-1')).thenThrows('conflict', /rejected/));
    it('refuses a request whose time has come', () => spec([requested]).when(approve('doc-1', atStart)).thenThrows('conflict', /expired/));
    it('refuses a request whose patient has withdrawn their consent since', () =>
      spec([requested]).when(approve('doc-1', before, false)).thenThrows('conflict', CONSENT_TEXTS.patientWithdrew));
  });

  describe('reject', () => {
    const reject = (actor_id: string, reason: string | null = 'Out of town') => ({ type: 'RejectAppointment', data: { actor_id, reason } }) as const;
    it('rejects with the reason', () => spec([requested]).when(reject('doc-1')).then([rejected]));
    it('rejects without a reason', () =>
      spec([requested]).when(reject('doc-1', null)).then([{ type: 'AppointmentRejected', data: { appointment_id: 'a-1', doctor_id: 'doc-1', reason: null } }]));
    it('answers not_found to another doctor', () => spec([requested]).when(reject('doc-2')).thenThrows('not_found'));
    it('refuses a confirmed appointment', () => spec([requested, approved]).when(reject('doc-1')).thenThrows('conflict', /confirmed/));
    it('is idempotent once rejected', () => spec([requested, rejected]).when(reject('doc-1')).then([]));
    it('refuses an appointment whose consultation has begun (it was confirmed: only a request is rejected)', () =>
      spec([requested, approved, begun]).when(reject('doc-1')).thenThrows('conflict', /confirmed/));
  });

  describe('cancel', () => {
    const noNotice = { minNoticeMinutes: 0, lateCancellation: 'cancellation' } as const;
    const cancel = (actor_id: string, now = before, consultation_begun = false, rules: { minNoticeMinutes: number; lateCancellation: 'cancellation' | 'no_show' } = noNotice) =>
      ({ type: 'CancelAppointment', data: { actor_id, reason: null, now, consultation_begun, rules } }) as const;
    const completed: AppointmentEvent = { type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: true } };
    it('lets the patient cancel a request', () =>
      spec([requested]).when(cancel('pat-1')).then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }]));
    it('lets the doctor cancel a confirmed appointment', () =>
      spec([requested, approved]).when(cancel('doc-1')).then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'doctor', reason: null } }]));
    it('answers not_found to anyone else', () => spec([requested]).when(cancel('someone')).thenThrows('not_found'));
    it('refuses a rejected appointment', () => spec([requested, rejected]).when(cancel('pat-1')).thenThrows('conflict'));
    it('refuses after the appointment ended', () => spec([requested, approved]).when(cancel('pat-1', afterEnd)).thenThrows('conflict', /ended/));
    it('refuses either party once its consultation has begun (recorded on the appointment), with a code', () => {
      for (const party of ['pat-1', 'doc-1']) {
        spec([requested, approved, begun]).when(cancel(party)).thenThrows('conflict', API_TEXTS.consultationBegunNoCancel, ERROR_CODES.consultationBegun);
        spec([requested, approved, begun]).when(cancel(party, atStart)).thenThrows('conflict', API_TEXTS.consultationBegunNoCancel, ERROR_CODES.consultationBegun);
      }
    });
    it("refuses once the consultation's own stream has started, though the appointment has not recorded it (begun before it did)", () =>
      spec([requested, approved]).when(cancel('pat-1', before, true)).thenThrows('conflict', API_TEXTS.consultationBegunNoCancel, ERROR_CODES.consultationBegun));
    it('still lets either party cancel after the start time while nobody has joined', () =>
      spec([requested, approved]).when(cancel('pat-1', atStart)).then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }]));
    it("a patient's cancellation of a confirmed appointment inside the doctor's notice is late, and counts as their rule says", () => {
      const cancelled = (late?: 'cancellation' | 'no_show') => ({ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null, ...(late ? { late } : {}) } }) as const;
      const day = { minNoticeMinutes: 24 * 60, lateCancellation: 'no_show' } as const;
      spec([requested, approved]).when(cancel('pat-1', atStart, false, day)).then([cancelled('no_show')]);
      spec([requested, approved]).when(cancel('pat-1', atStart, false, { ...day, lateCancellation: 'cancellation' })).then([cancelled('cancellation')]);
      // Outside the notice, a request not yet confirmed, or the doctor's own cancellation: not late.
      spec([requested, approved]).when(cancel('pat-1', new Date(new Date(details.start).getTime() - 25 * 3600_000), false, day)).then([cancelled()]);
      spec([requested]).when(cancel('pat-1', atStart, false, day)).then([cancelled()]);
      spec([requested, approved]).when(cancel('doc-1', atStart, false, day)).then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'doctor', reason: null } }]);
    });
    it('refuses a completed appointment (its consultation ended)', () =>
      spec([requested, approved, begun, completed]).when(cancel('doc-1')).thenThrows('conflict', /completed/));
    it('stays idempotent for an appointment cancelled before its consultation could begin', () =>
      spec([requested, approved, { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }]).when(cancel('pat-1', before, true)).then([]));
  });

  describe('close for an unavailable doctor', () => {
    const reason = API_TEXTS.doctorNoLongerAvailable;
    const close = (now = before, consultation_begun = false) => ({ type: 'CloseForUnavailableDoctor', data: { reason, now, consultation_begun } }) as const;
    it('rejects a pending request on the doctor\'s side with the reason', () =>
      spec([requested]).when(close()).then([{ type: 'AppointmentRejected', data: { appointment_id: 'a-1', doctor_id: 'doc-1', reason } }]));
    it('cancels a confirmed appointment still to come on the doctor\'s side with the reason', () =>
      spec([requested, approved]).when(close()).then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'doctor', reason } }]));
    it('leaves an appointment that has started (its consultation may be under way)', () => spec([requested, approved]).when(close(atStart)).then([]));
    it('leaves a request whose time has come to the expiry sweep', () => spec([requested]).when(close(atStart)).then([]));
    it('leaves an appointment whose consultation began before its start time', () => spec([requested, approved]).when(close(before, true)).then([]));
    it('leaves an appointment that recorded its consultation begun, whatever the caller read of the consultation', () =>
      spec([requested, approved, begun]).when(close(before, false)).then([]));
    it('records nothing twice, and never reopens a closed appointment', () => {
      spec([requested, rejected]).when(close()).then([]);
      spec([requested, approved, { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }]).when(close()).then([]);
    });
    it('does nothing for an unknown appointment', () => spec([]).when(close()).then([]));
  });

  describe('close for a withdrawn consent', () => {
    const close = (now = before) => ({ type: 'CloseForWithdrawnConsent', data: { reason: 'Consent withdrawn', now } }) as const;
    it('declines a request still waiting, by the system, with the reason and its cause (not a decision of the doctor)', () =>
      spec([requested]).when(close()).then([{ type: 'AppointmentRejected', data: { appointment_id: 'a-1', doctor_id: 'doc-1', reason: 'Consent withdrawn', cause: 'consent_withdrawn' } }]));
    it('leaves an appointment whose consultation has begun to its consultation', () => spec([requested, approved, begun]).when(close()).then([]));
    it('leaves a confirmed appointment to the patient, and a request whose time has come to the expiry sweep', () => {
      spec([requested, approved]).when(close()).then([]);
      spec([requested]).when(close(atStart)).then([]);
    });
    it('records nothing for an answered or unknown request, and never refuses', () => {
      spec([requested, rejected]).when(close()).then([]);
      spec([]).when(close()).then([]);
    });
  });

  describe('close for a closed patient account', () => {
    const close = (now = before, consultation_begun = false) => ({ type: 'CloseForClosedPatient', data: { now, consultation_begun } }) as const;
    const cancelled: AppointmentEvent = { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } };
    it('cancels a request and a confirmed appointment still to come in the patient\'s name, without a reason', () => {
      spec([requested]).when(close()).then([cancelled]);
      spec([requested, approved]).when(close()).then([cancelled]);
    });
    it('leaves an appointment whose start time has come to its consultation', () => spec([requested, approved]).when(close(atStart)).then([]));
    it('leaves an appointment whose consultation began before its start time', () => spec([requested, approved]).when(close(before, true)).then([]));
    it('leaves an appointment that recorded its consultation begun, whatever the caller read of the consultation', () =>
      spec([requested, approved, begun]).when(close(before, false)).then([]));
    it('records nothing for a closed, ended or unknown appointment, and never refuses', () => {
      spec([requested, rejected]).when(close()).then([]);
      spec([requested, approved, cancelled]).when(close()).then([]);
      spec([requested, approved, { type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: false } }]).when(close(afterEnd)).then([]);
      spec([]).when(close()).then([]);
    });
  });

  describe('complete (its consultation ended)', () => {
    const complete = (auto_ended: boolean, joined = { patient: true, doctor: true }) => ({ type: 'CompleteAppointment', data: { ended_at: details.end, auto_ended, joined } }) as const;
    it('completes a confirmed appointment whose consultation ended at the limit, or by End Call', () => {
      spec([requested, approved, begun]).when(complete(true)).then([{ type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: true } }]);
      spec([requested, approved, begun]).when(complete(false)).then([{ type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: false } }]);
    });
    it('leaves one a party never joined to the no-show sweep', () => {
      spec([requested, approved, begun]).when(complete(true, { patient: false, doctor: true })).then([]);
      spec([requested, approved, begun]).when(complete(false, { patient: true, doctor: false })).then([]);
    });
    it('records it once', () => spec([requested, approved, begun, { type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: true } }]).when(complete(true)).then([]));
  });

  describe('record the consultation begun', () => {
    const record = { type: 'RecordConsultationBegun', data: { now: before } } as const;
    it('records it once on a confirmed appointment', () => {
      spec([requested, approved]).when(record).then([begun]);
      spec([requested, approved, begun]).when(record).then([]);
    });
    it('records nothing on an appointment that is not confirmed (the join then refuses it)', () => {
      spec([requested]).when(record).then([]);
      spec([requested, approved, { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }]).when(record).then([]);
      spec([]).when(record).then([]);
    });
  });

  describe('expire', () => {
    const expire = (now: Date) => ({ type: 'ExpireAppointment', data: { now } }) as const;
    it('expires an unanswered request at its start', () =>
      spec([requested]).when(expire(atStart)).then([{ type: 'AppointmentExpired', data: { appointment_id: 'a-1' } }]));
    it('does nothing before the start', () => spec([requested]).when(expire(before)).then([]));
    it('never expires a confirmed appointment', () => spec([requested, approved]).when(expire(afterEnd)).then([]));
  });
});
