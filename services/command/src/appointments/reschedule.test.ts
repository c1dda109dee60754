import { describe, it } from 'node:test';
import { API_TEXTS, DEFAULT_BOOKING_RULES } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { appointmentDecider, type AppointmentCommand, type AppointmentEvent } from './appointment';

const spec = deciderSpec(appointmentDecider);
const details = { appointment_id: 'a-1', slot_id: 42, doctor_id: 'doc-1', patient_id: 'pat-1', start: '2030-01-01T04:00:00.000Z', end: '2030-01-01T04:30:00.000Z' };
const requested: AppointmentEvent = { type: 'AppointmentRequested', data: { ...details, notes: 'Fever' } };
const approved: AppointmentEvent = { type: 'AppointmentApproved', data: { appointment_id: 'a-1', doctor_id: 'doc-1' } };
const later = { slot_id: 43, doctor_id: 'doc-1', start: '2030-01-02T05:00:00.000Z', end: '2030-01-02T05:30:00.000Z' };
const dayBefore = new Date('2029-12-31T04:00:00Z');

const move = (overrides: Partial<Extract<AppointmentCommand, { type: 'RescheduleAppointment' }>['data']> = {}): AppointmentCommand => ({
  type: 'RescheduleAppointment',
  data: { actor_id: 'pat-1', to: later, now: dayBefore, consultation_begun: false, rules: DEFAULT_BOOKING_RULES, auto_accept: false, ...overrides },
});
const moved = (overrides: Partial<Extract<AppointmentEvent, { type: 'AppointmentRescheduled' }>['data']> = {}): AppointmentEvent => ({
  type: 'AppointmentRescheduled',
  data: {
    appointment_id: 'a-1',
    doctor_id: 'doc-1',
    patient_id: 'pat-1',
    from_slot_id: 42,
    from_start: details.start,
    to_slot_id: 43,
    start: later.start,
    end: later.end,
    rescheduled_by: 'patient',
    needs_approval: false,
    move: 1,
    patient_moves: overrides.move ?? 1,
    confirmed: false,
    ...overrides,
  },
});

describe('moving an appointment (issue 35)', () => {
  it('a request moves and stays a request; a confirmed appointment waits for the doctor again unless they accept moves', () => {
    spec([requested]).when(move()).then([moved()]);
    spec([requested, approved]).when(move()).then([moved({ needs_approval: true })]);
    spec([requested, approved]).when(move({ auto_accept: true })).then([moved({ confirmed: true })]);
  });

  it("the move is the appointment's new slot and time: the next move starts from there, and is counted", () => {
    const third = { slot_id: 44, doctor_id: 'doc-1', start: '2030-01-03T05:00:00.000Z', end: '2030-01-03T05:30:00.000Z' };
    spec([requested, moved()])
      .when(move({ to: third }))
      .then([moved({ from_slot_id: 43, from_start: later.start, to_slot_id: 44, start: third.start, end: third.end, move: 2 })]);
  });

  it('refuses a move inside the notice, naming the rule; one just outside it is taken', () => {
    const inside = new Date(new Date(details.start).getTime() - (DEFAULT_BOOKING_RULES.minNoticeMinutes * 60_000 - 1));
    spec([requested]).when(move({ now: inside })).thenThrows('conflict', API_TEXTS.rescheduleTooLate('2'));
    const edge = new Date(new Date(details.start).getTime() - DEFAULT_BOOKING_RULES.minNoticeMinutes * 60_000);
    spec([requested]).when(move({ now: edge })).then([moved()]);
    spec([requested]).when(move({ now: edge, rules: { ...DEFAULT_BOOKING_RULES, minNoticeMinutes: 24 * 60 } })).thenThrows('conflict', API_TEXTS.rescheduleTooLate('24'));
  });

  it('refuses a third move (the limit), and any move once the limit is lower', () => {
    const third = { ...later, slot_id: 44, start: '2030-01-03T05:00:00.000Z', end: '2030-01-03T05:30:00.000Z' };
    const twice = [requested, moved(), moved({ from_slot_id: 43, to_slot_id: 44, move: 2 })];
    spec(twice).when(move({ to: { ...later, slot_id: 45 } })).thenThrows('conflict', API_TEXTS.rescheduleLimit('2'));
    spec([requested]).when(move({ to: third, rules: { ...DEFAULT_BOOKING_RULES, maxReschedules: 0 } })).thenThrows('conflict', API_TEXTS.rescheduleLimit('0'));
  });

  it("is only the patient's: anyone else's move answers as if the appointment did not exist", () => {
    spec([requested]).when(move({ actor_id: 'doc-1' })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([requested]).when(move({ actor_id: 'pat-2' })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([]).when(move()).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([]).when(move({ to: null })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([requested]).when(move({ to: null })).thenThrows('not_found', API_TEXTS.slotNotFound);
  });

  it('refuses a closed appointment, one whose consultation began, another doctor\'s slot and the same slot', () => {
    const cancelled: AppointmentEvent = { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } };
    spec([requested, cancelled]).when(move()).thenThrows('conflict', API_TEXTS.appointmentNotMovable('cancelled'));
    spec([requested, approved]).when(move({ consultation_begun: true })).thenThrows('conflict', API_TEXTS.consultationBegunNoMove);
    spec([requested]).when(move({ to: { ...later, doctor_id: 'doc-2' } })).thenThrows('conflict', API_TEXTS.rescheduleOtherDoctor);
    spec([requested]).when(move({ to: { ...later, slot_id: 42 } })).thenThrows('conflict', API_TEXTS.rescheduleSameSlot);
  });

  it('a move decided again after its own append (a retry) records nothing more', () => spec([requested, moved()]).when(move()).then([]));

  describe('a held slot the move never reached (the reservation healer)', () => {
    const released: AppointmentEvent = { type: 'AppointmentHoldReleased', data: { appointment_id: 'a-1', slot_id: 43 } };
    it('is recorded as given up once, and a move onto it later is refused', () => {
      spec([requested]).when({ type: 'ReleaseUnusedHold', data: { slot_id: 43 } }).then([released]);
      spec([requested, released]).when({ type: 'ReleaseUnusedHold', data: { slot_id: 43 } }).then([]);
      spec([requested, released]).when(move()).thenThrows('conflict', API_TEXTS.rescheduleHoldLost);
    });
    it('a slot the appointment did move to is left to it', () => spec([requested, moved()]).when({ type: 'ReleaseUnusedHold', data: { slot_id: 43 } }).then([]));
  });
});
