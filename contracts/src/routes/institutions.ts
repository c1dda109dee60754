import { z } from '../zod';
import { INSTITUTION_APPOINTMENTS_MAX_LIMIT, appointmentStatusSchema, pageCursorSchema } from '../api';
import {
  addDoctorResponseSchema,
  addDoctorSchema,
  adminStatusSchema,
  createInstitutionSchema,
  institutionAppointmentSchema,
  institutionInvitationSchema,
  institutionSchema,
  institutionWithDoctorsSchema,
  institutionWithStaffSchema,
  invitationAnswerSchema,
  staffEntrySchema,
} from '../institutions';
import { institutionBookingRulesRequestSchema, institutionBookingRulesSchema } from '../booking-rules-api';
import { defineRoutes } from './define';

const ok = z.object({ status: z.literal('success') });
const institutionParams = z.object({ id: z.string().min(1).max(64) });
const invitationParams = z.object({ id: z.string().min(1).max(64), invitation_id: z.string().min(1).max(64) });

/** The institutions area's routes: schemas and answers (their names, methods and paths are in paths/institutions.ts). */
export const institutionsRoutes = defineRoutes({
  createInstitution: {
    summary: 'Create an institution with its staff (platform admins)',
    tags: ['institutions'],
    body: createInstitutionSchema,
    response: institutionWithStaffSchema,
    successStatus: 201,
    errors: [409, 503],
  },
  disbandInstitution: {
    summary: 'Disband an institution (platform admins); recorded as an event, nothing is deleted',
    tags: ['institutions'],
    params: institutionParams,
    response: ok,
    errors: [404],
  },
  removeInstitutionStaffMember: {
    summary: 'Remove a staff member, or withdraw their pending invitation (institution admins and roles that manage staff)',
    tags: ['institutions'],
    params: z.object({ id: z.string().min(1).max(64), user_id: z.string().min(1).max(64) }),
    response: ok,
    errors: [409],
  },
  addInstitutionDoctor: {
    summary: "Add a doctor: a new account is created and joins ('success'); an existing account is only invited ('invited') and joins when its owner accepts",
    tags: ['institutions'],
    params: institutionParams,
    body: addDoctorSchema,
    response: addDoctorResponseSchema,
    successStatus: 201,
    errors: [409, 503],
  },
  acceptInvitation: {
    summary: "Accept an invitation to the institution's staff (only the invitee; others get 404)",
    tags: ['institutions'],
    params: invitationParams,
    response: invitationAnswerSchema,
    errors: [404],
  },
  declineInvitation: {
    summary: "Decline an invitation to the institution's staff (only the invitee; others get 404)",
    tags: ['institutions'],
    params: invitationParams,
    response: invitationAnswerSchema,
    errors: [404],
  },
  revokeInvitation: {
    summary: 'Withdraw a pending invitation (institution admins and roles that manage staff)',
    tags: ['institutions'],
    params: invitationParams,
    response: invitationAnswerSchema,
    errors: [409],
  },
  removeInstitutionDoctor: {
    summary: 'Remove a doctor from the institution, or withdraw their pending invitation (their account stays)',
    tags: ['institutions'],
    params: z.object({ id: z.string().min(1).max(64), doctor_id: z.string().min(1).max(64) }),
    response: ok,
    errors: [409],
  },
  listMyInvitations: {
    summary: "The caller's pending invitations to institutions' staff",
    tags: ['institutions'],
    response: z.array(institutionInvitationSchema),
  },
  getMyInvitation: {
    summary: 'One invitation of the caller, whatever its status (only the invitee; others get 404)',
    tags: ['institutions'],
    params: z.object({ invitation_id: z.string().min(1).max(64) }),
    response: institutionInvitationSchema,
    errors: [404],
  },
  listInstitutions: {
    summary: 'Active institutions: all of them for platform admins, otherwise those the caller works in',
    tags: ['institutions'],
    response: z.array(institutionSchema),
  },
  checkAdminStatus: {
    summary: 'Whether the caller administers an institution, and which',
    tags: ['institutions'],
    response: adminStatusSchema,
  },
  getMyInstitution: {
    summary: 'The institution the caller administers, with its doctors',
    tags: ['institutions'],
    response: institutionWithDoctorsSchema,
    errors: [404, 503],
  },
  listInstitutionStaff: {
    summary: "The institution's active staff",
    tags: ['institutions'],
    params: institutionParams,
    response: z.array(staffEntrySchema),
    errors: [503],
  },
  listInstitutionAppointments: {
    summary: "Appointments with the institution's doctors requested while they were its members (admins and roles with the appointments permission)",
    tags: ['institutions'],
    params: institutionParams,
    query: z.object({
      appointment_status: appointmentStatusSchema.optional(),
      timezone_str: z.string().max(64).optional(),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(INSTITUTION_APPOINTMENTS_MAX_LIMIT)
        .optional()
        .openapi({ description: `A page of at most this many, newest first (1 to ${INSTITUTION_APPOINTMENTS_MAX_LIMIT}, the default): the next page is after=the last one's id in cursor` }),
      cursor: pageCursorSchema,
    }),
    response: z.array(institutionAppointmentSchema),
    errors: [503],
  },
  setInstitutionBookingRules: {
    summary: "Set the clinic's default cancellation and reschedule rules for its doctors who set none of their own (issue 35; its admins and roles that manage the institution)",
    tags: ['institutions'],
    params: institutionParams,
    body: institutionBookingRulesRequestSchema,
    response: institutionBookingRulesSchema,
    errors: [404, 409],
  },
  getInstitutionBookingRules: {
    summary: "The clinic's default cancellation and reschedule rules (the product's while it has set none; its members and platform admins)",
    tags: ['institutions'],
    params: institutionParams,
    response: institutionBookingRulesSchema,
    errors: [404],
  },
});
