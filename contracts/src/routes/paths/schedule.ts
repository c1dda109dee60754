import type { RoutePath } from '../path-types';

/** The schedule area's routes: name, method and path (zod-free; the frontend bundles this). */
export const schedulePaths = {
} as const satisfies Record<string, RoutePath>;
