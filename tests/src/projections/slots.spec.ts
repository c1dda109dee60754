import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { people, slotOpened, slotReserved } from '../support/spec-events';

const slots = projectionSpec('slots');
const RESERVED_AT = '2026-03-03T12:00:00.000Z';

/** The slot's document while open; instants kept in their stored form (whole seconds, `Z`). */
const openSlot = (slot_id: number, doctor_id: string, start = '2026-03-10T04:30:00Z', end = '2026-03-10T05:00:00Z') => ({
  _id: String(slot_id),
  slot_id,
  doctor_id,
  doctor_day: `${doctor_id}/${start.slice(0, 10)}`,
  start,
  end,
  status: 'open',
  appointment_id: null,
  patient_id: null,
  reserved_at: null,
  reserved_event_id: null,
});

describe('slots projection', () => {
  it("an opened slot is open on its doctor's UTC day, and the doctor's range starts at it", () => {
    const { doctor } = people();
    const opened = slotOpened({ slot_id: 101, doctor_id: doctor });
    return slots
      .given()
      .when(opened)
      .then((log) => ({
        slots: [openSlot(101, doctor)],
        doctor_slot_ranges: [{ _id: doctor, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(opened) }],
      }));
  });

  it("the range keeps the latest start when an earlier slot opens after it; a slot starting before 05:30 IST is on the previous UTC day", () => {
    const { doctor } = people();
    const late = slotOpened({ slot_id: 102, doctor_id: doctor, start: '2026-03-12T10:00:00.000Z', end: '2026-03-12T10:30:00.000Z' });
    const early = slotOpened({ slot_id: 103, doctor_id: doctor, start: '2026-03-10T23:30:00.000Z', end: '2026-03-11T00:00:00.000Z' });
    return slots
      .given(late)
      .when(early)
      .then((log) => ({
        slots: [openSlot(102, doctor, '2026-03-12T10:00:00Z', '2026-03-12T10:30:00Z'), openSlot(103, doctor, '2026-03-10T23:30:00Z', '2026-03-11T00:00:00Z')],
        doctor_slot_ranges: [{ _id: doctor, last_start: '2026-03-12T10:00:00Z', revision: log.positionOf(early) }],
      }));
  });

  it('a reservation holds the slot for the appointment and its patient, and moves the range revision', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    const reserved = slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }, { at: RESERVED_AT });
    return slots
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }))
      .when(reserved)
      .then((log) => ({
        slots: [{ ...openSlot(101, doctor), status: 'reserved', appointment_id: appointment, patient_id: patient, reserved_at: RESERVED_AT, reserved_event_id: reserved.event_id }],
        doctor_slot_ranges: [{ _id: doctor, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(reserved) }],
      }));
  });

  it('a release (a rejection) opens the slot again with nothing of the earlier booking', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    const released = event('SlotReleased', { slot_id: 101, doctor_id: doctor, appointment_id: appointment, reason: 'rejected' });
    return slots
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }), slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }))
      .when(released)
      .then((log) => ({
        slots: [openSlot(101, doctor)],
        doctor_slot_ranges: [{ _id: doctor, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(released) }],
      }));
  });

  it("a withdrawn slot stays listed as withdrawn; another doctor's slots are not touched", () => {
    const { doctor } = people();
    const { doctor: other } = people();
    const withdrawn = event('SlotWithdrawn', { slot_id: 101, doctor_id: doctor });
    const othersSlot = slotOpened({ slot_id: 201, doctor_id: other });
    return slots
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }), othersSlot)
      .when(withdrawn)
      .then((log) => ({
        slots: [{ ...openSlot(101, doctor), status: 'withdrawn' }, openSlot(201, other)],
        doctor_slot_ranges: [
          { _id: doctor, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(withdrawn) },
          { _id: other, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(othersSlot) },
        ],
      }));
  });

  it('an opening delivered again does not free a slot reserved after it', () => {
    const { doctor, patient } = people();
    const appointment = freshId('appointment');
    const reserved = slotReserved({ slot_id: 101, doctor_id: doctor, appointment_id: appointment, patient_id: patient }, { at: RESERVED_AT });
    return slots
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }))
      .when(reserved)
      .deliveredAgain('given')
      .then((log) => ({
        slots: [{ ...openSlot(101, doctor), status: 'reserved', appointment_id: appointment, patient_id: patient, reserved_at: RESERVED_AT, reserved_event_id: reserved.event_id }],
        doctor_slot_ranges: [{ _id: doctor, last_start: '2026-03-10T04:30:00Z', revision: log.positionOf(reserved) }],
      }));
  });

  it('an availability save and appointment events leave the slots as they were (the slot events carry the change)', () => {
    const { doctor, patient } = people();
    return slots
      .given(slotOpened({ slot_id: 101, doctor_id: doctor }))
      .when(
        event('AvailabilitySet', { doctor_id: doctor, timezone: 'Asia/Kolkata', opened: [102], withdrawn: [101] }),
        event('AppointmentApproved', { appointment_id: freshId('appointment'), doctor_id: doctor }),
        event('PatientSubscribedToDoctor', { patient_id: patient, doctor_id: doctor }),
      )
      .thenUnchanged();
  });
});
