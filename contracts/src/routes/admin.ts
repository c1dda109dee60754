import { defineRoutes } from './define';

/** The admin area's routes: schemas and answers (their names, methods and paths are in paths/admin.ts). */
export const adminRoutes = defineRoutes({});
