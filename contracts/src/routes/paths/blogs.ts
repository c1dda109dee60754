import type { RoutePath } from '../path-types';

/** The blogs area's routes: name, method and path (zod-free; the frontend bundles this). */
export const blogsPaths = {
} as const satisfies Record<string, RoutePath>;
