import { ConfirmedToggleButton, type ToggleTexts } from '../ConfirmedToggleButton';
import type { ApiRoutes } from '@telemed/contracts';

type UserRecord = ApiRoutes['getAdminUser']['response'];

const texts: ToggleTexts<UserRecord> = {
  resource: 'users',
  turnsOn: (user) => !user.is_active,
  label: { on: 'Reactivate', off: 'Deactivate' },
  done: { on: 'reactivated', off: 'deactivated' },
  consequence: {
    on: 'They can sign in again. Appointments already cancelled by the deactivation stay cancelled.',
    off: "They are signed out at once and cannot sign in until reactivated. Their appointments still to come are cancelled (a doctor's open slots withdrawn), and the other side is told.",
  },
};

/** Deactivate or Reactivate an account, after a confirmation that says what follows. Platform admins only. */
export function UserActiveButton() {
  return <ConfirmedToggleButton texts={texts} />;
}
