import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { SPEC_TIME, event, freshId, projectionSpec } from '../support/projection-spec';
import { erased, staffAdded } from '../support/spec-events';

const invitations = projectionSpec('institution_invitations');
const ANSWERED = '2026-03-06T08:00:00.000Z';

function invitation() {
  const institution = freshId('institution');
  const user = freshId('doctor');
  const admin = freshId('admin');
  const id = freshId('invitation');
  const staff = freshId('staff');
  const invited = event(
    'InstitutionStaffInvited',
    { ...staffAdded({ institution_id: institution, staff_id: staff, user_id: user, name: 'Vikram Shah', role_title: null }).data, invitation_id: id },
    { actor: { user_id: admin, role: 'doctor' } },
  );
  const pending = {
    _id: id,
    institution_id: institution,
    staff_id: staff,
    user_id: user,
    name: 'Vikram Shah',
    email: `${user}@clinic.example.in`,
    phone: '+919800000002',
    role: 'DOCTOR',
    role_title: null,
    department: 'Cardiology',
    specialization: 'Interventional cardiology',
    status: 'pending',
    invited_at: SPEC_TIME,
    invited_by: admin,
    answered_at: null,
  };
  return { institution, user, id, staff, invited, pending };
}

describe('institution_invitations projection', () => {
  it('an invitation is pending, with who invited whom, as what', () => {
    const i = invitation();
    return invitations.given().when(i.invited).then({ institution_invitations: [i.pending] });
  });

  it('the invitee answers: accepted or declined, and when', async () => {
    for (const type of ['InstitutionInvitationAccepted', 'InstitutionInvitationDeclined'] as const) {
      const i = invitation();
      await invitations
        .given(i.invited)
        .when(event(type, { institution_id: i.institution, invitation_id: i.id, user_id: i.user }, { at: ANSWERED }))
        .then({ institution_invitations: [{ ...i.pending, status: type === 'InstitutionInvitationAccepted' ? 'accepted' : 'declined', answered_at: ANSWERED }] });
    }
  });

  it('the institution withdraws it (or disbands): revoked', () => {
    const i = invitation();
    return invitations
      .given(i.invited)
      .when(event('InstitutionInvitationRevoked', { institution_id: i.institution, invitation_id: i.id, user_id: i.user, reason: 'disbanded' }, { at: ANSWERED }))
      .then({ institution_invitations: [{ ...i.pending, status: 'revoked', answered_at: ANSWERED }] });
  });

  it("the invitee's erasure blanks what the institution wrote of them, and leaves null what it never wrote", () => {
    const i = invitation();
    const other = invitation();
    return invitations
      .given(i.invited, other.invited)
      .when(erased(i.user))
      .then({
        institution_invitations: [
          { ...i.pending, name: ERASED_VALUE, email: ERASED_VALUE, phone: ERASED_VALUE, role_title: null, department: ERASED_VALUE, specialization: ERASED_VALUE },
          other.pending,
        ],
      });
  });

  it('an invitation delivered again does not make an answered one pending again', () => {
    const i = invitation();
    return invitations
      .given(i.invited)
      .when(event('InstitutionInvitationDeclined', { institution_id: i.institution, invitation_id: i.id, user_id: i.user }, { at: ANSWERED }))
      .deliveredAgain('given')
      .then({ institution_invitations: [{ ...i.pending, status: 'declined', answered_at: ANSWERED }] });
  });

  it('the staff the acceptance adds belongs to the institutions read model: the invitations stay as they were', () => {
    const i = invitation();
    return invitations
      .given(i.invited)
      .when(staffAdded({ institution_id: i.institution, staff_id: i.staff, user_id: i.user }), event('InstitutionStaffRemoved', { institution_id: i.institution, staff_id: i.staff, user_id: i.user }))
      .thenUnchanged();
  });
});
