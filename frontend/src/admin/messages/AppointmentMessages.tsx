import { Datagrid, DateField, FunctionField, NumberField, Pagination, ReferenceManyField, SelectField, TextField, useCanAccess, useListContext } from 'react-admin';
import { Box, Typography } from '@mui/material';
import { useNarrowScreen } from '../responsive';
import { asApiError } from '../providers';
import { ResendButton } from './ResendButton';
import { CHANNELS, KINDS, RecipientField, StatusChip, WHEN, useChoices, type MessageRow } from './labels';
import { MessageSimpleList } from './MessageSimpleList';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** More than an appointment's life sends (a request, its answer, reminders, a prescription): pages only past it. */
const PER_PAGE = 25;

/**
 * The rows, as the message log draws them: a table, or on a phone one record a row of wrapped lines; none, a line
 * saying so (here, not ReferenceManyField's `empty`, which it never shows once it is given an `error` to show).
 */
function MessageRows() {
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  const kinds = useChoices(KINDS);
  const channels = useChoices(CHANNELS);
  const { total, isPending } = useListContext<MessageRow>();
  if (!isPending && total === 0) return <Typography variant="body2">{t('admin.appointmentMessagesEmpty')}</Typography>;
  if (narrow) return <MessageSimpleList />;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        {/* The API sorts the log by updated_at, due_at or id: only the time is offered. */}
        <DateField source="updated_at" showTime options={WHEN} locales={f.locale} />
        <SelectField source="kind" choices={kinds} translateChoice={false} sortable={false} />
        <SelectField source="channel" choices={channels} translateChoice={false} sortable={false} emptyText="—" />
        <FunctionField source="to_masked" sortable={false} render={() => <RecipientField />} />
        <FunctionField source="status" sortable={false} render={() => <StatusChip />} />
        <NumberField source="attempts" sortable={false} locales={f.locale} />
        <TextField source="last_error" sortable={false} emptyText="—" sx={{ wordBreak: 'break-word' }} />
        {/* Only to those who may act on the log (the platform admins), and only on a failed message. */}
        <ResendButton />
      </Datagrid>
    </Box>
  );
}

/** Said in place, in the chosen language (by the refusal's code), rather than as a notice over the page. */
function MessagesFailed() {
  const { error } = useListContext<MessageRow>();
  const explain = useErrorText();
  return (
    <Typography variant="body2" color="error">
      {explain(asApiError(error), 'admin.appointmentMessagesFailed')}
    </Typography>
  );
}

/** Page links only when there is more than one page. */
function MorePages() {
  const { total, perPage } = useListContext<MessageRow>();
  return total != null && total > perPage ? <Pagination rowsPerPageOptions={[]} /> : null;
}

/**
 * The messages of the appointment on the page (issue 34), newest first: when, what, on which channel, to whom (masked),
 * how it went, after how many attempts and the last error; never the text, which the server does not send. For those
 * the console lets see them: the platform admins (who may also send a failed one again), and a clinic's members who may
 * read its appointments (the server answers them the messages of their clinic's appointments only, and audits each
 * read). Read through the dataProvider's getManyReference: GET /admin/messages?filter={"appointment_id":...}.
 */
export function AppointmentMessages() {
  const t = useT();
  const { canAccess: canShow } = useCanAccess({ resource: 'messages', action: 'show' });
  const { canAccess: canList } = useCanAccess({ resource: 'messages', action: 'list' });
  if (!canShow && !canList) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="appointment-messages">
      <Typography variant="h6">{t('admin.appointmentMessages')}</Typography>
      <ReferenceManyField<{ id: string }, MessageRow>
        reference="messages"
        target="appointment_id"
        sort={{ field: 'updated_at', order: 'DESC' }}
        perPage={PER_PAGE}
        loading={<Typography variant="body2">{t('admin.loading')}</Typography>}
        error={<MessagesFailed />}
        // MessagesFailed says it; not a second time in a notice.
        queryOptions={{ onError: () => undefined }}
        pagination={<MorePages />}
      >
        <MessageRows />
      </ReferenceManyField>
    </Box>
  );
}
