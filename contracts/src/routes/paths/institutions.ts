import type { RoutePath } from '../path-types';

/** The institutions area's routes: name, method and path (zod-free; the frontend bundles this). */
export const institutionsPaths = {
} as const satisfies Record<string, RoutePath>;
