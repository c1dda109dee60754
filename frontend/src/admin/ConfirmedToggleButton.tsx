import { useState, type MouseEvent } from 'react';
import { Button, Confirm, useCanAccess, useNotify, useRecordContext, useUpdate } from 'react-admin';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import HowToRegIcon from '@mui/icons-material/HowToReg';

interface NamedRecord {
  id: string;
  name: string;
}

/** What a toggle of a record's `is_active` says, on and off. */
export interface ToggleTexts<R> {
  resource: string;
  /** Whether pressing it turns the record on (else off). */
  turnsOn(record: R): boolean;
  label: { on: string; off: string };
  /** The notice after it worked: '<name> <done>'. */
  done: { on: string; off: string };
  /** What follows, said in the confirmation. */
  consequence: { on: string; off: string };
}

/**
 * Sets the record's `is_active` after a confirmation that says what follows; shown only to those the server lets edit
 * the resource. Pessimistic: the list shows the server's answer.
 */
export function ConfirmedToggleButton<R extends NamedRecord>({ texts }: { texts: ToggleTexts<R> }) {
  const record = useRecordContext<R>();
  const { canAccess } = useCanAccess({ resource: texts.resource, action: 'edit' });
  const [open, setOpen] = useState(false);
  const [update, { isPending }] = useUpdate<R>();
  const notify = useNotify();
  if (!record || !canAccess) return null;
  const on = texts.turnsOn(record);
  const label = on ? texts.label.on : texts.label.off;
  const confirm = () =>
    update(
      texts.resource,
      { id: record.id, data: { is_active: on } as unknown as Partial<R>, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(`${record.name} ${on ? texts.done.on : texts.done.off}`);
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
        {on ? <HowToRegIcon /> : <PersonOffIcon />}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={`${label} ${record.name}?`}
        content={on ? texts.consequence.on : texts.consequence.off}
        confirm={label}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
