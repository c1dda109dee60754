import type { RoutePath } from '../paths';

/** The privacy area's routes: name, method and path (zod-free; the frontend bundles this). */
export const privacyPaths = {
} as const satisfies Record<string, RoutePath>;
