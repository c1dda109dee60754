import type { RouteName } from './paths';
import type { RouteEntry, RouteTypes } from './define';
import { adminRoutes } from './admin';
import { appointmentsRoutes } from './appointments';
import { waitlistRoutes } from './waitlist';
import { blogsRoutes } from './blogs';
import { consentsRoutes } from './consents';
import { consultationsRoutes } from './consultations';
import { identityRoutes } from './identity';
import { institutionsRoutes } from './institutions';
import { messagingRoutes } from './messaging';
import { privacyRoutes } from './privacy';
import { recordsRoutes } from './records';
import { scheduleRoutes } from './schedule';
import { usersRoutes } from './users';
import { walletRoutes } from './wallet';

/** Every API route: method, path, schemas and answers (DESIGN.md §4). The server implements it; the frontend calls it. */
export const ROUTES = {
  ...adminRoutes,
  ...appointmentsRoutes,
  ...blogsRoutes,
  ...consentsRoutes,
  ...consultationsRoutes,
  ...identityRoutes,
  ...institutionsRoutes,
  ...messagingRoutes,
  ...privacyRoutes,
  ...recordsRoutes,
  ...scheduleRoutes,
  ...usersRoutes,
  ...walletRoutes,
  // Last: its paths begin with /doctors/, and the documentation lists the doctors' own routes first.
  ...waitlistRoutes,
} satisfies Record<RouteName, RouteEntry>;

/** Each route's types on the wire, by name: what the frontend's typed client sends and gets (types only, no zod). */
export type ApiRoutes = { [K in RouteName]: RouteTypes<(typeof ROUTES)[K]> };

export { messagingPreferencesSchema, messageLogEntrySchema, smsInboundFieldsSchema, smsStatusFormSchema, type MessagingPreferences, type MessageLogEntry, type OutboxEntry } from './messaging';
export { defineRoutes, type RouteEntry, type RouteSchemas, type RouteTypes, type ParsedRequest } from './define';
export { ROUTE_PATHS, fillPath, type RouteName, type RoutePath, type HttpMethod } from './paths';
