import { defineRoutes } from './define';

/** The privacy area's routes: schemas and answers (their names, methods and paths are in paths/privacy.ts). */
export const privacyRoutes = defineRoutes({});
