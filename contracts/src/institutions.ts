import { z } from './zod';
import { safeLine, safeText } from './safe-text';
import { appointmentStatusSchema } from './appointment-status';

export * from './institution-constants';
import { STAFF_ROLES, PERMISSIONS, WEEKDAYS, type Weekday, type StaffRole, type Permission } from './institution-constants';

/** What a member may do in an institution, from their role's permissions. */
export interface InstitutionMembership {
  role: StaffRole;
  is_institution_admin: boolean;
  permissions: readonly Permission[];
}

export type InstitutionAbility = 'read' | 'manage_staff' | 'read_appointments' | 'manage_institution';

export function membershipAllows(member: InstitutionMembership, ability: InstitutionAbility): boolean {
  const has = (p: Permission) => member.permissions.includes(p);
  switch (ability) {
    case 'read':
      return member.is_institution_admin || has('read');
    case 'manage_staff':
      return member.is_institution_admin || has('manage_staff') || has('manage_institution') || has('manage_users');
    case 'read_appointments':
      return member.is_institution_admin || has('appointments');
    case 'manage_institution':
      return member.is_institution_admin || has('manage_institution');
  }
}

export const INSTITUTION_TEXTS = {
  notAnAdmin: 'You are not an admin of any institution',
  institutionNotFound: 'Institution not found',
  atLeastOneStaff: 'At least one staff member is required',
  slugTaken: 'This slug is already taken',
  lastAdmin: 'An institution keeps at least one admin',
  disbanded: 'This institution has been disbanded',
  staffNotFound: 'Staff member not found',
  notADoctorAccount: 'This email belongs to an account that is not a doctor',
  invitationNotFound: 'Invitation not found',
  notADoctor: 'Only doctors can be activated or deactivated',
  ownRole: 'You cannot raise your own role',
  roleBeyondYours: 'You cannot give or change a role with rights you do not have',
  permissionsBeyondYours: "You cannot give a role rights you do not have; ask the institution's admin",
} as const;

export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;


const phone = safeText().trim().regex(/^\+?[0-9 ()-]{6,20}$/, 'Expected a phone number such as +91 98765 43210');
const hours = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'Expected HH:MM-HH:MM')
  .refine((range) => range.slice(0, 5) < range.slice(6), 'Opening hours close after they open')
  .nullable();

export const staffInputSchema = z.strictObject({
  name: safeLine(120),
  email: z.email().max(254),
  phone,
  account_type: z.enum(STAFF_ROLES).openapi({ description: 'The staff role' }),
  role_title: safeText().trim().max(120).optional(),
  department: safeText().trim().max(120).optional(),
  specialization: safeText().trim().max(120).optional(),
});

export const createInstitutionSchema = z
  .strictObject({
    name: safeLine(200),
    slug: z.string().regex(SLUG_PATTERN, 'Lowercase letters, digits and hyphens (2-63), not starting or ending with a hyphen'),
    address: safeText('multiline').trim().min(1).max(500),
    phone,
    email: z.email().max(254),
    hours_of_operation: z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, hours.optional()])) as Record<Weekday, z.ZodOptional<typeof hours>>).optional(),
    role_permissions: z.partialRecord(z.enum(STAFF_ROLES), z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length)).optional(),
    staff: z.array(staffInputSchema).min(1, 'At least one staff member is required').max(200),
  })
  .openapi('CreateInstitutionRequest');

export const addDoctorSchema = z
  .strictObject({
    name: safeLine(120),
    email: z.email().max(254),
    phone_number: phone,
    specialty: safeLine(80),
    qualification: safeLine(120),
    consultation_fee: z.number().nonnegative().max(1_000_000),
    appointment_duration_minutes: z.literal(30).optional(),
  })
  .openapi('AddDoctorRequest');

export const staffEntrySchema = z
  .object({
    id: z.string(),
    user_id: z.string(),
    user: z.object({ name: z.string() }),
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    account_type: z.enum(STAFF_ROLES),
    role_title: z.string().nullable(),
    department: z.string().nullable(),
    specialization: z.string().nullable(),
    is_active: z.boolean(),
    is_institution_admin: z.boolean(),
  })
  .openapi('StaffEntry');

export const institutionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    is_active: z.boolean(),
    hours_of_operation: z.record(z.string(), z.string().nullable()),
    role_permissions: z.record(z.string(), z.array(z.string())),
    created_at: z.string(),
  })
  .openapi('Institution');

export const institutionDoctorSchema = z
  .object({
    doctor_id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    specialty: z.string().nullable(),
    qualification: z.string().nullable(),
    consultation_fee: z.number().nullable(),
    is_active: z.boolean(),
    is_institution_admin: z.boolean(),
  })
  .openapi('InstitutionDoctor');

/** An invitation for an existing account to join an institution's staff. */
export const institutionInvitationSchema = z
  .object({
    id: z.string(),
    institution: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
    user_id: z.string(),
    name: z.string(),
    email: z.string(),
    account_type: z.enum(STAFF_ROLES).openapi({ description: 'The staff role offered' }),
    role_title: z.string().nullable(),
    status: z.enum(INVITATION_STATUSES),
    invited_at: z.string(),
  })
  .openapi('InstitutionInvitation');

export const institutionWithDoctorsSchema = institutionSchema
  .extend({
    doctors: z.array(institutionDoctorSchema).openapi({ description: 'Active doctors only' }),
    pending_invitations: z.array(institutionInvitationSchema).openapi({ description: 'Existing accounts invited to join, not members until they accept' }),
  })
  .openapi('InstitutionWithDoctors');
export const institutionWithStaffSchema = institutionSchema
  .extend({
    staff: z.array(staffEntrySchema),
    invitations: z.array(institutionInvitationSchema).openapi({ description: 'Staff whose accounts already existed: invited, not members until they accept' }),
  })
  .openapi('InstitutionWithStaff');

export const addDoctorResponseSchema = z
  .object({
    status: z.enum(['success', 'invited']).openapi({ description: "'success': a new account was created and joined; 'invited': the account existed and was sent an invitation" }),
    doctor_id: z.string(),
    invitation_id: z.string().nullable(),
  })
  .openapi('AddDoctorResponse');

export const invitationAnswerSchema = z
  .object({ status: z.literal('success'), institution_id: z.string(), invitation: z.enum(['accepted', 'declined', 'revoked']) })
  .openapi('InvitationAnswer');

export const institutionAppointmentSchema = z
  .object({
    id: z.string(),
    appointment_id: z.string(),
    patient: z.object({ name: z.string() }),
    doctor: z.object({ doctor_id: z.string(), name: z.string() }),
    slot: z.object({ slot_date: z.string(), start_time: z.string(), end_time: z.string(), start_at: z.string() }),
    status: appointmentStatusSchema,
    notes: z.string(),
  })
  .openapi('InstitutionAppointment');

export const adminStatusSchema = z
  .object({ is_institution_admin: z.boolean(), institution_id: z.string().nullable() })
  .openapi('AdminStatus');
