import { describe, it } from 'node:test';
import { deciderSpec } from '../decider-spec';
import { userDecider, type UserEvent } from './user';
import { doctorNumberDecider } from './doctor-numbers';

const spec = deciderSpec(userDecider);
const patient: UserEvent = {
  type: 'UserRegistered',
  data: { user_id: 'p-1', email: 'p@x.in', name: 'Priya', account_type: 'patient', phone_number: '+91 90000 00001' },
};
const doctorUser: UserEvent = {
  type: 'UserRegistered',
  data: { user_id: 'd-1', email: 'd@x.in', name: 'Dr. Rao', account_type: 'doctor', phone_number: null },
};
const profile = {
  doctor_number: 3,
  specialty: 'Cardiology',
  qualification: 'MBBS, DM',
  consultation_fee: 799,
  appointment_duration_minutes: 30,
  registration_number: 'KMC-1234',
  medical_council: 'Karnataka Medical Council',
};
const doctorRegistered: UserEvent = { type: 'DoctorRegistered', data: { doctor_id: 'd-1', ...profile } };

describe('user decider', () => {
  it('registers a patient', () => spec([]).when({ type: 'RegisterUser', data: { ...patient.data, doctor: null } as never }).then([patient]));
  it('registers a doctor with the profile in the same append', () =>
    spec([]).when({ type: 'RegisterUser', data: { ...doctorUser.data, doctor: profile } as never }).then([doctorUser, doctorRegistered]));
  it('refuses a doctor without a profile', () =>
    spec([]).when({ type: 'RegisterUser', data: { ...doctorUser.data, doctor: null } as never }).thenThrows('invalid'));
  it('refuses to register twice', () => spec([patient]).when({ type: 'RegisterUser', data: { ...patient.data, doctor: null } as never }).thenThrows('conflict'));

  it('records only changed profile fields', () =>
    spec([patient])
      .when({ type: 'UpdateProfile', data: { name: 'Priya P', phone_number: '+91 90000 00001' } })
      .then([{ type: 'UserProfileUpdated', data: { user_id: 'p-1', name: 'Priya P' } }]));
  it('records nothing when nothing changed', () => spec([patient]).when({ type: 'UpdateProfile', data: { name: 'Priya' } }).then([]));
  it('records the language chosen, once: choosing it again records nothing', () => {
    spec([patient]).when({ type: 'UpdateProfile', data: { language: 'hi' } }).then([{ type: 'UserLanguageChosen', data: { user_id: 'p-1', language: 'hi' } }]);
    spec([patient, { type: 'UserLanguageChosen', data: { user_id: 'p-1', language: 'hi' } }]).when({ type: 'UpdateProfile', data: { language: 'hi' } }).then([]);
    spec([patient, { type: 'UserLanguageChosen', data: { user_id: 'p-1', language: 'hi' } }])
      .when({ type: 'UpdateProfile', data: { name: 'Priya P', language: 'ta' } })
      .then([
        { type: 'UserProfileUpdated', data: { user_id: 'p-1', name: 'Priya P' } },
        { type: 'UserLanguageChosen', data: { user_id: 'p-1', language: 'ta' } },
      ]);
  });
  it("updates a doctor's fee", () =>
    spec([doctorUser, doctorRegistered])
      .when({ type: 'UpdateProfile', data: { doctor: { consultation_fee: 899, specialty: 'Cardiology' } } })
      .then([{ type: 'DoctorProfileUpdated', data: { doctor_id: 'd-1', consultation_fee: 899 } }]));
  // doctorRegistered has no city: registrations were written so before doctors had one.
  it('reads a registration without a city as no city: clearing it records nothing', () =>
    spec([doctorUser, doctorRegistered]).when({ type: 'UpdateProfile', data: { doctor: { city: null } } }).then([]));
  it("records a doctor's languages in the product's order, once; the same set in another order records nothing", () => {
    const spoken: UserEvent = { type: 'DoctorProfileUpdated', data: { doctor_id: 'd-1', languages: ['en', 'hi', 'ta'] } };
    spec([doctorUser, doctorRegistered]).when({ type: 'UpdateProfile', data: { doctor: { languages: ['ta', 'hi', 'en'] } } }).then([spoken]);
    spec([doctorUser, doctorRegistered, spoken]).when({ type: 'UpdateProfile', data: { doctor: { languages: ['hi', 'en', 'ta'] } } }).then([]);
  });
  it("records a doctor's city, and clearing it again", () => {
    const inPune: UserEvent = { type: 'DoctorProfileUpdated', data: { doctor_id: 'd-1', city: 'Pune' } };
    spec([doctorUser, doctorRegistered]).when({ type: 'UpdateProfile', data: { doctor: { city: 'Pune' } } }).then([inPune]);
    spec([doctorUser, doctorRegistered, inPune]).when({ type: 'UpdateProfile', data: { doctor: { city: 'Pune' } } }).then([]);
    spec([doctorUser, doctorRegistered, inPune])
      .when({ type: 'UpdateProfile', data: { doctor: { city: null } } })
      .then([{ type: 'DoctorProfileUpdated', data: { doctor_id: 'd-1', city: null } }]);
  });
  it('refuses practitioner fields for a patient', () =>
    spec([patient]).when({ type: 'UpdateProfile', data: { doctor: { specialty: 'ENT' } } }).thenThrows('invalid'));
  it('answers not_found for an unknown user', () => spec([]).when({ type: 'UpdateProfile', data: { name: 'X' } }).thenThrows('not_found'));

  it('subscribes a patient to a doctor once', () =>
    spec([patient])
      .when({ type: 'SubscribeToDoctor', data: { doctor_id: 'd-1', doctor_exists: true } })
      .then([{ type: 'PatientSubscribedToDoctor', data: { patient_id: 'p-1', doctor_id: 'd-1' } }]));
  it('is idempotent for a doctor already on the list', () =>
    spec([patient, { type: 'PatientSubscribedToDoctor', data: { patient_id: 'p-1', doctor_id: 'd-1' } }])
      .when({ type: 'SubscribeToDoctor', data: { doctor_id: 'd-1', doctor_exists: true } })
      .then([]));
  it('refuses an unknown doctor', () =>
    spec([patient]).when({ type: 'SubscribeToDoctor', data: { doctor_id: 'nobody', doctor_exists: false } }).thenThrows('not_found'));
  it('passes over consents on the same stream', () =>
    spec([patient, { type: 'ConsentGiven', data: { user_id: 'p-1', notice_version: 'v1', language: 'en', text_hash: 'h' } }])
      .when({ type: 'UpdateProfile', data: { name: 'Priya P' } })
      .then([{ type: 'UserProfileUpdated', data: { user_id: 'p-1', name: 'Priya P' } }]));
  it('refuses a doctor subscribing', () =>
    spec([doctorUser, doctorRegistered]).when({ type: 'SubscribeToDoctor', data: { doctor_id: 'd-2', doctor_exists: true } }).thenThrows('invalid'));
});

