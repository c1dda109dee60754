import { defineRoutes } from './define';

/** The identity area's routes: schemas and answers (their names, methods and paths are in paths/identity.ts). */
export const identityRoutes = defineRoutes({});
