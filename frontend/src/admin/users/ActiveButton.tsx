import { ConfirmedToggleButton, type ToggleTexts } from '../ConfirmedToggleButton';
import type { ApiRoutes } from '@telemed/contracts';

type UserRecord = ApiRoutes['getAdminUser']['response'];

const texts: ToggleTexts<UserRecord> = {
  resource: 'users',
  turnsOn: (user) => !user.is_active,
  label: { on: 'admin.reactivate', off: 'admin.deactivate' },
  title: { on: 'admin.reactivateTitle', off: 'admin.deactivateTitle' },
  done: { on: 'admin.reactivatedNotice', off: 'admin.deactivatedNotice' },
  consequence: { on: 'admin.userReactivateConsequence', off: 'admin.userDeactivateConsequence' },
};

/** Deactivate or Reactivate an account, after a confirmation that says what follows. Platform admins only. */
export function UserActiveButton() {
  return <ConfirmedToggleButton texts={texts} />;
}
