import type { RoutePath } from '../path-types';

/** The records area's routes: name, method and path (zod-free; the frontend bundles this). */
export const recordsPaths = {
} as const satisfies Record<string, RoutePath>;
