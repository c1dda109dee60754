import { describe, it } from 'node:test';
import { SPEC_TIME, event, projectionSpec } from '../support/projection-spec';
import { erased, people, registered } from '../support/spec-events';

const subscriptions = projectionSpec('patient_doctors');

describe('patient_doctors projection (a patient\'s doctors)', () => {
  it('a subscription links the patient to the doctor, once per pair', () => {
    const { patient, doctor } = people();
    const { doctor: other } = people();
    return subscriptions
      .given()
      .when(event('PatientSubscribedToDoctor', { patient_id: patient, doctor_id: doctor }), event('PatientSubscribedToDoctor', { patient_id: patient, doctor_id: other }))
      .then({
        patient_doctors: [
          { _id: `${patient}:${doctor}`, patient_id: patient, doctor_id: doctor, subscribed_at: SPEC_TIME },
          { _id: `${patient}:${other}`, patient_id: patient, doctor_id: other, subscribed_at: SPEC_TIME },
        ],
      });
  });

  it("two patients of one doctor have a link each (the pair is the key, not the doctor)", () => {
    const { patient, doctor } = people();
    const { patient: other } = people();
    return subscriptions
      .given(event('PatientSubscribedToDoctor', { patient_id: patient, doctor_id: doctor }))
      .when(event('PatientSubscribedToDoctor', { patient_id: other, doctor_id: doctor }))
      .then({
        patient_doctors: [
          { _id: `${patient}:${doctor}`, patient_id: patient, doctor_id: doctor, subscribed_at: SPEC_TIME },
          { _id: `${other}:${doctor}`, patient_id: other, doctor_id: doctor, subscribed_at: SPEC_TIME },
        ],
      });
  });

  it('registrations, deactivations and an erasure leave the links (ids only, nothing personal)', () => {
    const { patient, doctor } = people();
    return subscriptions
      .given(event('PatientSubscribedToDoctor', { patient_id: patient, doctor_id: doctor }))
      .when(registered({ user_id: patient }), event('UserDeactivated', { user_id: doctor, reason: 'Retired' }), erased(patient))
      .thenUnchanged();
  });
});
