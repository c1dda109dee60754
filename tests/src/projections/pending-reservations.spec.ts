import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { appointmentRequested, people, slotOpened, slotReserved } from '../support/spec-events';

const pending = projectionSpec('pending_reservations');
const RESERVED_AT = '2026-03-03T12:00:00.000Z';

describe('pending_reservations projection (reservations waiting for their appointment)', () => {
  it('a reservation waits for its appointment', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    const reserved = slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }, { at: RESERVED_AT });
    return pending
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }))
      .when(reserved)
      .then({ pending_reservations: [{ _id: `${appointment}@101`, appointment_id: appointment, slot_id: 101, reserved_at: RESERVED_AT, reserved_event_id: reserved.event_id }] });
  });

  it('the request of its appointment ends the wait; another reservation still waits', () => {
    const { doctor, patient } = people();
    const [booked, waiting] = [freshId('appointment'), freshId('appointment')];
    const stillWaiting = slotReserved({ slot_id: 102, doctor_id: doctor, appointment_id: waiting, patient_id: patient }, { at: RESERVED_AT });
    return pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: booked, patient_id: patient }), stillWaiting)
      .when(appointmentRequested({ appointment_id: booked, doctor_id: doctor, patient_id: patient, slot_id: 101 }))
      .then({ pending_reservations: [{ _id: `${waiting}@102`, appointment_id: waiting, slot_id: 102, reserved_at: RESERVED_AT, reserved_event_id: stillWaiting.event_id }] });
  });

  it('a released reservation (healed: its appointment never appeared) waits no more', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    return pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }))
      .when(event('SlotReleased', { slot_id: 101, doctor_id: doctor, appointment_id: appointment, reason: 'orphaned' }))
      .then({ pending_reservations: [] });
  });

  it('a reservation delivered again after its appointment was requested does not wait again (the healer would release a booked slot)', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    return pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }))
      .when(appointmentRequested({ appointment_id: appointment, doctor_id: doctor, patient_id: patient, slot_id: 101 }))
      .deliveredAgain('given')
      .then({ pending_reservations: [] });
  });

  it('what follows a request (approval, voiding, withdrawal of other slots) leaves the waiting reservations', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    return pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }))
      .when(
        event('AppointmentApproved', { appointment_id: appointment, doctor_id: doctor }),
        event('AppointmentVoided', { appointment_id: freshId('appointment'), slot_id: 105 }),
        event('SlotWithdrawn', { slot_id: 106, doctor_id: doctor }),
      )
      .thenUnchanged();
  });

  it("a move's reserved slot waits beside the appointment's own until the move is recorded (issue 35)", () => {
    const [doctor, patient, appointment] = [freshId('doctor'), freshId('patient'), freshId('appointment')];
    const held = slotReserved({ slot_id: 102, doctor_id: doctor, appointment_id: appointment, patient_id: patient }, { at: RESERVED_AT });
    pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }), appointmentRequested({ appointment_id: appointment, doctor_id: doctor, patient_id: patient, slot_id: 101 }))
      .when(held)
      .then({ pending_reservations: [{ _id: `${appointment}@102`, appointment_id: appointment, slot_id: 102, reserved_at: RESERVED_AT, reserved_event_id: held.event_id }] });
    pending
      .given(slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }), appointmentRequested({ appointment_id: appointment, doctor_id: doctor, patient_id: patient, slot_id: 101 }), held)
      .when(
        event('AppointmentRescheduled', {
          appointment_id: appointment, doctor_id: doctor, patient_id: patient, from_slot_id: 101, from_start: '2030-01-01T04:00:00.000Z', to_slot_id: 102,
          start: '2030-01-02T04:00:00.000Z', end: '2030-01-02T04:30:00.000Z', rescheduled_by: 'patient', needs_approval: false, move: 1,
        }),
      )
      .then({ pending_reservations: [] });
  });
});
