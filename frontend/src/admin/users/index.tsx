import { BooleanField, BooleanInput, Datagrid, DateField, EmailField, List, SelectField, SelectInput, Show, SimpleList, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { ListActionsWithExport } from '../export';
import { joined, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { UserActiveButton } from './ActiveButton';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

type UserRow = ApiRoutes['listAdminUsers']['response'][number];

const ACCOUNT_TYPES: Record<UserRow['account_type'], MessageId> = { patient: 'admin.accountPatient', doctor: 'admin.accountDoctor', admin: 'admin.accountAdmin' };

/** The account types, each in the chosen language (in English as the API writes them: 'patient'). */
function useAccountTypes() {
  const t = useT();
  return Object.entries(ACCOUNT_TYPES).map(([id, name]) => ({ id, name: t(name) }));
}

const REGISTERED: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'Asia/Kolkata' };

/** On a narrow screen each account is a row of wrapped lines that opens its page, where Deactivate and Reactivate are. */
export const UserList = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  const accountTypes = useAccountTypes();
  const filters = [
    <SelectInput key="a" source="account_type" choices={accountTypes} translateChoice={false} alwaysOn />,
    <BooleanInput key="b" source="is_active" />,
  ];
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'registered_at', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<UserRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(u) => u.name ?? u.email ?? u.id}
          tertiaryText={(u) => t(ACCOUNT_TYPES[u.account_type])}
          secondaryText={(u) => joined(u.email, t(u.is_active ? 'admin.active' : 'admin.inactive'), t('admin.since', { date: f.date(u.registered_at, REGISTERED) }))}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <EmailField source="email" sortable={false} />
          <SelectField source="account_type" choices={accountTypes} translateChoice={false} />
          <BooleanField source="is_active" sortable={false} />
          <DateField source="registered_at" locales={f.locale} />
          <UserActiveButton />
        </Datagrid>
      )}
    </List>
  );
};

export const UserShow = () => {
  const f = useFormat();
  const accountTypes = useAccountTypes();
  return (
    <Show
      actions={
        <TopToolbar>
          <UserActiveButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" />
        <EmailField source="email" />
        <TextField source="phone_number" />
        <SelectField source="account_type" choices={accountTypes} translateChoice={false} />
        <BooleanField source="is_active" />
        <DateField source="registered_at" showTime locales={f.locale} />
      </SimpleShowLayout>
    </Show>
  );
};

/** Deactivate and Reactivate are buttons with a confirmation (UserActiveButton), on the list and the account's page. */
export const users = { list: UserList, show: UserShow };
