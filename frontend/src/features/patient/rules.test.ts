import { describe, expect, it } from 'vitest';
import { slotIdProblem } from './ConfirmAppointment';
import { canJoin, statusLabel } from './MyAppointments';
import { matchesSearch, upcoming } from './types';
import en from '../../i18n/catalogues/en/patient.json';

describe('patient screen rules', () => {
  it('checks the slot id as the seeds say', () => {
    const problem = (raw: string | null) => {
      const id = slotIdProblem(raw);
      return id && en[id];
    };
    expect(problem(null)).toBe('Error: No slot ID provided');
    expect(problem('abc')).toBe('Error: Invalid slot ID');
    expect(problem('1.5')).toBe('Error: Invalid slot ID');
    expect(problem('1003626610')).toBeNull();
  });
  it('shows Join now within 2 days of the start, or after it', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(canJoin('2030-01-02T23:00:00Z', now)).toBe(true);
    expect(canJoin('2030-01-03T01:00:00Z', now)).toBe(false);
    expect(canJoin('2029-12-31T00:00:00Z', now)).toBe(true);
  });
  it('searches name, specialty and qualification case-insensitively', () => {
    const doctor = { doctor_id: 'd', name: 'Dr. Ananya Sharma', specialty: 'General Medicine', qualification: 'MBBS, MD', consultation_fee: 1, appointment_duration_minutes: 30, phone_number: null, registration_number: null, medical_council: null, city: null, languages: [], accepting_bookings: true };
    expect(matchesSearch(doctor, 'ANANYA')).toBe(true);
    expect(matchesSearch(doctor, 'medicine')).toBe(true);
    expect(matchesSearch(doctor, 'mbbs')).toBe(true);
    expect(matchesSearch(doctor, 'cardio')).toBe(false);
  });
  it('keeps only available future slots, sorted by start', () => {
    const slot = (id: number, start: string, is_available = true) => ({ slot_id: id, slot_date: '', start_time: '', end_time: '', is_available, start_at: start, end_at: start });
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(upcoming([slot(3, '2030-01-03T00:00:00Z'), slot(1, '2029-12-31T00:00:00Z'), slot(2, '2030-01-02T00:00:00Z'), slot(4, '2030-01-04T00:00:00Z', false)], now).map((s) => s.slot_id)).toEqual([2, 3]);
  });
});

describe('My Appointments status labels', () => {
  const now = Date.parse('2030-01-02T00:00:00Z');
  const future = '2030-01-03T04:00:00Z';
  const past = '2030-01-01T04:00:00Z';
  it('say how each appointment stands for the one reading it', () => {
    expect(en[statusLabel({ status: 'requested', statusReason: null, startAt: future }, 'patient', now).labelId]).toBe('Awaiting approval');
    expect(en[statusLabel({ status: 'requested', statusReason: null, startAt: future }, 'doctor', now).labelId]).toBe('Awaiting your approval');
    expect(en[statusLabel({ status: 'confirmed', statusReason: null, startAt: future }, 'patient', now).labelId]).toBe('Confirmed');
    expect(en[statusLabel({ status: 'confirmed', statusReason: null, startAt: past }, 'patient', now).labelId]).toBe('Completed');
    expect(en[statusLabel({ status: 'rejected', statusReason: null, startAt: future }, 'patient', now).labelId]).toBe('Declined');
    // Closed by the system when the patient withdrew consent: nobody declined it.
    expect(en[statusLabel({ status: 'rejected', statusReason: 'consent_withdrawn', startAt: future }, 'patient', now).labelId]).toBe('Withdrawn');
    expect(en[statusLabel({ status: 'rejected', statusReason: 'consent_withdrawn', startAt: future }, 'doctor', now).labelId]).toBe('Withdrawn by the patient');
    expect(en[statusLabel({ status: 'cancelled', statusReason: 'cancelled_by_patient', startAt: future }, 'patient', now).labelId]).toBe('Cancelled by you');
    expect(en[statusLabel({ status: 'cancelled', statusReason: 'cancelled_by_patient', startAt: future }, 'doctor', now).labelId]).toBe('Cancelled by the patient');
    expect(en[statusLabel({ status: 'cancelled', statusReason: 'expired', startAt: past }, 'doctor', now).labelId]).toBe('Expired (no answer)');
  });
});
