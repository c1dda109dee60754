import { useState, type MouseEvent } from 'react';
import { Button, Confirm, useCanAccess, useNotify, useRecordContext, useUpdate } from 'react-admin';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import HowToRegIcon from '@mui/icons-material/HowToReg';

interface UserRecord {
  id: string;
  name: string;
  is_active: boolean;
}

/**
 * Deactivate or Reactivate an account, after a confirmation that says what follows (it used to be a bare switch and
 * Save, with nothing said about signing the person out or closing a doctor's appointments). Platform admins only.
 */
export function UserActiveButton() {
  const record = useRecordContext<UserRecord>();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'edit' });
  const [open, setOpen] = useState(false);
  const [update, { isPending }] = useUpdate<UserRecord>();
  const notify = useNotify();
  if (!record || !canAccess) return null;
  const reactivating = !record.is_active;
  const label = reactivating ? 'Reactivate' : 'Deactivate';
  const confirm = () =>
    update(
      'users',
      { id: record.id, data: { is_active: reactivating }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(`${record.name} ${reactivating ? 'reactivated' : 'deactivated'}`);
        },
        onError: (error) => {
          setOpen(false);
          notify((error as Error).message, { type: 'error' });
        },
      },
    );
  // Clicks in the dialog (a portal) still bubble through React to the list's row: keep them from opening it.
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <span onClick={stop}>
      <Button label={label} disabled={isPending} onClick={() => setOpen(true)}>
        {reactivating ? <HowToRegIcon /> : <PersonOffIcon />}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={`${label} ${record.name}?`}
        content={
          reactivating
            ? 'They can sign in again. Appointments already cancelled by the deactivation stay cancelled.'
            : "They are signed out at once and cannot sign in until reactivated. Their appointments still to come are cancelled (a doctor's open slots withdrawn), and the other side is told."
        }
        confirm={label}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
