import { describe, it } from 'node:test';
import { ERASED_VALUE } from '@telemed/contracts';
import { SPEC_TIME, event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { doctorRegistered, erased, registered, staffAdded } from '../support/spec-events';

const institutions = projectionSpec('institutions');
const LATER = '2026-03-05T10:00:00.000Z';

const created = (institution_id: string) =>
  event('InstitutionCreated', {
    institution_id,
    name: 'Sahyadri Heart Clinic',
    slug: `sahyadri-${institution_id}`,
    address: '12 FC Road, Pune',
    phone: '+912025500000',
    email: 'desk@sahyadri.example.in',
    hours_of_operation: { monday: '09:00-17:00', sunday: null },
    role_permissions: { ADMIN: ['manage_staff', 'manage_institution'], DOCTOR: ['appointments'] },
  });

const institutionDoc = (e: SpecEvent<'InstitutionCreated'>) => {
  const { institution_id, ...fields } = e.data;
  return { _id: institution_id, ...fields, is_active: true, created_at: SPEC_TIME };
};

/** The staff entry an addition makes, with what it shows as the member's doctor name and specialty. */
const member = (log: Log, added: SpecEvent<'InstitutionStaffAdded'>, shown: { doctor_name: string; doctor_specialty: string | null }) => {
  const { staff_id, ...fields } = added.data;
  return { _id: staff_id, ...fields, ...shown, is_active: true, added_at: added.metadata.occurred_at, added_position: log.positionOf(added), removed_at: null, removed_position: null };
};

/** An institution, a doctor account with a practice, and the doctor as the institution's member. */
function clinic() {
  const institution = freshId('institution');
  const doctor = freshId('doctor');
  const staff = freshId('staff');
  const given = [created(institution), registered({ user_id: doctor, name: 'Dr. Vikram Shah', account_type: 'doctor' }), doctorRegistered({ doctor_id: doctor })];
  const added = staffAdded({ institution_id: institution, staff_id: staff, user_id: doctor, name: 'Vikram Shah' });
  return { institution, doctor, staff, given, added, shown: { doctor_name: 'Dr. Vikram Shah', doctor_specialty: 'Cardiology' } };
}

describe('institutions projection (institutions and their staff)', () => {
  it('a created institution is active, with its details as recorded', () => {
    const institution = freshId('institution');
    const e = created(institution);
    return institutions.given().when(e).then({ institutions: [institutionDoc(e)], institution_staff: [] });
  });

  it("a doctor member shows their doctor account's name and specialty; a member without one, what the institution recorded", () => {
    const c = clinic();
    const clerk = staffAdded({ institution_id: c.institution, staff_id: freshId('staff'), user_id: freshId('user'), role: 'STAFF', name: 'Meera Joshi', specialization: null });
    return institutions
      .given(...c.given)
      .when(c.added, clerk)
      .then((log) => ({
        institution_staff: [member(log, c.added, c.shown), member(log, clerk, { doctor_name: 'Meera Joshi', doctor_specialty: null })],
        institution_member_doctors: [{ _id: c.doctor, name: 'Dr. Vikram Shah', specialty: 'Cardiology' }],
      }));
  });

  it("the doctor's later rename and new specialty reach their membership", () => {
    const c = clinic();
    return institutions
      .given(...c.given, c.added)
      .when(event('UserProfileUpdated', { user_id: c.doctor, name: 'Dr. Vikram S. Shah' }), event('DoctorProfileUpdated', { doctor_id: c.doctor, specialty: 'Cardiothoracic surgery' }))
      .then((log) => ({
        institution_staff: [member(log, c.added, { doctor_name: 'Dr. Vikram S. Shah', doctor_specialty: 'Cardiothoracic surgery' })],
        institution_member_doctors: [{ _id: c.doctor, name: 'Dr. Vikram S. Shah', specialty: 'Cardiothoracic surgery' }],
      }));
  });

  it('a removal closes the membership at its position; the entry stays for the history', () => {
    const c = clinic();
    const removed = event('InstitutionStaffRemoved', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor }, { at: LATER });
    return institutions
      .given(...c.given, c.added)
      .when(removed)
      .then((log) => ({ institution_staff: [{ ...member(log, c.added, c.shown), is_active: false, removed_at: LATER, removed_position: log.positionOf(removed) }] }));
  });

  it('a doctor deactivated in the institution is a member shown inactive, and active again when activated', async () => {
    const c = clinic();
    const off = event('InstitutionDoctorDeactivated', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor });
    await institutions
      .given(...c.given, c.added)
      .when(off)
      .then((log) => ({ institution_staff: [{ ...member(log, c.added, c.shown), deactivated: true }] }));
    await institutions
      .given(...c.given, c.added, off)
      .when(event('InstitutionDoctorActivated', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor }))
      .then((log) => ({ institution_staff: [{ ...member(log, c.added, c.shown), deactivated: false }] }));
  });

  it('a change between two doctor roles changes the role in place', () => {
    const c = clinic();
    return institutions
      .given(...c.given, c.added)
      .when(event('InstitutionStaffRoleChanged', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor, role: 'SUPER_DOCTOR', previous_role: 'DOCTOR', is_institution_admin: false }))
      .then((log) => ({ institution_staff: [{ ...member(log, c.added, c.shown), role: 'SUPER_DOCTOR' }] }));
  });

  it('a doctor who becomes an administrator closes the doctor interval (kept, superseded) and starts a new one at the change', () => {
    const c = clinic();
    const changed = event('InstitutionStaffRoleChanged', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor, role: 'ADMIN', previous_role: 'DOCTOR', is_institution_admin: true }, { at: LATER });
    return institutions
      .given(...c.given, c.added)
      .when(changed)
      .then((log) => {
        const before = member(log, c.added, c.shown);
        return {
          institution_staff: [
            { ...before, role: 'ADMIN', is_institution_admin: true, deactivated: false, added_at: LATER, added_position: log.positionOf(changed) },
            { ...before, _id: `${c.staff}@${log.positionOf(changed)}`, is_active: false, removed_at: LATER, removed_position: log.positionOf(changed), superseded: true },
          ],
        };
      });
  });

  it('an update changes only the details it carries; a disbanded institution is inactive', () => {
    const institution = freshId('institution');
    const e = created(institution);
    return institutions
      .given(e)
      .when(event('InstitutionUpdated', { institution_id: institution, phone: '+912025511111', hours_of_operation: { monday: '10:00-18:00' } }), event('InstitutionDisbanded', { institution_id: institution }))
      .then({ institutions: [{ ...institutionDoc(e), phone: '+912025511111', hours_of_operation: { monday: '10:00-18:00' }, is_active: false }] });
  });

  it("a member doctor's erasure blanks what the institution recorded of them and their name, and keeps their account's specialty", () => {
    const c = clinic();
    return institutions
      .given(...c.given, c.added)
      .when(erased(c.doctor))
      .then((log) => ({
        institution_staff: [
          { ...member(log, c.added, c.shown), name: ERASED_VALUE, email: ERASED_VALUE, phone: ERASED_VALUE, role_title: ERASED_VALUE, department: ERASED_VALUE, specialization: ERASED_VALUE, doctor_name: ERASED_VALUE },
        ],
        institution_member_doctors: [{ _id: c.doctor, name: ERASED_VALUE, specialty: 'Cardiology' }],
      }));
  });

  it("a staff member's erasure (no doctor account) blanks the recorded specialty too, and leaves what was never given null", () => {
    const c = clinic();
    const user = freshId('user');
    const clerk = staffAdded({ institution_id: c.institution, staff_id: freshId('staff'), user_id: user, role: 'STAFF', name: 'Meera Joshi', role_title: null, department: 'Front desk' });
    return institutions
      .given(...c.given, c.added, clerk)
      .when(erased(user))
      .then((log) => ({
        institution_staff: [
          member(log, c.added, c.shown),
          {
            ...member(log, clerk, { doctor_name: ERASED_VALUE, doctor_specialty: ERASED_VALUE }),
            name: ERASED_VALUE,
            email: ERASED_VALUE,
            phone: ERASED_VALUE,
            role_title: null,
            department: ERASED_VALUE,
            specialization: ERASED_VALUE,
          },
        ],
      }));
  });

  it('an addition delivered again does not reopen a membership removed after it', () => {
    const c = clinic();
    const removed = event('InstitutionStaffRemoved', { institution_id: c.institution, staff_id: c.staff, user_id: c.doctor }, { at: LATER });
    return institutions
      .given(...c.given, c.added)
      .when(removed)
      .deliveredAgain('given')
      .then((log) => ({ institution_staff: [{ ...member(log, c.added, c.shown), is_active: false, removed_at: LATER, removed_position: log.positionOf(removed) }] }));
  });

  it('invitations and slug claims leave the institutions and their staff as they were', () => {
    const c = clinic();
    const invitation = freshId('invitation');
    return institutions
      .given(...c.given, c.added)
      .when(
        event('InstitutionSlugClaimed', { slug: 'another-clinic', institution_id: freshId('institution') }),
        event('InstitutionStaffInvited', { ...staffAdded({ institution_id: c.institution, staff_id: freshId('staff'), user_id: freshId('user') }).data, invitation_id: invitation }),
        event('InstitutionInvitationDeclined', { institution_id: c.institution, invitation_id: invitation, user_id: c.doctor }),
      )
      .thenUnchanged();
  });
});
