import { z } from '../zod';
import {
  consultationCommandResponseSchema,
  consultationMessagesQuerySchema,
  consultationMessagesResponseSchema,
  consultationParamsSchema,
  consultationViewSchema,
  joinConsultationResponseSchema,
  leaveConsultationSchema,
  postConsultationMessageSchema,
} from '../consultation';
import { defineRoutes } from './define';

/** A chat message as the server took it: its id and when it was sent. */
export const consultationMessageSentSchema = z.object({ message_id: z.string(), sent_at: z.string() }).openapi('SentConsultationMessage');

/** The consultations area's routes: schemas and answers (their names, methods and paths are in paths/consultations.ts). */
export const consultationsRoutes = defineRoutes({
  joinConsultation: {
    summary: "Join the appointment's video consultation (its patient or doctor; from 15 minutes before the start until it ends)",
    tags: ['consultations'],
    params: consultationParamsSchema,
    response: joinConsultationResponseSchema,
    errors: [404, 409],
  },
  leaveConsultation: {
    summary: 'Leave the consultation (this connection only: a newer join of the same person stays)',
    tags: ['consultations'],
    params: consultationParamsSchema,
    body: leaveConsultationSchema.optional(),
    response: consultationCommandResponseSchema,
    errors: [404],
  },
  endConsultation: {
    summary: 'End the consultation for both participants (End Call)',
    tags: ['consultations'],
    params: consultationParamsSchema,
    response: consultationCommandResponseSchema,
    errors: [404, 409],
  },
  sendConsultationMessage: {
    summary: "Send a chat message in the consultation (stored in the consultation's chat stream in arrival order, encrypted under the patient's key)",
    tags: ['consultations'],
    params: consultationParamsSchema,
    body: postConsultationMessageSchema,
    response: consultationMessageSentSchema,
    successStatus: 201,
    errors: [404, 409, 410],
  },
  receiveLiveKitWebhook: {
    summary: "LiveKit's webhook: verified from the raw body and its Authorization header, then recorded on the consultation",
    tags: ['consultations'],
    // Verified from its raw bytes; declared as what LiveKit sends (a JSON object) so that it is read at all.
    body: z.record(z.string(), z.unknown()),
    response: z.object({ status: z.literal('received') }),
    errors: [400, 401, 404],
  },
  getConsultation: {
    summary: "The appointment's consultation: state, the server's start and limit, and who is present (its patient or doctor)",
    tags: ['consultations'],
    params: consultationParamsSchema,
    response: consultationViewSchema,
    errors: [404, 503],
  },
  listConsultationMessages: {
    summary: "The consultation's chat, oldest first (after= a message id for the next page)",
    tags: ['consultations'],
    params: consultationParamsSchema,
    query: consultationMessagesQuerySchema,
    response: consultationMessagesResponseSchema,
    errors: [404],
  },
});
