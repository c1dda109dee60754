import { z } from '../zod';
import {
  availableSlotsQuerySchema,
  availableSlotsResponseSchema,
  doctorListQuerySchema,
  doctorSchema,
  doctorWithSlotsSchema,
  meResponseSchema,
  publicDoctorParamsSchema,
  publicDoctorProfileSchema,
  publicDoctorQuerySchema,
  subscribeRequestSchema,
  subscribeResponseSchema,
  timezoneQuerySchema,
  updateMeRequestSchema,
} from '../api';
import { doctorBookingRulesRequestSchema, doctorBookingRulesSchema } from '../booking-rules-api';
import { defineRoutes } from './define';

/** The users area's routes: schemas and answers (their names, methods and paths are in paths/users.ts). */
export const usersRoutes = defineRoutes({
  getMe: {
    summary: 'My profile',
    tags: ['users'],
    response: meResponseSchema,
    errors: [404],
  },
  updateMe: {
    summary: 'Update my profile (doctors also their practitioner fields)',
    tags: ['users'],
    body: updateMeRequestSchema,
    response: z.object({ status: z.literal('success') }),
    errors: [404],
  },
  subscribeToDoctor: {
    summary: "Add a doctor to the patient's list",
    tags: ['users'],
    body: subscribeRequestSchema,
    response: subscribeResponseSchema,
    errors: [404],
  },
  listDoctors: {
    summary: 'List doctors',
    tags: ['doctors'],
    query: doctorListQuerySchema,
    response: z.array(doctorSchema),
  },
  listMyDoctors: {
    summary: "A patient's doctors with their upcoming slots (a doctor gets their own profile)",
    tags: ['doctors'],
    query: timezoneQuerySchema,
    response: z.union([z.array(doctorWithSlotsSchema), doctorWithSlotsSchema]),
  },
  getDoctorAvailableSlots: {
    summary: "A doctor's upcoming available slots, sorted by start: all of them, or those of a window of local days (from, days)",
    tags: ['doctors'],
    params: z.object({ doctor_id: z.string().min(1).max(64) }),
    query: availableSlotsQuerySchema,
    response: availableSlotsResponseSchema,
    errors: [404],
  },
  getPublicDoctor: {
    summary: "A doctor's public page: profile and open slots of the next days (no sign-in; no contact details)",
    tags: ['public'],
    params: publicDoctorParamsSchema,
    query: publicDoctorQuerySchema,
    response: publicDoctorProfileSchema,
    errors: [404],
  },
  setMyBookingRules: {
    summary: "A doctor sets their own cancellation and reschedule rules (issue 35): they replace their clinics' defaults",
    tags: ['doctors'],
    body: doctorBookingRulesRequestSchema,
    response: doctorBookingRulesSchema,
    errors: [404],
  },
  clearMyBookingRules: {
    summary: "A doctor gives up their own cancellation and reschedule rules: their clinics' defaults (else the product's) apply again",
    tags: ['doctors'],
    response: z.object({ doctor_id: z.string(), own_rules: z.literal(false) }).openapi('DoctorBookingRulesCleared'),
    errors: [404],
  },
  getDoctorBookingRules: {
    summary: "A doctor's cancellation and reschedule rules in effect (their own, else their clinics' defaults, else the product's), shown before booking (no sign-in)",
    tags: ['doctors', 'public'],
    params: z.object({ doctor_id: z.string().min(1).max(64) }),
    response: doctorBookingRulesSchema,
    errors: [404],
  },
});
