import type { RoutePath } from '../path-types';

/** The consultations area's routes: name, method and path (zod-free; the frontend bundles this). */
export const consultationsPaths = {
} as const satisfies Record<string, RoutePath>;
