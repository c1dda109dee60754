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
/** A candidate whose account was created for the institution just now (joins directly). */
/** The institution's admin asks (rights are tested on their own below). */
const byAdmin = { user_id: 'u-admin', platform_admin: false };
const fresh = (member: StaffMember) => ({ member, existing_account: false, invitation_id: `inv-${member.user_id}`, by: byAdmin });
/** A candidate whose account existed already (is only invited). */
const existing = (member: StaffMember) => ({ member, existing_account: true, invitation_id: `inv-${member.user_id}`, by: byAdmin });
const invited = (m: StaffMember): InstitutionEvent => ({ type: 'InstitutionStaffInvited', data: { institution_id: 'i-1', invitation_id: `inv-${m.user_id}`, ...m } });
const answer = { institution_id: 'i-1', invitation_id: 'inv-u-doc', user_id: 'u-doc' };

describe('institution decider', () => {
  it('creates with its staff', () =>
    spec([]).when({ type: 'CreateInstitution', data: { institution, staff: [fresh(admin), fresh(doctor)] } }).then([created, added(admin), added(doctor)]));
  it('creates with staff whose accounts existed only invited', () =>
    spec([]).when({ type: 'CreateInstitution', data: { institution, staff: [fresh(admin), existing(doctor)] } }).then([created, added(admin), invited(doctor)]));
  it('needs at least one staff member', () =>
    spec([]).when({ type: 'CreateInstitution', data: { institution, staff: [] } }).thenThrows('invalid', INSTITUTION_TEXTS.atLeastOneStaff));
  it('adds a doctor once', () => {
    spec([created, added(admin)]).when({ type: 'AddStaff', data: fresh(doctor) }).then([added(doctor)]);
    spec([created, added(admin), added(doctor)]).when({ type: 'AddStaff', data: fresh({ ...doctor, staff_id: 'other' }) }).then([]);
  });
  it('refuses a second role for the same person', () =>
    spec([created, added(admin)]).when({ type: 'AddStaff', data: fresh({ ...admin, role: 'DOCTOR', staff_id: 'x' }) }).thenThrows('conflict'));
  it('only invites an existing account, once', () => {
    spec([created, added(admin)]).when({ type: 'AddStaff', data: existing(doctor) }).then([invited(doctor)]);
    spec([created, added(admin), invited(doctor)]).when({ type: 'AddStaff', data: { ...existing(doctor), invitation_id: 'inv-2' } }).then([]);
    spec([created, added(admin), invited(doctor)]).when({ type: 'AddStaff', data: existing({ ...doctor, role: 'SUPER_DOCTOR' }) }).thenThrows('conflict');
  });
  it('the invitee accepts and joins with the invited role; a pending invitation is no membership', () => {
    spec([created, added(admin), invited(doctor)])
      .when({ type: 'AcceptInvitation', data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } })
      .then([{ type: 'InstitutionInvitationAccepted', data: answer }, added(doctor)]);
    const pending = [created, added(admin), invited(doctor)].reduce(institutionDecider.evolve, institutionDecider.initialState());
    assert.equal(membershipOf(pending, 'u-doc'), null);
  });
  it('only the invitee answers, once; anyone else is told there is no such invitation', () => {
    const given = [created, added(admin), invited(doctor)];
    for (const type of ['AcceptInvitation', 'DeclineInvitation'] as const) {
      spec(given).when({ type, data: { invitation_id: 'inv-u-doc', user_id: 'u-admin' } }).thenThrows('not_found', INSTITUTION_TEXTS.invitationNotFound);
      spec(given).when({ type, data: { invitation_id: 'nope', user_id: 'u-doc' } }).thenThrows('not_found', INSTITUTION_TEXTS.invitationNotFound);
      spec([]).when({ type, data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } }).thenThrows('not_found', INSTITUTION_TEXTS.invitationNotFound);
    }
    spec(given).when({ type: 'DeclineInvitation', data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } }).then([{ type: 'InstitutionInvitationDeclined', data: answer }]);
    spec([...given, { type: 'InstitutionInvitationDeclined', data: answer }])
      .when({ type: 'AcceptInvitation', data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } })
      .thenThrows('not_found');
    spec([...given, { type: 'InstitutionInvitationAccepted', data: answer }, added(doctor)])
      .when({ type: 'AcceptInvitation', data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } })
      .thenThrows('not_found');
  });
  it('the institution withdraws a pending invitation, directly or by removing the person; disbanding revokes the rest', () => {
    const given = [created, added(admin), invited(doctor)];
    const revoked = (reason: 'withdrawn' | 'disbanded'): InstitutionEvent => ({ type: 'InstitutionInvitationRevoked', data: { ...answer, reason } });
    spec(given).when({ type: 'RevokeInvitation', data: { invitation_id: 'inv-u-doc', by: byAdmin } }).then([revoked('withdrawn')]);
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-doc', doctors_only: true, by: byAdmin } }).then([revoked('withdrawn')]);
    spec([...given, revoked('withdrawn')]).when({ type: 'RevokeInvitation', data: { invitation_id: 'inv-u-doc', by: byAdmin } }).thenThrows('not_found');
    spec(given).when({ type: 'DisbandInstitution', data: {} }).then([revoked('disbanded'), disbanded]);
    spec([...given, revoked('disbanded'), disbanded])
      .when({ type: 'AcceptInvitation', data: { invitation_id: 'inv-u-doc', user_id: 'u-doc' } })
      .thenThrows('not_found');
  });
  it('removes staff but keeps the last admin', () => {
    spec([created, added(admin), added(doctor)])
      .when({ type: 'RemoveStaff', data: { user_id: 'u-doc', doctors_only: true, by: byAdmin } })
      .then([{ type: 'InstitutionStaffRemoved', data: { institution_id: 'i-1', staff_id: 's-u-doc', user_id: 'u-doc' } }]);
    spec([created, added(admin)]).when({ type: 'RemoveStaff', data: { user_id: 'u-admin', doctors_only: false, by: byAdmin } }).thenThrows('conflict', INSTITUTION_TEXTS.lastAdmin);
    spec([created, added(admin)]).when({ type: 'RemoveStaff', data: { user_id: 'u-admin', doctors_only: true, by: byAdmin } }).thenThrows('not_found');
  });
  it('disbands once; a disbanded institution changes no more', () => {
    spec([created]).when({ type: 'DisbandInstitution', data: {} }).then([disbanded]);
    spec([created, disbanded]).when({ type: 'DisbandInstitution', data: {} }).then([]);
    spec([created, disbanded]).when({ type: 'AddStaff', data: fresh(doctor) }).thenThrows('conflict', INSTITUTION_TEXTS.disbanded);
    spec([]).when({ type: 'DisbandInstitution', data: {} }).thenThrows('not_found');
  });
  it('deactivates and activates a doctor, once each; only doctors; a deactivated doctor has no rights there', () => {
    const ids = { institution_id: 'i-1', staff_id: 's-u-doc', user_id: 'u-doc' };
    const off: InstitutionEvent = { type: 'InstitutionDoctorDeactivated', data: ids };
    const given = [created, added(admin), added(doctor)];
    spec(given).when({ type: 'SetDoctorActive', data: { user_id: 'u-doc', active: false } }).then([off]);
    spec([...given, off]).when({ type: 'SetDoctorActive', data: { user_id: 'u-doc', active: false } }).then([]);
    spec(given).when({ type: 'SetDoctorActive', data: { user_id: 'u-doc', active: true } }).then([]);
    spec([...given, off]).when({ type: 'SetDoctorActive', data: { user_id: 'u-doc', active: true } }).then([{ type: 'InstitutionDoctorActivated', data: ids }]);
    spec(given).when({ type: 'SetDoctorActive', data: { user_id: 'u-admin', active: false } }).thenThrows('conflict', INSTITUTION_TEXTS.notADoctor);
    spec(given).when({ type: 'SetDoctorActive', data: { user_id: 'stranger', active: false } }).thenThrows('not_found', INSTITUTION_TEXTS.staffNotFound);
    const state = [...given, off].reduce(institutionDecider.evolve, institutionDecider.initialState());
    assert.deepEqual(membershipOf(state, 'u-doc'), { role: 'DOCTOR', is_institution_admin: false, permissions: [] });
  });
  it('changes a role with its rights; keeps an admin; nobody raises themselves or gives rights they lack', () => {
    const staffer = person('u-staff', 'STAFF');
    const superDoctor = person('u-super', 'SUPER_DOCTOR');
    const given = [created, added(admin), added(doctor), added(staffer), added(superDoctor)];
    const byAdmin = { user_id: 'u-admin', platform_admin: false };
    const change = (user_id: string, role: StaffMember['role'], by = byAdmin, doctor_account = false) =>
      ({ type: 'ChangeStaffRole', data: { user_id, role, doctor_account, by } }) as const;
    const changed = (m: StaffMember, role: StaffMember['role']): InstitutionEvent => ({
      type: 'InstitutionStaffRoleChanged',
      data: { institution_id: 'i-1', staff_id: m.staff_id, user_id: m.user_id, role, previous_role: m.role, is_institution_admin: role === 'ADMIN' },
    });
    spec(given).when(change('u-staff', 'ADMIN')).then([changed(staffer, 'ADMIN')]);
    spec(given).when(change('u-staff', 'STAFF')).then([]);
    // A doctor role needs a doctor's account.
    spec(given).when(change('u-staff', 'DOCTOR')).thenThrows('conflict', INSTITUTION_TEXTS.notADoctorAccount);
    spec(given).when(change('u-staff', 'DOCTOR', byAdmin, true)).then([changed(staffer, 'DOCTOR')]);
    // The last admin keeps the role, even at a platform admin's request; with a second admin either may step down.
    spec(given).when(change('u-admin', 'STAFF')).thenThrows('conflict', INSTITUTION_TEXTS.lastAdmin);
    spec(given).when(change('u-admin', 'STAFF', { user_id: 'op', platform_admin: true })).thenThrows('conflict', INSTITUTION_TEXTS.lastAdmin);
    spec([...given, changed(staffer, 'ADMIN')]).when(change('u-admin', 'STAFF')).then([changed(admin, 'STAFF')]);
    // Nobody raises themselves (a super doctor's manage rights are not the ADMIN's manage_users, nor its flag).
    spec(given).when(change('u-super', 'ADMIN', { user_id: 'u-super', platform_admin: false }, true)).thenThrows('forbidden', INSTITUTION_TEXTS.ownRole);
    spec(given).when(change('u-super', 'DOCTOR', { user_id: 'u-super', platform_admin: false }, true)).then([changed(superDoctor, 'DOCTOR')]);
    // A super doctor (manage_staff, not an admin) gives only roles within their rights, to members within them.
    const bySuper = { user_id: 'u-super', platform_admin: false };
    spec(given).when(change('u-staff', 'USER', bySuper)).then([changed(staffer, 'USER')]);
    spec(given).when(change('u-staff', 'ADMIN', bySuper)).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    // A member who may read appointments but not manage staff gives nothing (the route refuses them first, too).
    spec(given).when(change('u-staff', 'USER', { user_id: 'u-doc', platform_admin: false })).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when(change('u-doc', 'SUPER_DOCTOR', bySuper, true)).then([changed(doctor, 'SUPER_DOCTOR')]);
    spec(given).when(change('u-admin', 'DOCTOR', bySuper, true)).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when(change('stranger', 'STAFF')).thenThrows('not_found', INSTITUTION_TEXTS.staffNotFound);
    const state = [...given, changed(staffer, 'ADMIN')].reduce(institutionDecider.evolve, institutionDecider.initialState());
    assert.deepEqual(membershipOf(state, 'u-staff'), { role: 'ADMIN', is_institution_admin: true, permissions: ['read', 'write', 'delete', 'manage_users'] });
  });
  it('adds, invites, removes and withdraws invitations only within the asker\'s rights: a super doctor makes no admin and removes none', () => {
    const superDoctor = person('u-super', 'SUPER_DOCTOR');
    const secondAdmin = person('u-admin2', 'ADMIN');
    const given = [created, added(admin), added(secondAdmin), added(doctor), added(superDoctor)];
    const bySuper = { user_id: 'u-super', platform_admin: false };
    const byDoctor = { user_id: 'u-doc', platform_admin: false };
    const newAdmin = person('u-new', 'ADMIN');
    const newDoctor = person('u-new', 'DOCTOR');
    const removed = (m: StaffMember): InstitutionEvent => ({ type: 'InstitutionStaffRemoved', data: { institution_id: 'i-1', staff_id: m.staff_id, user_id: m.user_id } });
    const invitedAdmin: InstitutionEvent = { type: 'InstitutionStaffInvited', data: { institution_id: 'i-1', invitation_id: 'inv-u-new', ...newAdmin } };
    spec(given).when({ type: 'AddStaff', data: { ...fresh(newAdmin), by: bySuper } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when({ type: 'AddStaff', data: { ...existing(newAdmin), by: bySuper } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when({ type: 'AddStaff', data: { ...fresh(newDoctor), by: bySuper } }).then([added(newDoctor)]);
    spec(given).when({ type: 'AddStaff', data: { ...fresh(newDoctor), by: byDoctor } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when({ type: 'AddStaff', data: { ...fresh(newDoctor), by: { user_id: 'stranger', platform_admin: false } } }).thenThrows('not_found');
    spec(given).when({ type: 'AddStaff', data: { ...fresh(newAdmin), by: { user_id: 'op', platform_admin: true } } }).then([added(newAdmin)]);
    // Two admins: neither can be removed by a super doctor, only by an admin (or themselves).
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-admin2', doctors_only: false, by: bySuper } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-admin2', doctors_only: false, by: byAdmin } }).then([removed(secondAdmin)]);
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-admin2', doctors_only: false, by: { user_id: 'u-admin2', platform_admin: false } } }).then([removed(secondAdmin)]);
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-doc', doctors_only: true, by: bySuper } }).then([removed(doctor)]);
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-super', doctors_only: true, by: byDoctor } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    // Leaving takes no rights.
    spec(given).when({ type: 'RemoveStaff', data: { user_id: 'u-doc', doctors_only: true, by: byDoctor } }).then([removed(doctor)]);
    spec([...given, invitedAdmin]).when({ type: 'RevokeInvitation', data: { invitation_id: 'inv-u-new', by: bySuper } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
    spec([...given, invitedAdmin]).when({ type: 'RemoveStaff', data: { user_id: 'u-new', doctors_only: false, by: bySuper } }).thenThrows('forbidden', INSTITUTION_TEXTS.roleBeyondYours);
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
