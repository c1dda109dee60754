import { BooleanField, BooleanInput, Datagrid, DateField, EmailField, List, SelectInput, Show, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { ListActionsWithExport } from '../export';
import { UserActiveButton } from './ActiveButton';

const filters = [
  <SelectInput key="a" source="account_type" choices={['patient', 'doctor', 'admin'].map((id) => ({ id, name: id }))} alwaysOn />,
  <BooleanInput key="b" source="is_active" label="Active" />,
];

export const UserList = () => (
  <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'registered_at', order: 'DESC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="name" />
      <EmailField source="email" />
      <TextField source="account_type" />
      <BooleanField source="is_active" label="Active" />
      <DateField source="registered_at" />
      <UserActiveButton />
    </Datagrid>
  </List>
);

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
