import { z } from '../zod';
import { ADMIN_ACTIONS, ADMIN_RESOURCES } from '../admin';
import {
  ADMIN_APPOINTMENT_SORT,
  ADMIN_INSTITUTION_SORT,
  ADMIN_MEMBER_SORT,
  ADMIN_USER_SORT,
  adminAppointmentFilter,
  adminInstitutionFilter,
  adminMemberFilter,
  adminUserFilter,
  listQuerySchema,
} from '../admin-list';
import { appointmentStatusSchema } from '../api';
import { accountTypeSchema } from '../events';
import { STAFF_ROLES, addDoctorSchema, createInstitutionSchema, institutionSchema, staffInputSchema } from '../institutions';
import { defineRoutes } from './define';

/*
 * The react-admin console's routes, `/admin/<resource>` in ra-data-simple-rest's conventions (DESIGN.md §7): lists
 * answer a bare array of records each with `id` (the Content-Range header carries the total), a show, create, edit or
 * delete answers the record.
 */

const idParams = z.object({ id: z.string().min(1).max(200) });
const institutionId = z.string().min(1).max(64);
const added = { status: z.enum(['success', 'invited']), invitation_id: z.string().nullable() };

const permissionsSchema = z
  .object({
    user_id: z.string(),
    kind: z.enum(['platform_admin', 'institution', 'none']),
    institutions: z.array(z.object({ id: z.string(), name: z.string(), role: z.string(), is_institution_admin: z.boolean(), permissions: z.array(z.string()) })),
    resources: z.partialRecord(z.enum(ADMIN_RESOURCES), z.array(z.enum(ADMIN_ACTIONS))),
  })
  .openapi('AdminPermissions');

/** An institution's member as the staff resource shows them (id `<institution_id>~<user_id>`), as a write answers it. */
const memberSchema = z.object({
  id: z.string(),
  institution_id: z.string(),
  user_id: z.string(),
  staff_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(STAFF_ROLES),
  role_title: z.string().nullable(),
  department: z.string().nullable(),
  specialization: z.string().nullable(),
  is_active: z.boolean().openapi({ description: 'A member, and not a deactivated doctor' }),
  deactivated: z.boolean(),
  is_institution_admin: z.boolean(),
});
const staffRecordSchema = memberSchema.extend({ added_at: z.string() }).openapi('AdminStaffMember');

/** An institution's doctor as the doctors resource shows them: their account's details where it has them. */
const doctorRecordSchema = z
  .object({
    id: z.string(),
    institution_id: z.string(),
    doctor_id: z.string(),
    name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    specialty: z.string().nullable(),
    qualification: z.string().nullable(),
    consultation_fee: z.number().nullable(),
    role: z.enum(STAFF_ROLES),
    is_active: z.boolean(),
    deactivated: z.boolean(),
    is_institution_admin: z.boolean(),
  })
  .openapi('AdminDoctor');

const addedDoctorSchema = z.object({
  id: z.string(),
  institution_id: z.string(),
  doctor_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone_number: z.string(),
  specialty: z.string(),
  qualification: z.string(),
  consultation_fee: z.number(),
  is_active: z.boolean(),
  ...added,
});

const appointmentRecordSchema = z
  .object({
    id: z.string(),
    patient_id: z.string(),
    patient_name: z.string(),
    doctor_id: z.string(),
    doctor_name: z.string(),
    doctor_specialty: z.string(),
    institution_id: z.string().nullable().openapi({ description: 'The institution it is read through (null for platform admins)' }),
    start: z.string(),
    end: z.string(),
    slot_date: z.string(),
    start_time: z.string(),
    end_time: z.string(),
    status: appointmentStatusSchema,
    status_reason: z.string().nullable(),
    notes: z.string().nullable().openapi({ description: "The patient's reason: null for platform admins" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AdminAppointment');

const timelineSchema = z
  .object({
    appointment_id: z.string(),
    events: z.array(
      z.object({
        id: z.string(),
        position: z.number(),
        event_id: z.string(),
        type: z.string(),
        occurred_at: z.string(),
        actor: z.object({ user_id: z.string(), role: z.string(), name: z.string().nullable() }),
        correlation_id: z.string().nullable(),
        description: z.string(),
      }),
    ),
  })
  .openapi('AppointmentHistory');
const historyQuery = z.object({ format: z.enum(['json', 'csv']).optional(), timezone_str: z.string().max(64).optional() });

const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  account_type: accountTypeSchema,
  is_active: z.boolean(),
  erased: z.boolean(),
});
const userRecordSchema = accountSchema.extend({ registered_at: z.string() }).openapi('AdminUser');

// The error's class and code only: a failure's message can quote the event's data (a name, a reason for a visit);
// the log keeps it, scrubbed, for whoever reads the server's logs.
const failureSchema = z.object({
  event: z.object({ position: z.number(), id: z.string(), type: z.string(), stream: z.string() }),
  error: z.string().openapi({ description: "The error's class and code (`TypeError`, `SqliteError (SQLITE_FULL)`), never its message: see the server's log" }),
});
const projectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.number(),
    position: z.number(),
    lag: z.number(),
    events_per_second: z.number(),
    state: z.enum(['live', 'rebuilding', 'failed']),
    progress: z.object({ applied: z.number(), position: z.number(), head: z.number(), percent: z.number() }).nullable(),
    failure: failureSchema.nullable(),
    checksum: z.string().nullable(),
  })
  .openapi('Projection');

