import type { Doctor } from '@telemed/contracts';
import type { DoctorDoc } from '../projections';

/** A doctor's practice fields, as every view of a doctor shows them. */
export function doctorFields(doc: DoctorDoc) {
  return {
    specialty: doc.specialty,
    qualification: doc.qualification,
    consultation_fee: doc.consultation_fee,
    appointment_duration_minutes: doc.appointment_duration_minutes,
    registration_number: doc.registration_number,
    medical_council: doc.medical_council,
    city: doc.city ?? null,
    languages: doc.languages ?? [],
  };
}

/** A doctor as lists show them; `accepting_bookings` from the read models (bookableDoctors), as the public page says it. */
export function doctorView(doc: DoctorDoc, accepting_bookings: boolean): Doctor {
  return { doctor_id: doc._id, name: doc.name, phone_number: doc.phone_number, ...doctorFields(doc), accepting_bookings };
}
