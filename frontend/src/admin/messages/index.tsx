import { Datagrid, DateField, FunctionField, List, NumberField, SelectField, SelectInput, TextField, TextInput } from 'react-admin';
import { ListActionsWithExport } from '../export';
import { useNarrowScreen } from '../responsive';
import { ResendButton } from './ResendButton';
import { CHANNELS, KINDS, RecipientField, STATUSES, StatusChip, WHEN, useChoices } from './labels';
import { MessageSimpleList } from './MessageSimpleList';
import { useFormat } from '../../i18n/format';

/**
 * The message log (issue 34), newest first: what was sent to whom (the address masked), on which channel, and how it
 * went; never the text, which the server does not send. A failed one can be sent again (ResendButton).
 */
export const MessageList = () => {
  const narrow = useNarrowScreen();
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
        <MessageSimpleList />
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

/**
 * The whole log is the platform admins' (the server's policy; the authProvider's canAccess): a list, with Resend on
 * failed rows. A clinic sees the messages of one of its appointments on that appointment's page (AppointmentMessages).
 */
export const messages = { list: MessageList };
