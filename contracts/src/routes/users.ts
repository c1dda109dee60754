import { defineRoutes } from './define';

/** The users area's routes: schemas and answers (their names, methods and paths are in paths/users.ts). */
export const usersRoutes = defineRoutes({});
