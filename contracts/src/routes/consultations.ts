import { defineRoutes } from './define';

/** The consultations area's routes: schemas and answers (their names, methods and paths are in paths/consultations.ts). */
export const consultationsRoutes = defineRoutes({});
