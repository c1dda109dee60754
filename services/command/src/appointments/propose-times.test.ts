import { describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { appointmentDecider, type AppointmentCommand, type AppointmentEvent, type MoveTarget } from './appointment';

const spec = deciderSpec(appointmentDecider);
const details = { appointment_id: 'a-1', slot_id: 42, doctor_id: 'doc-1', patient_id: 'pat-1', start: '2030-01-03T04:00:00.000Z', end: '2030-01-03T04:30:00.000Z' };
const requested: AppointmentEvent = { type: 'AppointmentRequested', data: { ...details, notes: 'Fever' } };
const approved: AppointmentEvent = { type: 'AppointmentApproved', data: { appointment_id: 'a-1', doctor_id: 'doc-1' } };
const slot = (slot_id: number, start: string, extra: Partial<MoveTarget & { open: boolean }> = {}) => ({
  slot_id,
  doctor_id: 'doc-1',
  start,
  end: new Date(new Date(start).getTime() + 30 * 60_000).toISOString(),
  open: true,
  ...extra,
});
const earlier = slot(43, '2030-01-02T05:00:00.000Z');
const later = slot(44, '2030-01-04T05:00:00.000Z');
const now = new Date('2030-01-01T00:00:00Z');

const propose = (slots: Array<ReturnType<typeof slot> | null>, overrides: { actor_id?: string; now?: Date; consultation_begun?: boolean } = {}): AppointmentCommand => ({
  type: 'ProposeTimes',
  data: { actor_id: 'doc-1', slots, now, consultation_begun: false, ...overrides },
});
const strip = ({ slot_id, start, end }: ReturnType<typeof slot>) => ({ slot_id, start, end });
const proposed = (slots: Array<ReturnType<typeof slot>>, expires_at: string): AppointmentEvent => ({
  type: 'AppointmentTimesProposed',
  data: { appointment_id: 'a-1', doctor_id: 'doc-1', patient_id: 'pat-1', slots: slots.map(strip), expires_at },
});
const accept = (to: MoveTarget | null, at = now, actor_id = 'pat-1'): AppointmentCommand => ({ type: 'AcceptProposedTime', data: { actor_id, to, now: at, consultation_begun: false } });
const movedTo = (to: ReturnType<typeof slot>, move = 1): Extract<AppointmentEvent, { type: 'AppointmentRescheduled' }> => ({
  type: 'AppointmentRescheduled',
  data: {
    appointment_id: 'a-1',
    doctor_id: 'doc-1',
    patient_id: 'pat-1',
    from_slot_id: 42,
    from_start: details.start,
    to_slot_id: to.slot_id,
    start: to.start,
    end: to.end,
    rescheduled_by: 'doctor',
    needs_approval: false,
    move,
    patient_moves: 0,
    confirmed: true,
  },
});

/** The patient's own move after the doctor's, from the offered time to `earlier`. */
const patientMove: AppointmentEvent = {
  type: 'AppointmentRescheduled',
  data: { ...movedTo(earlier, 2).data, from_slot_id: later.slot_id, from_start: later.start, rescheduled_by: 'patient', patient_moves: 1, confirmed: true },
};

describe('the doctor offers other times (issue 35)', () => {
  it('offers up to three of their open times still to come, until the earliest of those and the appointment', () => {
    spec([requested, approved]).when(propose([later])).then([proposed([later], details.start)]);
    spec([requested]).when(propose([later, earlier])).then([proposed([later, earlier], earlier.start)]);
  });
  it('refuses a time that is not theirs, not open, past, missing, or the appointment\'s own', () => {
    spec([requested]).when(propose([slot(45, later.start, { doctor_id: 'doc-2' })])).thenThrows('conflict', API_TEXTS.proposeNotOpen);
    spec([requested]).when(propose([slot(45, later.start, { open: false })])).thenThrows('conflict', API_TEXTS.proposeNotOpen);
    spec([requested]).when(propose([slot(45, '2029-12-31T05:00:00.000Z')])).thenThrows('conflict', API_TEXTS.proposeNotOpen);
    spec([requested]).when(propose([later, null])).thenThrows('not_found', API_TEXTS.slotNotFound);
    spec([requested]).when(propose([slot(42, details.start)])).thenThrows('conflict', API_TEXTS.proposeSameSlot);
  });
  it('only its own doctor, only before it starts, and only while it is open', () => {
    spec([requested]).when(propose([later], { actor_id: 'doc-2' })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([requested, approved]).when(propose([later], { consultation_begun: true })).thenThrows('conflict', API_TEXTS.consultationBegunNoMove);
    spec([requested, approved]).when(propose([later], { now: new Date(details.start) })).thenThrows('conflict', API_TEXTS.consultationBegunNoMove);
    spec([requested, { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null } }])
      .when(propose([later]))
      .thenThrows('conflict', API_TEXTS.appointmentNotMovable('cancelled'));
  });
});

describe('the patient answers the offer', () => {
  it('taking an offered time moves it there as the doctor\'s move, and confirms a request', () => {
    spec([requested, approved, proposed([later, earlier], earlier.start)]).when(accept(later)).then([movedTo(later)]);
    spec([requested, proposed([later], details.start)]).when(accept(later)).then([movedTo(later), approved]);
  });
  it('refuses a time not offered, an expired offer, no offer, and someone else', () => {
    const offered = [requested, approved, proposed([later], details.start)];
    spec(offered).when(accept(earlier)).thenThrows('conflict', API_TEXTS.proposalSlotNotOffered);
    spec(offered).when(accept(later, new Date(details.start))).thenThrows('conflict', API_TEXTS.proposalExpired);
    spec([requested, approved]).when(accept(later)).thenThrows('conflict', API_TEXTS.proposalNone);
    spec(offered).when(accept(later, now, 'pat-2')).thenThrows('not_found', API_TEXTS.appointmentNotFound);
  });
  it('taking it again after it was taken records nothing more', () =>
    spec([requested, approved, proposed([later], details.start), movedTo(later)]).when(accept(later)).then([]));
  it('the doctor\'s move does not count against the patient\'s own moves', () =>
    spec([requested, approved, proposed([later], details.start), movedTo(later)])
      .when({
        type: 'RescheduleAppointment',
        data: { actor_id: 'pat-1', to: earlier, now, consultation_begun: false, rules: { minNoticeMinutes: 0, maxReschedules: 1, lateCancellation: 'cancellation', autoAcceptMoves: true }, auto_accept: true },
      })
      .then([patientMove]));
  it('declining cancels it as the doctor\'s change; without an offer it is refused', () => {
    spec([requested, approved, proposed([later], details.start)])
      .when({ type: 'DeclineProposedTimes', data: { actor_id: 'pat-1' } })
      .then([{ type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'patient', reason: null, cause: 'proposal_declined' } }]);
    spec([requested, approved]).when({ type: 'DeclineProposedTimes', data: { actor_id: 'pat-1' } }).thenThrows('conflict', API_TEXTS.proposalNone);
  });
  it('an offer left unanswered past its time is closed by the system, on the doctor\'s side', () => {
    const offered = [requested, approved, proposed([later], details.start)];
    spec(offered).when({ type: 'CloseUnansweredProposal', data: { now: new Date(details.start) } }).then([
      { type: 'AppointmentCancelled', data: { appointment_id: 'a-1', cancelled_by: 'doctor', reason: null, cause: 'proposal_unanswered' } },
    ]);
    spec(offered).when({ type: 'CloseUnansweredProposal', data: { now } }).then([]);
    spec([...offered, movedTo(later)]).when({ type: 'CloseUnansweredProposal', data: { now: new Date(details.start) } }).then([]);
  });
});
