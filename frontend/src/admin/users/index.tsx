import { BooleanField, BooleanInput, Datagrid, DateField, EmailField, List, SelectInput, Show, SimpleList, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { ListActionsWithExport } from '../export';
import { joined, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { UserActiveButton } from './ActiveButton';
import type { ApiRoutes } from '@telemed/contracts';

const filters = [
  <SelectInput key="a" source="account_type" choices={['patient', 'doctor', 'admin'].map((id) => ({ id, name: id }))} alwaysOn />,
  <BooleanInput key="b" source="is_active" label="Active" />,
];

type UserRow = ApiRoutes['listAdminUsers']['response'][number];

const REGISTERED: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'Asia/Kolkata' };

/** On a narrow screen each account is a row of wrapped lines that opens its page, where Deactivate and Reactivate are. */
export const UserList = () => {
  const narrow = useNarrowScreen();
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'registered_at', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<UserRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(u) => u.name ?? u.email ?? u.id}
          tertiaryText={(u) => u.account_type}
          secondaryText={(u) => joined(u.email, u.is_active ? 'Active' : 'Inactive', `since ${new Date(u.registered_at).toLocaleDateString('en-IN', REGISTERED)}`)}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <EmailField source="email" sortable={false} />
          <TextField source="account_type" />
          <BooleanField source="is_active" label="Active" sortable={false} />
          <DateField source="registered_at" />
          <UserActiveButton />
        </Datagrid>
      )}
    </List>
  );
};

export const UserShow = () => (
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
      <TextField source="account_type" />
      <BooleanField source="is_active" label="Active" />
      <DateField source="registered_at" showTime />
    </SimpleShowLayout>
  </Show>
);

/** Deactivate and Reactivate are buttons with a confirmation (UserActiveButton), on the list and the account's page. */
export const users = { list: UserList, show: UserShow };
