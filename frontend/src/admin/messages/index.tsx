import { Datagrid, DateField, FunctionField, Link, List, NumberField, SelectField, SelectInput, SimpleList, TextField, TextInput, useCanAccess, useCreatePath, useRecordContext, useResourceDefinitions } from 'react-admin';
import { Chip, type ChipProps } from '@mui/material';
import { ListActionsWithExport } from '../export';
import { joined, unbroken, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { ResendButton } from './ResendButton';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId, type Translate } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

type MessageRow = ApiRoutes['listMessages']['response'][number];

/** '24 Nov 2026, 9:30 am' in the viewer's own time zone: when it happened where the operator is. */
const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

const KINDS: Record<MessageRow['kind'], MessageId> = {
  appointment_requested: 'admin.messageKindAppointmentRequested',
  patient_waiting: 'admin.messageKindPatientWaiting',
  appointment_approved: 'admin.messageKindAppointmentApproved',
  appointment_rejected: 'admin.messageKindAppointmentRejected',
  appointment_cancelled: 'admin.messageKindAppointmentCancelled',
  appointment_reminder: 'admin.messageKindAppointmentReminder',
  prescription_ready: 'admin.messageKindPrescriptionReady',
  sign_in_code: 'admin.messageKindSignInCode',
};
const CHANNELS: Record<NonNullable<MessageRow['channel']>, MessageId> = {
  whatsapp: 'admin.messageChannelWhatsapp',
  sms: 'admin.messageChannelSms',
  email: 'admin.messageChannelEmail',
};
const STATUSES: Record<MessageRow['status'], MessageId> = {
  queued: 'admin.messageStatusQueued',
  sending: 'admin.messageStatusSending',
  sent: 'admin.messageStatusSent',
  delivered: 'admin.messageStatusDelivered',
  failed: 'admin.messageStatusFailed',
  cancelled: 'admin.messageStatusCancelled',
};
const STATUS_COLORS: Record<MessageRow['status'], ChipProps['color']> = {
  queued: 'default',
  sending: 'info',
  sent: 'info',
  delivered: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A value's label in the chosen language; one the console does not know yet (a newer server's) as the API writes it. */
function said<K extends string>(t: Translate, labels: Record<K, MessageId>, value: K | null | undefined): string {
  if (!value) return '';
  return Object.hasOwn(labels, value) ? t(labels[value]) : value;
}

/** The choices of a filter or field, each in the chosen language (in English as the API writes them: 'failed'). */
function useChoices<K extends string>(labels: Record<K, MessageId>) {
  const t = useT();
  return Object.entries<MessageId>(labels).map(([id, name]) => ({ id, name: t(name) }));
}

/** The status as a chip, red when the message failed for good. */
function StatusChip() {
  const record = useRecordContext<MessageRow>();
  const t = useT();
  if (!record?.status) return null;
  return <Chip size="small" color={STATUS_COLORS[record.status] ?? 'default'} label={said(t, STATUSES, record.status)} />;
}

/** The masked address, opening the recipient's account where the console shows accounts to the viewer. */
function RecipientField() {
  const record = useRecordContext<MessageRow>();
  const createPath = useCreatePath();
  const { users } = useResourceDefinitions();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'show' });
  const t = useT();
  if (!record) return null;
  const shown = record.to_masked ?? (record.recipient_id ? t('admin.messageRecipientAccount') : '—');
  if (!record.recipient_id || !users?.hasShow || !canAccess) return <span>{shown}</span>;
  return (
    <Link to={createPath({ resource: 'users', type: 'show', id: record.recipient_id })}>{shown}</Link>
  );
}

/**
 * The message log (issue 34), newest first: what was sent to whom (the address masked), on which channel, and how it
 * went; never the text, which the server does not send. A failed one can be sent again (ResendButton).
 */
export const MessageList = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  const kinds = useChoices(KINDS);
  const channels = useChoices(CHANNELS);
  const statuses = useChoices(STATUSES);
  const filters = [
    <SelectInput key="s" source="status" choices={statuses} translateChoice={false} alwaysOn />,
    <SelectInput key="c" source="channel" choices={channels} translateChoice={false} />,
    <SelectInput key="k" source="kind" choices={kinds} translateChoice={false} />,
    <TextInput key="a" source="appointment_id" />,
  ];
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'updated_at', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<MessageRow>
          rowClick={false}
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(m) => said(t, KINDS, m.kind)}
          tertiaryText={(m) => said(t, STATUSES, m.status)}
          secondaryText={(m) =>
            joined(unbroken(f.date(m.updated_at, WHEN)), said(t, CHANNELS, m.channel), m.to_masked, t('admin.attemptsLine', { attempts: m.attempts }), m.last_error)
          }
          rightIcon={() => <ResendButton />}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          {/* The API sorts the log by updated_at, due_at or id: only the time is offered. */}
          <DateField source="updated_at" showTime options={WHEN} locales={f.locale} />
          <SelectField source="kind" choices={kinds} translateChoice={false} sortable={false} />
          <SelectField source="channel" choices={channels} translateChoice={false} sortable={false} emptyText="—" />
          <FunctionField source="to_masked" sortable={false} render={() => <RecipientField />} />
          <FunctionField source="status" sortable={false} render={() => <StatusChip />} />
          <NumberField source="attempts" sortable={false} locales={f.locale} />
          <TextField source="last_error" sortable={false} emptyText="—" sx={{ wordBreak: 'break-word' }} />
          <ResendButton />
        </Datagrid>
      )}
    </List>
  );
};

/** Platform admins only (the server's policy; the authProvider's canAccess): a list, with Resend on failed rows. */
export const messages = { list: MessageList };