describe('doctor number decider', () => {
  const numbers = deciderSpec(doctorNumberDecider);
  it('starts at 1', () =>
    numbers([]).when({ type: 'AssignDoctorNumber', data: { doctor_id: 'd-1' } }).then([{ type: 'DoctorNumberAssigned', data: { doctor_id: 'd-1', doctor_number: 1 } }]));
  it('continues after the last', () =>
    numbers([{ type: 'DoctorNumberAssigned', data: { doctor_id: 'd-1', doctor_number: 1 } }])
      .when({ type: 'AssignDoctorNumber', data: { doctor_id: 'd-2' } })
      .then([{ type: 'DoctorNumberAssigned', data: { doctor_id: 'd-2', doctor_number: 2 } }]));
});

describe('user decider: deactivation and passwords', () => {
  const deactivated: UserEvent = { type: 'UserDeactivated', data: { user_id: 'p-1', reason: 'left the clinic' } };
  it('deactivates once', () =>
    spec([patient]).when({ type: 'DeactivateUser', data: { reason: 'left the clinic' } }).then([deactivated]));
  it('is idempotent', () => spec([patient, deactivated]).when({ type: 'DeactivateUser', data: { reason: 'again' } }).then([]));
  it('a deactivated user cannot change anything', () =>
    spec([patient, deactivated]).when({ type: 'UpdateProfile', data: { name: 'X' } }).thenThrows('not_found'));
  it('records a password hash', () =>
    spec([patient])
      .when({ type: 'SetPassword', data: { password_hash: '$argon2id$v=19$abc' } })
      .then([{ type: 'PasswordSet', data: { user_id: 'p-1', password_hash: '$argon2id$v=19$abc' } }]));
});
