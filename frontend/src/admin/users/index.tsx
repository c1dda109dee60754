import { BooleanField, BooleanInput, Datagrid, DateField, Edit, EmailField, List, SelectInput, Show, SimpleForm, SimpleShowLayout, TextField } from 'react-admin';
import { ListActionsWithExport } from '../export';

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
    </Datagrid>
  </List>
);

export const UserShow = () => (
  <Show>
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

/** Deactivate or reactivate: the only change an operator makes to an account. */
export const UserEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextField source="name" />
      <BooleanInput source="is_active" label="Active" />
    </SimpleForm>
  </Edit>
);

export const users = { list: UserList, show: UserShow, edit: UserEdit };
