import { defineRoutes } from './define';

/** The institutions area's routes: schemas and answers (their names, methods and paths are in paths/institutions.ts). */
export const institutionsRoutes = defineRoutes({});
