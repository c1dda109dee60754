import type { RoutePath } from '../path-types';

/** The privacy area's routes: name, method and path (zod-free; the frontend bundles this). */
export const privacyPaths = {
} as const satisfies Record<string, RoutePath>;
