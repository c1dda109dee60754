import type { RoutePath } from '../path-types';

/** The admin area's routes: name, method and path (zod-free; the frontend bundles this). */
export const adminPaths = {
} as const satisfies Record<string, RoutePath>;
