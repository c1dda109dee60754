import type { RoutePath } from '../path-types';

/** The consents area's routes: name, method and path (zod-free; the frontend bundles this). */
export const consentsPaths = {
} as const satisfies Record<string, RoutePath>;
