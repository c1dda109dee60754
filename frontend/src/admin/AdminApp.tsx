import { Admin, Resource } from 'react-admin';
import { Navigate } from 'react-router';
import { useSession } from '../lib/session';
import { authProvider, dataProvider } from './providers';
import { institutions } from './institutions';
import { staff } from './staff';
import { doctors } from './doctors';
import { appointments } from './appointments';
import { users } from './users';
import { projections } from './projections';

/**
 * The react-admin console at /admin (issue 15), loaded lazily: on the app's session and token renewal; each resource
 * shows only what the server's permissions (GET /api/v1/admin/permissions) allow.
 */
export function AdminApp() {
  const session = useSession();
  if (!session) return <Navigate to="/login" replace />;
  return (
    <Admin basename="/admin" dataProvider={dataProvider} authProvider={authProvider} title="Telemed console" requireAuth disableTelemetry>
      <Resource name="institutions" {...institutions} />
      <Resource name="staff" {...staff} />
      <Resource name="doctors" {...doctors} />
      <Resource name="appointments" {...appointments} />
      <Resource name="users" {...users} />
      <Resource name="projections" {...projections} />
    </Admin>
  );
}
