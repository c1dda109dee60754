import type { RoutePath } from '../paths';

/** The admin area's routes: name, method and path (zod-free; the frontend bundles this). */
export const adminPaths = {
} as const satisfies Record<string, RoutePath>;
