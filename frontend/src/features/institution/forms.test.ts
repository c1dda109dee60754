import { describe, expect, it } from 'vitest';
import { addDoctorPayload } from './InstitutionAdmin';
import { slugFromName } from './InstitutionsPage';

describe('institution forms', () => {
  it('applies the seeds’ defaults to an add-doctor payload; appointments are always 30 minutes', () => {
    expect(addDoctorPayload({ name: ' Dr. A ', email: 'a@b.in', phone_number: '+91 1', qualification: '', specialty: '', consultation_fee: '' })).toEqual({
      name: 'Dr. A',
      email: 'a@b.in',
      phone_number: '+91 1',
      specialty: 'General Medicine',
      qualification: 'MD',
      consultation_fee: 100,
      appointment_duration_minutes: 30,
    });
    expect(addDoctorPayload({ name: 'B', email: 'b@b.in', phone_number: '1', qualification: 'MS', specialty: 'ENT', consultation_fee: '750' }).consultation_fee).toBe(750);
  });
  it('derives the slug from the name: lowercase letters, digits, hyphens', () => {
    expect(slugFromName('Sunrise Family Clinic #2!')).toBe('sunrise-family-clinic-2');
    expect(slugFromName('  --Apollo  ')).toBe('apollo');
  });
});
