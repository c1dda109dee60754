import type { RoutePath } from '../path-types';

/** The identity area's routes: name, method and path (zod-free; the frontend bundles this). */
export const identityPaths = {
} as const satisfies Record<string, RoutePath>;
