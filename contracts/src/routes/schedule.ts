import { z } from '../zod';
import { scheduleSlotSchema, setAvailabilityRequestSchema, setAvailabilityResponseSchema, slotFactsSchema, slotParamsSchema, timezoneQuerySchema } from '../api';
import { defineRoutes } from './define';

/** The schedule area's routes: schemas and answers (their names, methods and paths are in paths/schedule.ts). */
export const scheduleRoutes = defineRoutes({
  setAvailability: {
    summary: "Set the doctor's future availability (30-minute slots from 06:00 to 22:00 local time)",
    tags: ['schedule'],
    body: setAvailabilityRequestSchema,
    response: setAvailabilityResponseSchema,
    errors: [409],
  },
  listMySchedule: {
    summary: "The doctor's future slots: available ones and booked ones",
    tags: ['schedule'],
    query: timezoneQuerySchema,
    response: z.array(scheduleSlotSchema),
  },
  getSlot: {
    summary: 'One slot with its doctor, time and fee, and whether the caller can still request it',
    tags: ['doctors'],
    params: slotParamsSchema,
    query: timezoneQuerySchema,
    response: slotFactsSchema,
    errors: [404],
  },
});
