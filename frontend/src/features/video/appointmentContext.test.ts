import { describe, expect, it } from 'vitest';
import { contextOf } from './appointmentContext';
import type { DoctorAppointment, PatientAppointment } from '@telemed/contracts';

const slot = { slot_id: 7, slot_date: '2026-11-24', start_time: '07:30:00', end_time: '08:00:00', start_at: '2026-11-24T02:00:00Z' };
const now = new Date('2026-11-24T01:30:00Z');

describe('the call page’s appointment context', () => {
  it('names the doctor to the patient and the patient to the doctor, with the time in the seeds’ phrase', () => {
    const forPatient = { appointment_id: 'a1', doctor: { doctor_id: 'd1', name: 'Dr. Kavita Rao', specialty: 'Cardiology' }, patient: { name: 'Asha', phone_number: null }, slot } as unknown as PatientAppointment;
    const forDoctor = { appointment_id: 'a1', patient_id: 'p1', patient_name: 'Asha Verma', slot } as unknown as DoctorAppointment;
    expect(contextOf(forPatient, now, 'Asia/Kolkata')).toEqual({ otherName: 'Dr. Kavita Rao', when: 'Today at 7:30 am' });
    expect(contextOf(forDoctor, now, 'Asia/Kolkata')).toEqual({ otherName: 'Asha Verma', when: 'Today at 7:30 am' });
  });
});
