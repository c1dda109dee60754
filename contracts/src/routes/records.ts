import { defineRoutes } from './define';

/** The records area's routes: schemas and answers (their names, methods and paths are in paths/records.ts). */
export const recordsRoutes = defineRoutes({});
