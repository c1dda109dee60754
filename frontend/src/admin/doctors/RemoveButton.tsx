import { DeleteButton, useRecordContext } from 'react-admin';
import type { ApiRoutes } from '@telemed/contracts';
import { useT } from '../../i18n/useT';

/**
 * The seeds' Remove on the institution admin screen: after 'Remove doctor?' the doctor leaves the institution's staff
 * (their account stays theirs). Shown only to those the server lets remove doctors (the doctors resource's `delete`).
 */
export function DoctorRemoveButton() {
  const record = useRecordContext<ApiRoutes['getAdminDoctor']['response']>();
  const t = useT();
  if (!record) return null;
  return (
    <DeleteButton
      label={t('admin.ra.action.remove')}
      mutationMode="pessimistic"
      redirect="list"
      confirmTitle={t('admin.removeDoctorTitle')}
      confirmContent={record.name ? t('admin.removeDoctorNamed', { name: record.name }) : t('admin.removeThisDoctor')}
      successMessage={record.name ? t('admin.removedNotice', { name: record.name }) : t('admin.doctorRemoved')}
    />
  );
}
