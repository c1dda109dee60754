import {
  ArrayInput, BooleanField, Create, Datagrid, DateField, Edit, EmailField, List, ReferenceManyField, SelectInput, Show, SimpleForm,
  SimpleFormIterator, SimpleShowLayout, TextField, TextInput, required, email, useRecordContext,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { STAFF_ROLES, slugify } from '@telemed/contracts/institution-constants';
import { ListActionsWithExport } from '../export';

const filters = [<TextInput key="q" source="q" label="Search" alwaysOn />];

export const InstitutionList = () => (
  <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'name', order: 'ASC' }} empty={false}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="name" />
      <TextField source="slug" />
      <BooleanField source="is_active" label="Active" />
      <TextField source="phone" />
      <EmailField source="email" />
    </Datagrid>
  </List>
);

export const InstitutionShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="slug" />
      <BooleanField source="is_active" label="Active" />
      <TextField source="address" />
      <TextField source="phone" />
      <EmailField source="email" />
      <DateField source="created_at" showTime />
      <ReferenceManyField label="Staff" reference="staff" target="institution_id">
        <Datagrid rowClick="show" bulkActionButtons={false} empty={<>No staff members</>}>
          <TextField source="name" />
          <TextField source="role" />
          <EmailField source="email" />
          <TextField source="phone" />
        </Datagrid>
      </ReferenceManyField>
    </SimpleShowLayout>
  </Show>
);

/** The slug the server derives from the name when none is typed (lowercase letters, digits, hyphens). */
function SlugHint() {
  const name = useWatch({ name: 'name' }) as string | undefined;
  const record = useRecordContext();
  if (record) return null;
  return <p style={{ margin: '0 0 16px' }}>Slug: {name ? slugify(name) : '—'}</p>;
}

const roleChoices = STAFF_ROLES.map((r) => ({ id: r, name: r }));

export const InstitutionCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <SlugHint />
      <TextInput source="address" validate={required()} multiline />
      <TextInput source="phone" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
      <ArrayInput source="staff" validate={required('At least one staff member is required')}>
        <SimpleFormIterator inline>
          <TextInput source="name" validate={required()} />
          <TextInput source="email" validate={[required(), email()]} />
          <TextInput source="phone" validate={required()} />
          <SelectInput source="account_type" label="Role" choices={roleChoices} validate={required()} />
        </SimpleFormIterator>
      </ArrayInput>
    </SimpleForm>
  </Create>
);

export const InstitutionEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <TextInput source="address" validate={required()} multiline />
      <TextInput source="phone" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
    </SimpleForm>
  </Edit>
);

export const institutions = { list: InstitutionList, show: InstitutionShow, create: InstitutionCreate, edit: InstitutionEdit };
