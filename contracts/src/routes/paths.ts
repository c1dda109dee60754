import { adminPaths } from './paths/admin';
import { appointmentsPaths } from './paths/appointments';
import { waitlistPaths } from './paths/waitlist';
import { blogsPaths } from './paths/blogs';
import { consentsPaths } from './paths/consents';
import { consultationsPaths } from './paths/consultations';
import { identityPaths } from './paths/identity';
import { institutionsPaths } from './paths/institutions';
import { messagingPaths } from './paths/messaging';
import { privacyPaths } from './paths/privacy';
import { recordsPaths } from './paths/records';
import { schedulePaths } from './paths/schedule';
import { usersPaths } from './paths/users';
import { walletPaths } from './paths/wallet';

/**
 * Every API route's name, method and path (relative to /api/v1): the zod-free half of the route table, so the frontend's
 * client can call a route by name without bundling a schema. `routes/index.ts` gives each its schemas and types.
 */
import type { RoutePath } from './path-types';

export type { HttpMethod, RoutePath } from './path-types';

export const ROUTE_PATHS = {
  ...adminPaths,
  ...appointmentsPaths,
  ...blogsPaths,
  ...consentsPaths,
  ...consultationsPaths,
  ...identityPaths,
  ...institutionsPaths,
  ...messagingPaths,
  ...privacyPaths,
  ...recordsPaths,
  ...schedulePaths,
  ...usersPaths,
  ...walletPaths,
  // Last: its paths begin with /doctors/, and the documentation lists the doctors' own routes first.
  ...waitlistPaths,
} as const satisfies Record<string, RoutePath>;

export type RouteName = keyof typeof ROUTE_PATHS;

/** A path with its `:name` parameters filled in, each encoded. */
export function fillPath(path: string, params: Readonly<Record<string, string | number>> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
