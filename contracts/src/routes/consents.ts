import { defineRoutes } from './define';

/** The consents area's routes: schemas and answers (their names, methods and paths are in paths/consents.ts). */
export const consentsRoutes = defineRoutes({});
