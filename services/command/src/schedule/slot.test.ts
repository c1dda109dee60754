import { describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { slotDecider, type SlotEvent } from './slot';

const spec = deciderSpec(slotDecider);
const slot = { slot_id: 1_003_626_610, doctor_id: 'doc-1', start: '2030-01-01T04:00:00Z', end: '2030-01-01T04:30:00Z' };
const opened: SlotEvent = { type: 'SlotOpened', data: slot };
const reservation = { slot_id: slot.slot_id, doctor_id: 'doc-1', appointment_id: 'a-1', patient_id: 'p-1', start: slot.start, end: slot.end };
const reserved: SlotEvent = { type: 'SlotReserved', data: reservation };
const released: SlotEvent = { type: 'SlotReleased', data: { slot_id: slot.slot_id, doctor_id: 'doc-1', appointment_id: 'a-1', reason: 'rejected' } };
const withdrawn: SlotEvent = { type: 'SlotWithdrawn', data: { slot_id: slot.slot_id, doctor_id: 'doc-1' } };
const before = new Date('2029-12-31T00:00:00Z');
const reserve = (appointment_id: string, now = before, doctor_accepting = true) =>
  ({ type: 'ReserveSlot', data: { slot_id: slot.slot_id, appointment_id, patient_id: 'p-2', now, doctor_accepting } }) as const;

describe('slot decider', () => {
  it('opens an unpublished slot', () => spec([]).when({ type: 'OpenSlot', data: slot }).then([opened]));
  it('does not reopen an open slot', () => spec([opened]).when({ type: 'OpenSlot', data: slot }).then([]));
  it('reopens a withdrawn slot', () => spec([opened, withdrawn]).when({ type: 'OpenSlot', data: slot }).then([opened]));
  it('leaves a booked slot alone when opened again', () => spec([opened, reserved]).when({ type: 'OpenSlot', data: slot }).then([]));

  it('withdraws an open slot', () => spec([opened]).when({ type: 'WithdrawSlot', data: { slot_id: slot.slot_id } }).then([withdrawn]));
  it('never withdraws a booked slot', () => spec([opened, reserved]).when({ type: 'WithdrawSlot', data: { slot_id: slot.slot_id } }).then([]));
  it('withdrawing an unpublished slot changes nothing', () => spec([]).when({ type: 'WithdrawSlot', data: { slot_id: slot.slot_id } }).then([]));

  it('reserves an open future slot', () =>
    spec([opened]).when(reserve('a-2')).then([{ type: 'SlotReserved', data: { ...reservation, appointment_id: 'a-2', patient_id: 'p-2' } }]));
  it('refuses an unknown slot with not_found', () => spec([]).when(reserve('a-2')).thenThrows('not_found', API_TEXTS.slotNotFound));
  it('refuses a reserved slot with conflict', () => spec([opened, reserved]).when(reserve('a-2')).thenThrows('conflict', API_TEXTS.slotTaken));
  it('tells the patient who holds the reservation that they already requested it', () =>
    spec([opened, { ...reserved, data: { ...reservation, patient_id: 'p-2' } }]).when(reserve('a-2')).thenThrows('conflict', API_TEXTS.slotAlreadyRequested));
  it('refuses a withdrawn slot', () => spec([opened, withdrawn]).when(reserve('a-2')).thenThrows('conflict', API_TEXTS.slotNotAvailable));
  it('refuses a slot that has started', () =>
    spec([opened]).when(reserve('a-2', new Date(slot.start))).thenThrows('conflict', API_TEXTS.slotPast));
  it('refuses an open slot of a doctor who is not accepting bookings; a booked one still says it is taken', () => {
    spec([opened]).when(reserve('a-2', before, false)).thenThrows('conflict', API_TEXTS.doctorNotAccepting);
    spec([opened, reserved]).when(reserve('a-2', before, false)).thenThrows('conflict', API_TEXTS.slotTaken);
  });
  it('can be reserved again after a release', () =>
    spec([opened, reserved, released]).when(reserve('a-2')).then([{ type: 'SlotReserved', data: { ...reservation, appointment_id: 'a-2', patient_id: 'p-2' } }]));

  it('releases the reservation of the same appointment', () =>
    spec([opened, reserved]).when({ type: 'ReleaseSlot', data: { appointment_id: 'a-1', reason: 'rejected' } }).then([released]));
  it('ignores a release for another appointment (idempotent process manager)', () =>
    spec([opened, reserved]).when({ type: 'ReleaseSlot', data: { appointment_id: 'a-9', reason: 'cancelled' } }).then([]));
  it('ignores a second release', () =>
    spec([opened, reserved, released]).when({ type: 'ReleaseSlot', data: { appointment_id: 'a-1', reason: 'rejected' } }).then([]));
});

describe('a hold for the waitlist (issue 35)', () => {
  const until = new Date(before.getTime() + 15 * 60_000);
  const held: SlotEvent = { type: 'SlotHeld', data: { slot_id: slot.slot_id, doctor_id: 'doc-1', patient_id: 'p-9', until: until.toISOString() } };
  const hold = (patient_id: string, now = before) => ({ type: 'HoldForWaitlist', data: { patient_id, until: new Date(now.getTime() + 15 * 60_000), now } }) as const;
  const reserveAs = (patient_id: string, now = before) => ({ type: 'ReserveSlot', data: { slot_id: slot.slot_id, appointment_id: 'a-9', patient_id, now, doctor_accepting: true } }) as const;
  it('holds an open slot for one patient at a time', () => {
    spec([opened]).when(hold('p-9')).then([held]);
    spec([opened, held]).when(hold('p-8')).then([]);
    spec([opened, reserved]).when(hold('p-9')).then([]);
    spec([opened, withdrawn]).when(hold('p-9')).then([]);
  });
  it('lets only its patient book it while it lasts; anyone once its time has passed', () => {
    spec([opened, held]).when(reserveAs('p-1')).thenThrows('conflict', API_TEXTS.slotNotAvailable);
    spec([opened, held]).when(reserveAs('p-9')).then([{ type: 'SlotReserved', data: { ...reservation, appointment_id: 'a-9', patient_id: 'p-9' } }]);
    spec([opened, held]).when(reserveAs('p-1', until)).then([{ type: 'SlotReserved', data: { ...reservation, appointment_id: 'a-9' } }]);
  });
  it('is let go by its patient only; a hold past its time may be replaced', () => {
    spec([opened, held]).when({ type: 'ReleaseHold', data: { patient_id: 'p-9', reason: 'declined' } }).then([
      { type: 'SlotHoldReleased', data: { slot_id: slot.slot_id, doctor_id: 'doc-1', patient_id: 'p-9', reason: 'declined' } },
    ]);
    spec([opened, held]).when({ type: 'ReleaseHold', data: { patient_id: 'p-8', reason: 'declined' } }).then([]);
    spec([opened, held]).when(hold('p-8', until)).then([{ type: 'SlotHeld', data: { slot_id: slot.slot_id, doctor_id: 'doc-1', patient_id: 'p-8', until: new Date(until.getTime() + 15 * 60_000).toISOString() } }]);
  });
});