const fields = createInstitutionSchema.shape;

/** The admin area's routes: schemas and answers (their names, methods and paths are in paths/admin.ts). */
export const adminRoutes = defineRoutes({
  getAdminPermissions: {
    summary: "What the caller may do in the console, by resource and action (react-admin's canAccess)",
    tags: ['admin'],
    response: permissionsSchema,
  },
  listAdminInstitutions: {
    summary: 'Institutions: all for platform admins, otherwise those the caller works in (ra-data-simple-rest list)',
    tags: ['admin'],
    query: listQuerySchema(adminInstitutionFilter, ADMIN_INSTITUTION_SORT, 'name'),
    response: z.array(institutionSchema),
  },
  getAdminInstitution: {
    summary: 'One institution (platform admins, or its members)',
    tags: ['admin'],
    params: idParams,
    response: institutionSchema,
    errors: [404],
  },
  createAdminInstitution: {
    summary: 'Create an institution with its staff (platform admins); the slug is derived from the name when not given',
    tags: ['admin'],
    body: createInstitutionSchema.omit({ slug: true }).extend({ slug: fields.slug.optional() }),
    response: institutionSchema,
    successStatus: 201,
    errors: [409, 503],
  },
  updateAdminInstitution: {
    summary: "Edit an institution's details and role permissions (platform admins, its admins and roles that manage the institution); the slug stays",
    tags: ['admin'],
    params: idParams,
    // react-admin sends the whole record back: fields that cannot be edited here (id, slug, is_active…) are ignored.
    body: z.object({
      name: fields.name.optional(),
      address: fields.address.optional(),
      phone: fields.phone.optional(),
      email: fields.email.optional(),
      hours_of_operation: fields.hours_of_operation,
      role_permissions: fields.role_permissions,
    }),
    response: institutionSchema,
    errors: [403, 404, 409],
  },
  disbandAdminInstitution: {
    summary: 'Disband an institution (platform admins); answers it, now inactive. Recorded as an event, nothing is deleted',
    tags: ['admin'],
    params: idParams,
    response: institutionSchema,
    errors: [404],
  },
  listAdminStaff: {
    summary: "Institutions' staff with their roles (filter institution_id; getMany by id `<institution_id>~<user_id>`)",
    tags: ['admin'],
    query: listQuerySchema(adminMemberFilter, ADMIN_MEMBER_SORT, 'name'),
    response: z.array(staffRecordSchema),
    errors: [403, 404, 503],
  },
  getAdminStaffMember: {
    summary: "One of an institution's staff (id `<institution_id>~<user_id>`)",
    tags: ['admin'],
    params: idParams,
    response: staffRecordSchema,
    errors: [404, 503],
  },
  addAdminStaffMember: {
    summary: 'Add a staff member in a role (platform admins, the institution admins and roles that manage staff): a new account joins, an existing one is invited',
    tags: ['admin'],
    body: staffInputSchema.safeExtend({ institution_id: institutionId }),
    response: memberSchema.extend(added),
    successStatus: 201,
    errors: [403, 404, 409, 503],
  },
  changeAdminStaffRole: {
    summary:
      "Change a staff member's role (id `<institution_id>~<user_id>`; platform admins, the institution's admins and roles that manage staff). The institution keeps an ADMIN; nobody raises their own role, nor gives rights they lack; doctor roles need a doctor's account. Other fields of the record are ignored",
    tags: ['admin'],
    params: idParams,
    // react-admin sends the whole record back: only the role is edited here.
    body: z.object({ role: z.enum(STAFF_ROLES) }),
    response: memberSchema,
    errors: [403, 404, 409, 503],
  },
  removeAdminStaffMember: {
    summary: 'Remove a staff member (id `<institution_id>~<user_id>`), or withdraw their pending invitation; answers the member as removed',
    tags: ['admin'],
    params: idParams,
    response: memberSchema,
    errors: [403, 404, 409, 503],
  },
  listAdminDoctors: {
    summary: "Institutions' doctors (filter institution_id; getMany by id `<institution_id>~<doctor_id>`)",
    tags: ['admin'],
    query: listQuerySchema(adminMemberFilter, ADMIN_MEMBER_SORT, 'name'),
    response: z.array(doctorRecordSchema),
    errors: [403, 404, 503],
  },
  getAdminDoctor: {
    summary: "One of an institution's doctors (id `<institution_id>~<user_id>`)",
    tags: ['admin'],
    params: idParams,
    response: doctorRecordSchema,
    errors: [404, 503],
  },
  addAdminDoctor: {
    summary: "Add a doctor to an institution (as the seeds' Add Doctor): a new account joins, an existing doctor is invited",
    tags: ['admin'],
    // The seeds' add-doctor form; empty fields take its defaults (General Medicine, MD, ₹100).
    body: addDoctorSchema.omit({ specialty: true, qualification: true, consultation_fee: true }).extend({
      institution_id: institutionId,
      specialty: addDoctorSchema.shape.specialty.optional().or(z.literal('')),
      qualification: addDoctorSchema.shape.qualification.optional().or(z.literal('')),
      consultation_fee: addDoctorSchema.shape.consultation_fee.optional(),
    }),
    response: addedDoctorSchema,
    successStatus: 201,
    errors: [403, 404, 409, 503],
  },
  setAdminDoctorActive: {
    summary:
      "Activate (`is_active: true`) or deactivate (`is_active: false`) one of an institution's doctors (id `<institution_id>~<doctor_id>`; platform admins, the institution's admins and roles that manage staff). A deactivated doctor stays on the staff, shown as inactive, with no rights in the institution. Other fields are ignored",
    tags: ['admin'],
    params: idParams,
    body: z.object({ is_active: z.boolean() }),
    response: doctorRecordSchema,
    errors: [403, 404, 409, 503],
  },
  removeAdminDoctor: {
    summary: 'Remove a doctor (id `<institution_id>~<user_id>`), or withdraw their pending invitation; answers the member as removed',
    tags: ['admin'],
    params: idParams,
    response: memberSchema,
    errors: [403, 404, 409, 503],
  },
  listAdminAppointments: {
    summary:
      "Appointments: all for platform admins (without notes), an institution's for its members who may read appointments (filters status, doctor_id, patient_id, start_gte, start_lte, start_gt, start_lt, q in notes)",
    tags: ['admin'],
    query: listQuerySchema(adminAppointmentFilter, ADMIN_APPOINTMENT_SORT, 'start'),
    response: z.array(appointmentRecordSchema),
    errors: [403, 404, 503],
  },
  getAdminAppointment: {
    summary: 'One appointment (platform admins, or members of its doctor’s institution who may read appointments)',
    tags: ['admin'],
    params: idParams,
    response: appointmentRecordSchema,
    errors: [404, 503],
  },
  getAdminAppointmentHistory: {
    summary: "An appointment's timeline: every event with actor, role, time, correlation id and a readable line (`?format=csv` for CSV); each read is audited",
    tags: ['admin'],
    params: idParams,
    query: historyQuery,
    response: timelineSchema,
    // ?format=csv: the CSV of getAdminAppointmentHistoryCsv (what the console's download asks).
    alsoFile: true,
    errors: [404, 503],
  },
  getAdminAppointmentHistoryCsv: {
    summary: "An appointment's timeline as CSV (time, actor, role, event, description, correlation_id, event_id); each read is audited",
    tags: ['admin'],
    params: idParams,
    query: historyQuery.omit({ format: true }),
    errors: [404, 503],
  },
  listAdminUsers: {
    summary: 'Accounts (platform admins): filter account_type, is_active, id; newest first by default',
    tags: ['admin'],
    query: listQuerySchema(adminUserFilter, ADMIN_USER_SORT, 'registered_at'),
    response: z.array(userRecordSchema),
    errors: [503],
  },
  getAdminUser: {
    summary: 'One account (platform admins)',
    tags: ['admin'],
    params: idParams,
    response: userRecordSchema,
    errors: [404, 503],
  },
  setAdminUserActive: {
    summary: 'Deactivate (`is_active: false`) or reactivate (`is_active: true`) an account (platform admins); answers the account',
    tags: ['admin'],
    params: idParams,
    body: z.object({ is_active: z.boolean() }),
    response: accountSchema,
    errors: [404, 409, 503],
  },
  listProjections: {
    summary:
      'Projections: version, checkpoint, lag behind the log in events, events per second, state, and with `checksum=true` (or the console\'s filter `{"checksum":true}`) the checksum (operators)',
    tags: ['operations'],
    query: z.object({
      checksum: z.enum(['true', 'false']).optional().openapi({ description: 'Digest every document of each projection (reads the whole read model: ask only when comparing)' }),
      filter: z.string().max(200).optional().openapi({ description: 'react-admin\'s filter: `{"checksum":true}` as checksum=true' }),
    }),
    response: z.array(projectionSchema),
  },
  rebuildProjection: {
    summary: 'Rebuild one projection from the start of the log beside the live one, switching over when caught up (operators); follow it in the list',
    tags: ['operations'],
    params: z.object({ name: z.string().min(1).max(64) }),
    response: z.object({ status: z.literal('rebuilding'), name: z.string() }),
    successStatus: 202,
    errors: [404, 409],
  },
});
