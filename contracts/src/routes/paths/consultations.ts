import type { RoutePath } from '../paths';

/** The consultations area's routes: name, method and path (zod-free; the frontend bundles this). */
export const consultationsPaths = {
} as const satisfies Record<string, RoutePath>;
