import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useT } from '../../i18n/useT';
import { addDoctorPayload } from './InstitutionAdmin';
import { slugFromName } from './InstitutionsPage';
import { defaultHours, emptyStaff, hoursPayload, hoursProblem, staffPayload } from './institutionForm';

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
    expect(slugFromName(`${'a'.repeat(62)} clinic`)).toBe('a'.repeat(62)); // never ends with a hyphen after cutting
  });
});

describe('Create Institution form', () => {
  it("starts from the seeds' hours (09:00-17:00 weekdays, 09:00-13:00 Saturday, closed Sunday) and sends them per weekday", () => {
    const hours = defaultHours();
    const t = renderHook(() => useT()).result.current; // English, as outside an I18nProvider
    expect(hoursPayload(hours)).toEqual({ MO: '09:00-17:00', TU: '09:00-17:00', WE: '09:00-17:00', TH: '09:00-17:00', FR: '09:00-17:00', SA: '09:00-13:00', SU: null });
    const edited = { ...hours, SU: { open: true, from: '10:00', to: '12:00' }, MO: { ...hours.MO, open: false } };
    expect(hoursPayload(edited)).toMatchObject({ MO: null, SU: '10:00-12:00' });
    expect(hoursProblem({ ...hours, TU: { open: true, from: '18:00', to: '09:00' } }, t)).toBe('Tuesday: closing time must be after opening time');
    expect(hoursProblem(hours, t)).toBeNull();
  });
  it('sends role title and department when given, and the specialization only for doctor roles', () => {
    const base = { ...emptyStaff(), name: ' Dr. Sen ', email: 'sen@clinic.in', phone: '+91 90000 00001', role_title: 'Head of Cardiology', department: 'Cardiology', specialization: 'Cardiology' };
    expect(staffPayload({ ...base, account_type: 'DOCTOR' })).toEqual({
      name: 'Dr. Sen',
      email: 'sen@clinic.in',
      phone: '+91 90000 00001',
      account_type: 'DOCTOR',
      role_title: 'Head of Cardiology',
      department: 'Cardiology',
      specialization: 'Cardiology',
    });
    expect(staffPayload({ ...base, account_type: 'STAFF' }).specialization).toBeUndefined();
    expect(staffPayload({ ...base, role_title: '  ', account_type: 'ADMIN' }).role_title).toBeUndefined();
  });
});
