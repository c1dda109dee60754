import { defineRoutes } from './define';

/** The schedule area's routes: schemas and answers (their names, methods and paths are in paths/schedule.ts). */
export const scheduleRoutes = defineRoutes({});
