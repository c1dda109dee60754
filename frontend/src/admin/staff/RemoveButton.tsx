import { DeleteWithConfirmButton, SaveButton, Toolbar, useCanAccess, useNotify, useRecordContext, useRedirect } from 'react-admin';
import type { ApiRoutes } from '@telemed/contracts';
import { useT } from '../../i18n/useT';

/**
 * Remove a member from the institution's staff, said as such: react-admin's default asked 'Delete staff …? Are you
 * sure you want to delete this staff?', while the account stays its owner's and only the membership ends.
 */
export function StaffRemoveButton() {
  const record = useRecordContext<ApiRoutes['getAdminStaffMember']['response']>();
  const { canAccess } = useCanAccess({ resource: 'staff', action: 'delete' });
  const notify = useNotify();
  const redirect = useRedirect();
  const t = useT();
  if (!record || !canAccess) return null;
  return (
    <DeleteWithConfirmButton
      label={t('admin.ra.action.remove')}
      confirmTitle={record.name ? t('admin.removeStaffTitle', { name: record.name }) : t('admin.removeThisStaffTitle')}
      confirmContent={t('admin.removeStaffContent')}
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: () => {
          notify(record.name ? t('admin.removedNotice', { name: record.name }) : t('admin.staffRemoved'));
          redirect('list', 'staff');
        },
      }}
    />
  );
}

export const StaffEditToolbar = () => (
  <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
    <SaveButton />
    <StaffRemoveButton />
  </Toolbar>
);
