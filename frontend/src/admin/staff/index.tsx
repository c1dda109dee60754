import { BooleanField, Create, Datagrid, EmailField, List, ReferenceField, ReferenceInput, SelectInput, Show, SimpleForm, SimpleShowLayout, TextField, TextInput, email, required } from 'react-admin';
import { STAFF_ROLES } from '@telemed/contracts/institution-constants';

const roleChoices = STAFF_ROLES.map((r) => ({ id: r, name: r }));
const filters = [
  <ReferenceInput key="i" source="institution_id" reference="institutions" alwaysOn />,
  <SelectInput key="r" source="role" choices={roleChoices} />,
];

export const StaffList = () => (
  <List filters={filters} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="name" />
      <TextField source="role" />
      <ReferenceField source="institution_id" reference="institutions" link="show" />
      <EmailField source="email" />
      <TextField source="phone" />
      <BooleanField source="is_institution_admin" label="Admin" />
    </Datagrid>
  </List>
);

export const StaffShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="role" />
      <ReferenceField source="institution_id" reference="institutions" link="show" />
      <EmailField source="email" />
      <TextField source="phone" />
      <TextField source="role_title" />
      <TextField source="department" />
      <BooleanField source="is_active" label="Active" />
    </SimpleShowLayout>
  </Show>
);

export const StaffCreate = () => (
  <Create redirect="list">
    <SimpleForm>
      <ReferenceInput source="institution_id" reference="institutions">
        <SelectInput optionText="name" validate={required()} />
      </ReferenceInput>
      <TextInput source="name" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
      <TextInput source="phone" validate={required()} />
      <SelectInput source="account_type" label="Role" choices={roleChoices} validate={required()} />
      <TextInput source="role_title" />
      <TextInput source="department" />
    </SimpleForm>
  </Create>
);

export const staff = { list: StaffList, show: StaffShow, create: StaffCreate };
