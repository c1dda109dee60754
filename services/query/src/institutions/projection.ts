import { DOCTOR_ROLES } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { InstitutionDoc, MemberDoctorDoc, StaffDoc } from '../projections/documents';
import { withoutUndefined } from '../users/projection';

/** Doctor accounts' names and specialties, for the members' doctor_name and doctor_specialty. */
export const MEMBER_DOCTORS = 'institution_member_doctors';

/** A doctor's name or specialty changed: on every entry of theirs (a person's memberships are few). */
async function updateDoctor(store: CollectionSource, userId: string, changes: { name?: string; specialty?: string }): Promise<void> {
  if (changes.name === undefined && changes.specialty === undefined) return;
  const doctors = store.collection<MemberDoctorDoc>(MEMBER_DOCTORS);
  if (!(await doctors.get(userId))) return;
  await doctors.patch(userId, withoutUndefined(changes));
  const shown = withoutUndefined({ doctor_name: changes.name, doctor_specialty: changes.specialty });
  const staff = store.collection<StaffDoc>('institution_staff');
  for (const entry of await staff.find({ user_id: userId })) await staff.patch(entry._id, shown);
}

export const institutionsProjection = defineProjection({
  name: 'institutions',
  // 2: staff docs carry removed_position (membership intervals for appointment access).
  // 3: a member's title, department and specialization are encrypted under their key: an erasure blanks them too.
  // 4: members carry their doctor account's name and specialty (doctor_name, doctor_specialty), which the console's
  // doctors lists page by.
  version: 4,
  collections: ['institutions', 'institution_staff', MEMBER_DOCTORS],
  indexes: [
    // An institution's current members in joining order (its staff lists, its doctors' records access): the removed
    // members and closed role intervals of its history are not walked. Its prefix serves every query by institution.
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'added_position'] },
    { collection: 'institution_staff', fields: ['user_id', 'added_position'] },
    // The console's institutions by name, all or the active ones.
    { collection: 'institutions', field: 'name' },
    { collection: 'institutions', fields: ['is_active', 'name'] },
    // The platform-wide console lists (every institution's current members) page in the order asked for, reading
    // what the page shows: current members (is_active) by name, by role (and a role's members by name), e-mail, joining.
    { collection: 'institution_staff', fields: ['is_active', 'name'] },
    { collection: 'institution_staff', fields: ['is_active', 'role', 'name'] },
    { collection: 'institution_staff', fields: ['is_active', 'email'] },
    { collection: 'institution_staff', fields: ['is_active', 'added_at'] },
    // ... and by id (`<institution_id>~<user_id>`), all of them or one role's.
    { collection: 'institution_staff', fields: ['is_active', 'institution_id', 'user_id'] },
    { collection: 'institution_staff', fields: ['is_active', 'role', 'institution_id', 'user_id'] },
    // ... and by the doctor's specialty (the doctors list's name is the doctor's own, doctor_name).
    { collection: 'institution_staff', fields: ['is_active', 'doctor_specialty', 'institution_id', 'user_id'] },
    { collection: 'institution_staff', fields: ['is_active', 'doctor_name', 'institution_id', 'user_id'] },
    // One institution's lists, current members in each order the console offers, ties by id (the member's user id;
    // by id alone, (is_active, institution_id, user_id) above).
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'name', 'user_id'] },
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'role', 'user_id'] },
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'email', 'user_id'] },
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'added_at', 'user_id'] },
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'doctor_name', 'user_id'] },
    { collection: 'institution_staff', fields: ['institution_id', 'is_active', 'doctor_specialty', 'user_id'] },
  ],
  handles: [
    'UserRegistered',
    'UserProfileUpdated',
    'DoctorRegistered',
    'DoctorProfileUpdated',
    'InstitutionCreated',
    'InstitutionStaffAdded',
    'InstitutionStaffRemoved',
    'InstitutionDisbanded',
    'InstitutionUpdated',
    'InstitutionDoctorDeactivated',
    'InstitutionDoctorActivated',
    'InstitutionStaffRoleChanged',
  ],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'sessions', 'UserLanguageChosen', 'privacy', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'PatientSubscribedToDoctor', 'UserDeactivated', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned',
    'InstitutionSlugClaimed', 'InstitutionStaffInvited', 'InstitutionInvitationAccepted',
    'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared', 'InstitutionBookingRulesSet',
  ],
  apply: async (event, store) => {
    const institutions = store.collection<InstitutionDoc>('institutions');
    const staff = store.collection<StaffDoc>('institution_staff');
    switch (event.type) {
      case 'UserRegistered':
        if (event.data.account_type !== 'doctor') return;
        return store.collection<MemberDoctorDoc>(MEMBER_DOCTORS).put({ _id: event.data.user_id, name: event.data.name, specialty: '' });
      case 'UserProfileUpdated':
        return updateDoctor(store, event.data.user_id, { name: event.data.name });
      case 'DoctorRegistered':
      case 'DoctorProfileUpdated':
        return updateDoctor(store, event.data.doctor_id, { specialty: event.data.specialty });
      case 'InstitutionCreated': {
        const { institution_id, ...fields } = event.data;
        return institutions.put({ _id: institution_id, ...fields, is_active: true, created_at: event.metadata.occurred_at });
      }
      case 'InstitutionStaffAdded': {
        const { staff_id, ...fields } = event.data;
        const doctor = await store.collection<MemberDoctorDoc>(MEMBER_DOCTORS).get(fields.user_id);
        return staff.put({
          _id: staff_id,
          ...fields,
          doctor_name: doctor?.name ?? fields.name,
          doctor_specialty: doctor?.specialty ?? fields.specialization,
          is_active: true,
          added_at: event.metadata.occurred_at,
          added_position: event.position,
          removed_at: null,
          removed_position: null,
        });
      }
      case 'InstitutionStaffRemoved':
        return staff.patch(event.data.staff_id, { is_active: false, removed_at: event.metadata.occurred_at, removed_position: event.position });
      case 'InstitutionDisbanded':
        return institutions.patch(event.data.institution_id, { is_active: false });
      case 'InstitutionUpdated': {
        const { institution_id, ...changes } = event.data;
        const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<InstitutionDoc>;
        return institutions.patch(institution_id, defined);
      }
      case 'InstitutionDoctorDeactivated':
        return staff.patch(event.data.staff_id, { deactivated: true });
      case 'InstitutionDoctorActivated':
        return staff.patch(event.data.staff_id, { deactivated: false });
      case 'InstitutionStaffRoleChanged': {
        const current = await staff.get(event.data.staff_id);
        if (!current) return;
        const { role, is_institution_admin } = event.data;
        const doctorNow = DOCTOR_ROLES.includes(role);
        if (doctorNow === DOCTOR_ROLES.includes(current.role)) {
          return staff.patch(current._id, { role, is_institution_admin, ...(doctorNow ? {} : { deactivated: false }) });
        }
        // Becoming or ceasing to be a doctor starts a new membership interval (which appointments the institution
        // reads are those of its doctors while they were its doctors): the old one is kept, closed, beside the member.
        await staff.put({
          ...current,
          _id: `${current._id}@${event.position}`,
          is_active: false,
          removed_at: event.metadata.occurred_at,
          removed_position: event.position,
          superseded: true,
        });
        return staff.patch(current._id, {
          role,
          is_institution_admin,
          deactivated: false,
          added_at: event.metadata.occurred_at,
          added_position: event.position,
        });
      }
    }
  },
});
