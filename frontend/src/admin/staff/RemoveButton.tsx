import { DeleteWithConfirmButton, SaveButton, Toolbar, useCanAccess, useNotify, useRecordContext, useRedirect } from 'react-admin';
import type { ApiRoutes } from '@telemed/contracts';

/**
 * Remove a member from the institution's staff, said as such: react-admin's default asked 'Delete staff …? Are you
 * sure you want to delete this staff?', while the account stays its owner's and only the membership ends.
 */
export function StaffRemoveButton() {
  const record = useRecordContext<ApiRoutes['getAdminStaffMember']['response']>();
  const { canAccess } = useCanAccess({ resource: 'staff', action: 'delete' });
  const notify = useNotify();
  const redirect = useRedirect();
  if (!record || !canAccess) return null;
  const name = record.name || 'this staff member';
  return (
    <DeleteWithConfirmButton
      label="Remove"
      confirmTitle={`Remove ${name} from the staff?`}
      confirmContent="They lose their role and access in the institution; their account stays theirs. An invitation not yet accepted is withdrawn."
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: () => {
          notify(`${record.name || 'The staff member'} removed`);
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
