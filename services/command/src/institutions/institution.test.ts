import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_HOURS_OF_OPERATION, DEFAULT_ROLE_PERMISSIONS, INSTITUTION_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { institutionDecider, membershipOf, slugDecider, type InstitutionEvent, type StaffMember } from './institution';

const spec = deciderSpec(institutionDecider);
const institution = {
  institution_id: 'i-1',
  name: 'Sunrise',
  slug: 'sunrise',
  address: 'MG Road',
  phone: '+91 80 4000 1234',
  email: 'c@s.in',
  hours_of_operation: DEFAULT_HOURS_OF_OPERATION,
  role_permissions: DEFAULT_ROLE_PERMISSIONS,
};
const person = (user_id: string, role: StaffMember['role']): StaffMember => ({
  staff_id: `s-${user_id}`,
  user_id,
  name: user_id,
  email: `${user_id}@s.in`,
  phone: '+91 90000 00000',
  role,
  role_title: null,
  department: null,
  specialization: null,
  is_institution_admin: role === 'ADMIN',
});
const admin = person('u-admin', 'ADMIN');
const doctor = person('u-doc', 'DOCTOR');
const created: InstitutionEvent = { type: 'InstitutionCreated', data: institution };
const added = (m: StaffMember): InstitutionEvent => ({ type: 'InstitutionStaffAdded', data: { institution_id: 'i-1', ...m } });
const disbanded: InstitutionEvent = { type: 'InstitutionDisbanded', data: { institution_id: 'i-1' } };

describe('institution decider', () => {
  it('creates with its staff', () => spec([]).when({ type: 'CreateInstitution', data: { institution, staff: [admin, doctor] } }).then([created, added(admin), added(doctor)]));
  it('needs at least one staff member', () =>
    spec([]).when({ type: 'CreateInstitution', data: { institution, staff: [] } }).thenThrows('invalid', INSTITUTION_TEXTS.atLeastOneStaff));
  it('adds a doctor once', () => {
    spec([created, added(admin)]).when({ type: 'AddStaff', data: { member: doctor } }).then([added(doctor)]);
    spec([created, added(admin), added(doctor)]).when({ type: 'AddStaff', data: { member: { ...doctor, staff_id: 'other' } } }).then([]);
  });
  it('refuses a second role for the same person', () =>
    spec([created, added(admin)]).when({ type: 'AddStaff', data: { member: { ...admin, role: 'DOCTOR', staff_id: 'x' } } }).thenThrows('conflict'));
  it('removes staff but keeps the last admin', () => {
    spec([created, added(admin), added(doctor)])
      .when({ type: 'RemoveStaff', data: { user_id: 'u-doc', doctors_only: true } })
      .then([{ type: 'InstitutionStaffRemoved', data: { institution_id: 'i-1', staff_id: 's-u-doc', user_id: 'u-doc' } }]);
    spec([created, added(admin)]).when({ type: 'RemoveStaff', data: { user_id: 'u-admin', doctors_only: false } }).thenThrows('conflict', INSTITUTION_TEXTS.lastAdmin);
    spec([created, added(admin)]).when({ type: 'RemoveStaff', data: { user_id: 'u-admin', doctors_only: true } }).thenThrows('not_found');
  });
  it('disbands once; a disbanded institution changes no more', () => {
    spec([created]).when({ type: 'DisbandInstitution', data: {} }).then([disbanded]);
    spec([created, disbanded]).when({ type: 'DisbandInstitution', data: {} }).then([]);
    spec([created, disbanded]).when({ type: 'AddStaff', data: { member: doctor } }).thenThrows('conflict', INSTITUTION_TEXTS.disbanded);
    spec([]).when({ type: 'DisbandInstitution', data: {} }).thenThrows('not_found');
  });
  it('derives memberships with the role permissions', () => {
    const state = [created, added(admin), added(doctor)].reduce(institutionDecider.evolve, institutionDecider.initialState());
    assert.deepEqual(membershipOf(state, 'u-doc'), { role: 'DOCTOR', is_institution_admin: false, permissions: ['read', 'write', 'appointments'] });
    assert.equal(membershipOf(state, 'stranger'), null);
    assert.equal(membershipOf(institutionDecider.evolve(state, disbanded), 'u-doc'), null);
  });
});

describe('slug decider', () => {
  const slugSpec = deciderSpec(slugDecider);
  const claim = (institution_id: string, holder_exists = true) => ({ type: 'ClaimSlug', data: { slug: 'sunrise', institution_id, holder_exists } }) as const;
  const claimed = { type: 'InstitutionSlugClaimed', data: { slug: 'sunrise', institution_id: 'i-1' } } as const;
  it('claims a free slug', () => slugSpec([]).when(claim('i-1')).then([claimed]));
  it('refuses a taken slug', () => slugSpec([claimed]).when(claim('i-2')).thenThrows('conflict', INSTITUTION_TEXTS.slugTaken));
  it('takes over a slug whose institution was never written', () =>
    slugSpec([claimed]).when(claim('i-2', false)).then([{ type: 'InstitutionSlugClaimed', data: { slug: 'sunrise', institution_id: 'i-2' } }]));
});
