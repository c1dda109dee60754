import { erasureParamsSchema, erasureResponseSchema } from '../erasure';
import { z } from '../zod';
import { accessLogQuerySchema, accessLogResponseSchema, personalDataExportSchema } from '../privacy';
import { defineRoutes } from './define';

/** The privacy area's routes: schemas and answers (their names, methods and paths are in paths/privacy.ts). */
export const privacyRoutes = defineRoutes({
  getMyAccessLog: {
    summary: 'Who saw my data: every read of it by someone else (doctor, institution staff, operator), newest first, with why',
    tags: ['privacy'],
    query: accessLogQuerySchema,
    response: accessLogResponseSchema,
  },
  exportMyData: {
    summary:
      'Everything the product holds about me, as one JSON document (a download): profile, consents, appointments with their history, slots, institutions, invitations, clinical records, consultations with their chat, posts, and who saw each item',
    tags: ['privacy'],
    query: z.object({ format: z.enum(['json', 'zip']).default('json') }),
    response: personalDataExportSchema,
    // ?format=zip: the same document with the record files, as a zip.
    alsoFile: true,
    errors: [404, 503],
  },
  eraseMe: {
    summary: 'Erase my personal data: my data key is destroyed, my account closes; the answer lists what a law requires to be kept',
    tags: ['privacy'],
    response: erasureResponseSchema,
    errors: [404, 503],
  },
  eraseUser: {
    summary: "Erase a person's personal data at their request (platform admins)",
    tags: ['privacy'],
    params: erasureParamsSchema,
    response: erasureResponseSchema,
    errors: [404, 409, 503],
  },
});
