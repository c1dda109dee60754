import { describe, it } from 'node:test';
import { CONSENT_TEXTS, type DomainEventOf } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { consentDecider, type CurrentNotice } from './consent';

const spec = deciderSpec(consentDecider);
const patient: DomainEventOf<'UserRegistered'> = {
  type: 'UserRegistered',
  data: { user_id: 'p-1', email: 'p@x.in', name: 'Priya', account_type: 'patient', phone_number: null },
};
const doctor: DomainEventOf<'UserRegistered'> = { type: 'UserRegistered', data: { ...patient.data, user_id: 'd-1', account_type: 'doctor' } };
const notice: CurrentNotice = { version: 'v2', language: 'hi', text_hash: 'hash-v2-hi' };
const given = (version: string, text_hash = `hash-${version}`) =>
  ({ type: 'ConsentGiven', data: { user_id: 'p-1', notice_version: version, language: 'hi', text_hash } }) as const;
const withdrawn = (version: string, text_hash = `hash-${version}`) => ({ type: 'ConsentWithdrawn', data: { user_id: 'p-1', notice_version: version, text_hash } }) as const;

describe('consent decider', () => {
  it("records a patient's agreement with the notice's version, language and text hash", () =>
    spec([patient]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).then([given('v2', 'hash-v2-hi')]));
  it('is idempotent while the consent holds', () => spec([patient, given('v2')]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).then([]));
  it('records agreement again after a withdrawal', () =>
    spec([patient, given('v2'), withdrawn('v2')]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).then([given('v2', 'hash-v2-hi')]));
  it('refuses agreement to a notice that is not the current one', () =>
    spec([patient]).when({ type: 'GiveConsent', data: { notice_version: 'v1', notice } }).thenThrows('conflict', CONSENT_TEXTS.notCurrentNotice));
  it('refuses a doctor (the notice is for booking patients)', () =>
    spec([doctor]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).thenThrows('forbidden'));
  it('refuses an unknown or deactivated account', () => {
    spec([]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).thenThrows('not_found');
    spec([patient, { type: 'UserDeactivated', data: { user_id: 'p-1', reason: 'left' } }]).when({ type: 'GiveConsent', data: { notice_version: 'v2', notice } }).thenThrows('not_found');
  });

  it('withdraws with the hash of the text agreed to', () =>
    spec([patient, given('v2', 'hash-agreed')]).when({ type: 'WithdrawConsent', data: { notice_version: 'v2' } }).then([withdrawn('v2', 'hash-agreed')]));
  it('withdraws once', () => spec([patient, given('v2'), withdrawn('v2')]).when({ type: 'WithdrawConsent', data: { notice_version: 'v2' } }).then([]));
  it('answers not_found for a version never agreed to', () =>
    spec([patient, given('v1')]).when({ type: 'WithdrawConsent', data: { notice_version: 'v2' } }).thenThrows('not_found', CONSENT_TEXTS.noSuchConsent));

  it('lets a booking through with a consent to the current notice', () => spec([patient, given('v2')]).when({ type: 'RequireConsent', data: { current_version: 'v2' } }).then([]));
  it('stops a booking without consent, after a withdrawal, or with a consent to an older notice only', () => {
    for (const history of [[patient], [patient, given('v2'), withdrawn('v2')], [patient, given('v1')]]) {
      spec(history).when({ type: 'RequireConsent', data: { current_version: 'v2' } }).thenThrows('forbidden', CONSENT_TEXTS.consentNeeded);
    }
  });
  it("passes over the user stream's other events", () =>
    spec([patient, { type: 'PatientSubscribedToDoctor', data: { patient_id: 'p-1', doctor_id: 'd-1' } } as never, given('v2')])
      .when({ type: 'RequireConsent', data: { current_version: 'v2' } })
      .then([]));
});
