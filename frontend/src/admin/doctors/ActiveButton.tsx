import { useState, type MouseEvent } from 'react';
import { Button, Confirm, useCanAccess, useNotify, useRecordContext, useUpdate } from 'react-admin';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import HowToRegIcon from '@mui/icons-material/HowToReg';

interface DoctorRecord {
  id: string;
  name: string;
  is_active: boolean;
  /** Deactivated in the institution (a member still); a removed doctor is neither. */
  deactivated: boolean;
}

/**
 * Activate or Deactivate one of the institution's doctors, after a confirmation; shown only to those the server lets do
 * it (the doctors resource's `edit`). The answer is the doctor's record, which react-admin puts in its cache.
 */
export function DoctorActiveButton() {
  const record = useRecordContext<DoctorRecord>();
  const { canAccess } = useCanAccess({ resource: 'doctors', action: 'edit' });
  const [open, setOpen] = useState(false);
  const [update, { isPending }] = useUpdate<DoctorRecord>();
  const notify = useNotify();
  if (!record || !canAccess) return null;
  const activating = record.deactivated;
  const label = activating ? 'Activate' : 'Deactivate';
  const confirm = () =>
    update(
      'doctors',
      { id: record.id, data: { is_active: activating }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(`${record.name} ${activating ? 'activated' : 'deactivated'}`);
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
      {/* On a phone react-admin draws the button as its icon alone (the label becomes its accessible name). */}
      <Button label={label} disabled={isPending} onClick={() => setOpen(true)}>
        {activating ? <HowToRegIcon /> : <PersonOffIcon />}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={`${label} ${record.name}?`}
        content={
          activating
            ? 'They are shown as active again, with the rights of their role in the institution.'
            : 'They stay on the staff, shown as inactive, without rights in the institution, and patients cannot book them until they are activated again.'
        }
        confirm={label}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
