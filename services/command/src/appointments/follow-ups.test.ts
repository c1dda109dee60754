import { describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { appointmentDecider, type AppointmentCommand, type AppointmentEvent, type MoveTarget } from './appointment';

const spec = deciderSpec(appointmentDecider);
const details = { appointment_id: 'a-1', slot_id: 42, doctor_id: 'doc-1', patient_id: 'pat-1', start: '2030-01-03T04:00:00.000Z', end: '2030-01-03T04:30:00.000Z' };
const requested: AppointmentEvent = { type: 'AppointmentRequested', data: { ...details, notes: 'Fever' } };
const approved: AppointmentEvent = { type: 'AppointmentApproved', data: { appointment_id: 'a-1', doctor_id: 'doc-1' } };
const begun: AppointmentEvent = { type: 'AppointmentConsultationBegun', data: { appointment_id: 'a-1', begun_at: details.start } };
const completed: AppointmentEvent = { type: 'AppointmentCompleted', data: { appointment_id: 'a-1', ended_at: details.end, auto_ended: false } };
const held = [requested, approved, begun, completed];

const offer = (data: { within_days?: number; fee?: number; actor_id?: string } = {}): AppointmentCommand => ({
  type: 'OfferFollowUp',
  data: { actor_id: 'doc-1', doctor_fee: 500, ...data },
});
const offered = (within_days = 7, fee = 0, until = '2030-01-10T04:30:00.000Z'): AppointmentEvent => ({
  type: 'AppointmentFollowUpOffered',
  data: { appointment_id: 'a-1', doctor_id: 'doc-1', patient_id: 'pat-1', within_days, until, fee },
});

const slot = (slot_id: number, start: string, doctor_id = 'doc-1'): MoveTarget => ({ slot_id, doctor_id, start, end: new Date(new Date(start).getTime() + 30 * 60_000).toISOString() });
const inside = slot(50, '2030-01-09T05:00:00.000Z');
const book = (to: MoveTarget | null, extra: { actor_id?: string; follow_up_appointment_id?: string; lapsed?: string | null } = {}): AppointmentCommand => ({
  type: 'BookFollowUp',
  data: { actor_id: 'pat-1', follow_up_appointment_id: 'f-1', to, lapsed: null, ...extra },
});
const booked = (id = 'f-1', slot_id = 50): AppointmentEvent => ({ type: 'AppointmentFollowUpBooked', data: { appointment_id: 'a-1', follow_up_appointment_id: id, slot_id } });

describe('the doctor offers a follow-up (issue 35)', () => {
  it('within 7 days of the consultation\'s end, free, unless they say otherwise', () => {
    spec(held).when(offer()).then([offered()]);
    spec(held).when(offer({ within_days: 14, fee: 200 })).then([offered(14, 200, '2030-01-17T04:30:00.000Z')]);
  });
  it('during the call too, but not on a consultation that did not take place', () => {
    spec([requested, approved, begun]).when(offer()).then([offered()]);
    spec([requested, approved]).when(offer()).then([]);
    spec([requested, { type: 'AppointmentRejected', data: { appointment_id: 'a-1', doctor_id: 'doc-1', reason: null } }]).when(offer()).then([]);
  });
  it('the same offer again records nothing; left out, the days and fee keep the earlier offer\'s', () => {
    spec([...held, offered(14, 200, '2030-01-17T04:30:00.000Z')]).when(offer()).then([]);
    spec([...held, offered(14, 200, '2030-01-17T04:30:00.000Z')]).when(offer({ fee: 0 })).then([offered(14, 0, '2030-01-17T04:30:00.000Z')]);
  });
  it('a fee above the doctor\'s own is refused; only the appointment\'s doctor offers', () => {
    spec(held).when(offer({ fee: 501 })).thenThrows('invalid', API_TEXTS.followUpFeeTooHigh('500'));
    spec(held).when(offer({ actor_id: 'doc-2' })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
  });
});

describe('the patient books the follow-up', () => {
  const withOffer = [...held, offered()];
  it('one of the same doctor\'s slots starting before the window ends', () => spec(withOffer).when(book(inside)).then([booked()]));
  it('refuses a slot after the window, another doctor\'s, or a missing one', () => {
    spec(withOffer).when(book(slot(51, '2030-01-10T04:30:00.000Z'))).thenThrows('conflict', API_TEXTS.followUpOutsideWindow('2030-01-10 04:30 UTC'));
    spec(withOffer).when(book(slot(52, inside.start, 'doc-2'))).thenThrows('conflict', API_TEXTS.followUpOtherDoctor);
    spec(withOffer).when(book(null)).thenThrows('not_found', API_TEXTS.slotNotFound);
  });
  it('refuses someone else\'s consultation, one not completed, and one with no offer', () => {
    spec(withOffer).when(book(inside, { actor_id: 'pat-2' })).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    spec([requested, approved, begun, offered()]).when(book(inside)).thenThrows('conflict', API_TEXTS.followUpNotCompleted);
    spec(held).when(book(inside)).thenThrows('conflict', API_TEXTS.followUpNotOffered);
  });
  it('one follow-up per offer: a second is refused while the first stands, allowed once it lapsed', () => {
    spec([...withOffer, booked()]).when(book(inside, { follow_up_appointment_id: 'f-2' })).thenThrows('conflict', API_TEXTS.followUpAlreadyBooked);
    spec([...withOffer, booked()]).when(book(inside, { follow_up_appointment_id: 'f-2', lapsed: 'f-1' })).then([booked('f-2')]);
    // A racing booking's claim is not the one found lapsed.
    spec([...withOffer, booked('f-3')]).when(book(inside, { follow_up_appointment_id: 'f-2', lapsed: 'f-1' })).thenThrows('conflict', API_TEXTS.followUpAlreadyBooked);
  });
  it('the same booking decided again records nothing more', () => spec([...withOffer, booked()]).when(book(inside)).then([]));
});
