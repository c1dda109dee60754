import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { doctorRegistered, erased, registered } from '../support/spec-events';

const doctors = projectionSpec('doctors');

/** A doctor's document as the registration made it (profile still empty). */
const account = (id: string) => ({
  _id: id,
  doctor_number: 0,
  name: `Name of ${id}`,
  email: `${id}@example.in`,
  phone_number: '+919800000001',
  specialty: '',
  qualification: '',
  consultation_fee: 0,
  appointment_duration_minutes: 0,
  registration_number: null,
  medical_council: null,
  city: null,
});

/** Then with the profile of spec-events' doctorRegistered. */
const practising = (id: string) => ({
  ...account(id),
  doctor_number: 7,
  specialty: 'Cardiology',
  qualification: 'MBBS, MD',
  consultation_fee: 500,
  appointment_duration_minutes: 30,
  registration_number: 'MMC-2011-4471',
  medical_council: 'Maharashtra Medical Council',
  city: 'Pune',
});

describe('doctors projection', () => {
  it('a doctor account is listed with an empty profile; a patient account is not a doctor', () => {
    const doctor = freshId('doctor');
    return doctors.given().when(registered({ user_id: doctor, account_type: 'doctor' }), registered({ user_id: freshId('patient') })).then({ doctors: [account(doctor)] });
  });

  it('the practitioner registration fills the profile', () => {
    const doctor = freshId('doctor');
    return doctors.given(registered({ user_id: doctor, account_type: 'doctor' })).when(doctorRegistered({ doctor_id: doctor })).then({ doctors: [practising(doctor)] });
  });

  it('a registration written before doctors had a city reads as no city', () => {
    const doctor = freshId('doctor');
    const { city: _city, ...withoutCity } = doctorRegistered({ doctor_id: doctor }).data;
    return doctors
      .given(registered({ user_id: doctor, account_type: 'doctor' }))
      .when(event('DoctorRegistered', withoutCity))
      .then({ doctors: [{ ...practising(doctor), city: null }] });
  });

  it('a profile update changes what it names and keeps the rest; a city cleared reads as none', () => {
    const doctor = freshId('doctor');
    return doctors
      .given(registered({ user_id: doctor, account_type: 'doctor' }), doctorRegistered({ doctor_id: doctor }))
      .when(event('DoctorProfileUpdated', { doctor_id: doctor, consultation_fee: 800, city: null }), event('UserProfileUpdated', { user_id: doctor, name: 'Dr. Vikram Shah' }))
      .then({ doctors: [{ ...practising(doctor), consultation_fee: 800, city: null, name: 'Dr. Vikram Shah' }] });
  });

  it('an erasure blanks name, contact details and registration number, and keeps the professional facts', () => {
    const doctor = freshId('doctor');
    const unregistered = freshId('doctor');
    return doctors
      .given(
        registered({ user_id: doctor, account_type: 'doctor' }),
        doctorRegistered({ doctor_id: doctor }),
        registered({ user_id: unregistered, account_type: 'doctor' }),
        doctorRegistered({ doctor_id: unregistered, registration_number: null }),
      )
      .when(erased(doctor, {}, { at: '2026-03-04T08:00:00.000Z' }), erased(unregistered, {}, { at: '2026-03-04T08:00:00.000Z' }))
      .then({
        doctors: [
          { ...practising(doctor), name: ERASED_VALUE, email: null, phone_number: null, registration_number: ERASED_VALUE, erased_at: '2026-03-04T08:00:00.000Z' },
          { ...practising(unregistered), name: ERASED_VALUE, email: null, phone_number: null, registration_number: null, erased_at: '2026-03-04T08:00:00.000Z' },
        ],
      });
  });

  it("a patient's erasure makes no doctor document", () => {
    const patient = freshId('patient');
    const doctor = freshId('doctor');
    return doctors.given(registered({ user_id: patient }), registered({ user_id: doctor, account_type: 'doctor' })).when(erased(patient)).then({ doctors: [account(doctor)] });
  });

  it('a registration delivered again does not undo the profile recorded after it', () => {
    const doctor = freshId('doctor');
    return doctors.given(registered({ user_id: doctor, account_type: 'doctor' })).when(doctorRegistered({ doctor_id: doctor })).deliveredAgain('given').then({ doctors: [practising(doctor)] });
  });

  it('account standing, numbering and subscriptions leave the profile as it was', () => {
    const doctor = freshId('doctor');
    return doctors
      .given(registered({ user_id: doctor, account_type: 'doctor' }), doctorRegistered({ doctor_id: doctor }))
      .when(
        event('UserDeactivated', { user_id: doctor, reason: 'Licence under review' }),
        event('DoctorNumberAssigned', { doctor_id: doctor, doctor_number: 99 }),
        event('PatientSubscribedToDoctor', { patient_id: freshId('patient'), doctor_id: doctor }),
      )
      .thenUnchanged();
  });
});
