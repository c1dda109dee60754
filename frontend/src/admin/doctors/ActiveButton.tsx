import { ConfirmedToggleButton, type ToggleTexts } from '../ConfirmedToggleButton';
import type { ApiRoutes } from '@telemed/contracts';

type DoctorRecord = ApiRoutes['getAdminDoctor']['response'];

const texts: ToggleTexts<DoctorRecord> = {
  resource: 'doctors',
  turnsOn: (doctor) => doctor.deactivated,
  label: { on: 'Activate', off: 'Deactivate' },
  done: { on: 'activated', off: 'deactivated' },
  consequence: {
    on: 'They are shown as active again, with the rights of their role in the institution.',
    off: 'They stay on the staff, shown as inactive, without rights in the institution, and patients cannot book them until they are activated again.',
  },
};

/**
 * Activate or Deactivate one of the institution's doctors, after a confirmation; shown only to those the server lets do
 * it (the doctors resource's `edit`). The answer is the doctor's record, which react-admin puts in its cache.
 */
export function DoctorActiveButton() {
  return <ConfirmedToggleButton texts={texts} />;
}
