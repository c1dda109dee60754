import { useState, type MouseEvent } from 'react';
import { Button, Confirm, useCanAccess, useNotify, useRecordContext, useUpdate } from 'react-admin';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import { useErrorText } from '../i18n/errorText';
import { useT, type MessageId } from '../i18n/useT';
import { asApiError } from './providers';

interface NamedRecord {
  id: string;
  name: string;
}

/** What a toggle of a record's `is_active` says, on and off: the admin catalogue's messages. */
export interface ToggleTexts<R> {
  resource: string;
  /** Whether pressing it turns the record on (else off). */
  turnsOn(record: R): boolean;
  label: { on: MessageId; off: MessageId };
  /** The confirmation's question, with the record's `{name}`: 'Deactivate {name}?'. */
  title: { on: MessageId; off: MessageId };
  /** The notice after it worked, with the record's `{name}`: '{name} deactivated'. */
  done: { on: MessageId; off: MessageId };
  /** What follows, said in the confirmation. */
  consequence: { on: MessageId; off: MessageId };
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
  const t = useT();
  const explain = useErrorText();
  if (!record || !canAccess) return null;
  const on = texts.turnsOn(record);
  const which = on ? 'on' : 'off';
  const label = t(texts.label[which]);
  const confirm = () =>
    update(
      texts.resource,
      { id: record.id, data: { is_active: on } as unknown as Partial<R>, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(t(texts.done[which], { name: record.name }));
        },
        onError: (error) => {
          setOpen(false);
          notify(explain(asApiError(error), 'admin.ra.notification.http_error'), { type: 'error' });
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
        title={t(texts.title[which], { name: record.name })}
        content={t(texts.consequence[which])}
        confirm={label}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
