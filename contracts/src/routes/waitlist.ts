import { z } from '../zod';
import { WAITLIST_HOLD_MINUTES, WAITLIST_MAX_DAYS } from '../constants';
import { calendarDateSchema, timezoneSchema } from '../time-fields';
import { appointmentCommandResponseSchema, requestAppointmentSchema } from '../api';
import { defineRoutes } from './define';

const doctorParams = z.object({ doctor_id: z.string().min(1).max(64) });
const joinSchema = z
  .strictObject({ from: calendarDateSchema, to: calendarDateSchema, timezone: timezoneSchema.optional() })
  .openapi('JoinWaitlistRequest');
const placeSchema = z
  .object({
    doctor_id: z.string(),
    doctor_name: z.string(),
    from: z.string(),
    to: z.string(),
    status: z.enum(['waiting', 'offered']),
    offer: z
      .object({ slot_id: z.number().int(), start_at: z.string(), end_at: z.string(), until: z.string().openapi({ description: 'UTC instant until which the slot is held for this patient' }) })
      .nullable(),
  })
  .openapi('WaitlistPlace');
const acceptSchema = z.strictObject({ notes: requestAppointmentSchema.shape.notes }).openapi('AcceptWaitlistOfferRequest');

export const waitlistRoutes = defineRoutes({
  joinWaitlist: {
    summary: `Wait for a time with this doctor between two days (at most ${WAITLIST_MAX_DAYS}, from today, in the patient's zone): a slot freed in them is offered to the first place waiting and held for ${WAITLIST_HOLD_MINUTES} minutes`,
    tags: ['waitlist'],
    params: doctorParams,
    body: joinSchema,
    response: placeSchema,
    successStatus: 201,
    errors: [403, 404, 409],
  },
  leaveWaitlist: {
    summary: "Leave this doctor's waitlist (an offer held for the patient is let go)",
    tags: ['waitlist'],
    params: doctorParams,
    response: z.object({ doctor_id: z.string(), status: z.literal('closed') }),
    errors: [404],
  },
  acceptWaitlistOffer: {
    summary: 'Book the slot this waitlist is holding for the patient, as a request with a reason for the visit',
    tags: ['waitlist'],
    params: doctorParams,
    body: acceptSchema,
    response: appointmentCommandResponseSchema,
    successStatus: 201,
    errors: [403, 404, 409, 410],
  },
  declineWaitlistOffer: {
    summary: 'Let the held slot go to the next place; the patient stays on the waitlist',
    tags: ['waitlist'],
    params: doctorParams,
    response: placeSchema,
    errors: [404, 409],
  },
  listMyWaitlist: {
    summary: "The patient's own waitlist places still open, with any slot held for them",
    tags: ['waitlist'],
    response: z.array(placeSchema),
    errors: [503],
  },
});
