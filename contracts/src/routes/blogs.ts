import { defineRoutes } from './define';

/** The blogs area's routes: schemas and answers (their names, methods and paths are in paths/blogs.ts). */
export const blogsRoutes = defineRoutes({});
