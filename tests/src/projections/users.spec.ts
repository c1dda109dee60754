import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { SPEC_TIME, event, freshId, projectionSpec } from '../support/projection-spec';
import { erased, registered } from '../support/spec-events';

const users = projectionSpec('users');
const LATER = '2026-03-05T10:00:00.000Z';

describe('users projection', () => {
  it('a registration is an active account with its contact details and the time it was registered', () => {
    const id = freshId('patient');
    return users.given().when(registered({ user_id: id, name: 'Asha Rao', phone_number: '+919812345678' })).then({
      users: [{ _id: id, name: 'Asha Rao', email: `${id}@example.in`, phone_number: '+919812345678', account_type: 'patient', registered_at: SPEC_TIME, active: true }],
    });
  });

  it('a profile update changes only the fields it carries (a name given alone keeps the phone)', () => {
    const id = freshId('patient');
    return users
      .given(registered({ user_id: id, name: 'Asha Rao', phone_number: '+919812345678' }))
      .when(event('UserProfileUpdated', { user_id: id, name: 'Asha R. Kulkarni' }))
      .then({ users: [{ _id: id, name: 'Asha R. Kulkarni', email: `${id}@example.in`, phone_number: '+919812345678', account_type: 'patient', registered_at: SPEC_TIME, active: true }] });
  });

  it("a language chosen is kept on the account; the person's other fields stay as they were", () => {
    const id = freshId('patient');
    return users
      .given(registered({ user_id: id, name: 'Asha Rao', phone_number: '+919812345678' }), event('UserLanguageChosen', { user_id: id, language: 'hi' }))
      .when(event('UserLanguageChosen', { user_id: id, language: 'ta' }))
      .then({ users: [{ _id: id, name: 'Asha Rao', email: `${id}@example.in`, phone_number: '+919812345678', account_type: 'patient', registered_at: SPEC_TIME, active: true, language: 'ta' }] });
  });

  it('a phone number cleared by a later update reads as none', () => {
    const id = freshId('patient');
    return users
      .given(registered({ user_id: id, phone_number: '+919812345678' }))
      .when(event('UserProfileUpdated', { user_id: id, phone_number: null }))
      .then({ users: [{ _id: id, name: `Name of ${id}`, email: `${id}@example.in`, phone_number: null, account_type: 'patient', registered_at: SPEC_TIME, active: true }] });
  });

  it('a reactivation reopens the account and keeps the time of the last deactivation (older tokens stay refused)', () => {
    const id = freshId('doctor');
    return users
      .given(registered({ user_id: id, account_type: 'doctor' }), event('UserDeactivated', { user_id: id, reason: 'Licence under review' }, { at: LATER }))
      .when(event('UserReactivated', { user_id: id }, { at: '2026-03-06T10:00:00.000Z' }))
      .then({
        users: [{ _id: id, name: `Name of ${id}`, email: `${id}@example.in`, phone_number: '+919800000001', account_type: 'doctor', registered_at: SPEC_TIME, active: true, deactivated_at: LATER }],
      });
  });

  it('an erasure blanks name and contact details, closes the account and keeps the dates', () => {
    const id = freshId('patient');
    const other = freshId('patient');
    return users
      .given(registered({ user_id: id }), registered({ user_id: other }))
      .when(erased(id, {}, { at: LATER }))
      .then({
        users: [
          { _id: id, name: ERASED_VALUE, email: null, phone_number: null, account_type: 'patient', registered_at: SPEC_TIME, active: false, erased_at: LATER },
          { _id: other, name: `Name of ${other}`, email: `${other}@example.in`, phone_number: '+919800000001', account_type: 'patient', registered_at: SPEC_TIME, active: true },
        ],
      });
  });

  it('a registration delivered again (at or below the checkpoint) does not undo a deactivation recorded after it', () => {
    const id = freshId('patient');
    return users
      .given(registered({ user_id: id }))
      .when(event('UserDeactivated', { user_id: id, reason: 'Duplicate account' }, { at: LATER }))
      .deliveredAgain('given')
      .then({
        users: [{ _id: id, name: `Name of ${id}`, email: `${id}@example.in`, phone_number: '+919800000001', account_type: 'patient', registered_at: SPEC_TIME, active: false, deactivated_at: LATER }],
      });
  });

  it('events of other read models leave the accounts as they were', () => {
    const id = freshId('doctor');
    return users
      .given(registered({ user_id: id, account_type: 'doctor' }))
      .when(
        event('PasswordSet', { user_id: id, password_hash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA' }),
        event('PatientSubscribedToDoctor', { patient_id: freshId('patient'), doctor_id: id }),
        event('ConsentGiven', { user_id: id, notice_version: '2026-01', language: 'en', text_hash: 'a'.repeat(64) }),
      )
      .thenUnchanged();
  });
});
