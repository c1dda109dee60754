import { ConfirmedToggleButton, type ToggleTexts } from '../ConfirmedToggleButton';
import type { ApiRoutes } from '@telemed/contracts';

type DoctorRecord = ApiRoutes['getAdminDoctor']['response'];

const texts: ToggleTexts<DoctorRecord> = {
  resource: 'doctors',
  turnsOn: (doctor) => doctor.deactivated,
  label: { on: 'admin.activate', off: 'admin.deactivate' },
  title: { on: 'admin.activateTitle', off: 'admin.deactivateTitle' },
  done: { on: 'admin.activatedNotice', off: 'admin.deactivatedNotice' },
  consequence: { on: 'admin.doctorActivateConsequence', off: 'admin.doctorDeactivateConsequence' },
};

/**
 * Activate or Deactivate one of the institution's doctors, after a confirmation; shown only to those the server lets do
 * it (the doctors resource's `edit`). The answer is the doctor's record, which react-admin puts in its cache.
 */
export function DoctorActiveButton() {
  return <ConfirmedToggleButton texts={texts} />;
}
