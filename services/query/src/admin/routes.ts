import { reactAdminErrors, type AccessAudit, type ApiRouter, type ReadStore } from '@telemed/platform';
import { appointmentHistoryRoutes } from './appointment-history';
import { appointmentRoutes } from './appointments';
import { doctorRoutes } from './doctors';
import { institutionRoutes } from './institutions';
import { permissionRoutes } from './permissions';
import { projectionRoutes, type ProjectionConsoleDeps } from './projections';
import { adminContext } from './scope';
import { staffRoutes } from './staff';
import { userRoutes } from './users';

/**
 * The react-admin console's reads: `/admin/<resource>` in ra-data-simple-rest's conventions (issue 15), one module per
 * resource of frontend/src/admin. Its errors carry the `message` react-admin shows.
 */
export function adminQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; audit: AccessAudit; projections: ProjectionConsoleDeps }): void {
  api.router.use('/admin', reactAdminErrors);
  const ctx = adminContext(deps.readStore, deps.audit);
  permissionRoutes(api, ctx);
  institutionRoutes(api, ctx);
  staffRoutes(api, ctx);
  doctorRoutes(api, ctx);
  appointmentRoutes(api, ctx);
  appointmentHistoryRoutes(api, ctx);
  userRoutes(api, ctx);
  projectionRoutes(api, deps.projections);
}
