import { DeleteButton, useRecordContext } from 'react-admin';
import type { ApiRoutes } from '@telemed/contracts';

/**
 * The seeds' Remove on the institution admin screen: after 'Remove doctor?' the doctor leaves the institution's staff
 * (their account stays theirs). Shown only to those the server lets remove doctors (the doctors resource's `delete`).
 */
export function DoctorRemoveButton() {
  const record = useRecordContext<ApiRoutes['getAdminDoctor']['response']>();
  if (!record) return null;
  return (
    <DeleteButton
      label="Remove"
      mutationMode="pessimistic"
      redirect="list"
      confirmTitle="Remove doctor?"
      confirmContent={`Are you sure you want to remove ${record.name || 'this doctor'}?`}
      successMessage={`${record.name || 'The doctor'} removed`}
    />
  );
}
