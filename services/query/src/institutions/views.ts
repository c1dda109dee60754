import type { DoctorDoc, InstitutionDoc, InvitationDoc, StaffDoc } from '../projections';

/** An institution as every API shows it (the seeds' screens and the console alike). */
export const institutionView = (doc: InstitutionDoc) => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  address: doc.address,
  phone: doc.phone,
  email: doc.email,
  is_active: doc.is_active,
  hours_of_operation: doc.hours_of_operation,
  role_permissions: doc.role_permissions,
  created_at: doc.created_at,
});

/** What the screens show as Active: a member who is not a deactivated doctor. */
export const shownActive = (doc: StaffDoc) => doc.is_active && doc.deactivated !== true;

/**
 * A member who is a doctor, as the institution's pages and the console show them: their account's profile where they
 * have one, what the institution recorded of them otherwise.
 */
export const memberDoctorView = (doc: StaffDoc, profile: DoctorDoc | null) => ({
  doctor_id: doc.user_id,
  name: profile?.name ?? doc.name,
  email: profile?.email ?? doc.email,
  phone_number: profile?.phone_number ?? doc.phone,
  specialty: profile?.specialty ?? doc.specialization,
  qualification: profile?.qualification ?? null,
  consultation_fee: profile?.consultation_fee ?? null,
  is_active: shownActive(doc),
  is_institution_admin: doc.is_institution_admin,
});

export const staffView = (doc: StaffDoc) => ({
  id: doc._id,
  user_id: doc.user_id,
  user: { name: doc.name },
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  account_type: doc.role,
  role_title: doc.role_title,
  department: doc.department,
  specialization: doc.specialization,
  is_active: shownActive(doc),
  is_institution_admin: doc.is_institution_admin,
});

export const invitationView = (doc: InvitationDoc, institution: InstitutionDoc) => ({
  id: doc._id,
  institution: { id: institution._id, name: institution.name, slug: institution.slug },
  user_id: doc.user_id,
  name: doc.name,
  email: doc.email,
  account_type: doc.role,
  role_title: doc.role_title,
  status: doc.status,
  invited_at: doc.invited_at,
});
