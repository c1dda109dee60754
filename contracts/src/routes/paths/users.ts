import type { RoutePath } from '../path-types';

/** The users area's routes: name, method and path (zod-free; the frontend bundles this). */
export const usersPaths = {
} as const satisfies Record<string, RoutePath>;
