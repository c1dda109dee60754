import type { RoutePath } from '../paths';

/** The identity area's routes: name, method and path (zod-free; the frontend bundles this). */
export const identityPaths = {
} as const satisfies Record<string, RoutePath>;
