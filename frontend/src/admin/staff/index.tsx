import {
  BooleanField, Create, Datagrid, Edit, EmailField, List, ReferenceField, ReferenceInput, SelectInput, Show, SimpleForm, SimpleList, SimpleShowLayout,
  TextField, TextInput, email, required,
} from 'react-admin';
import { DEFAULT_ROLE_PERMISSIONS, STAFF_ROLES } from '@telemed/contracts/institution-constants';
import { ListActionsWithExport } from '../export';
import { joined, unbroken, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { StaffEditToolbar } from './RemoveButton';
import { useT } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

const roleChoices = STAFF_ROLES.map((r) => ({ id: r, name: r }));
/** Each role with the seeds' default permissions (an institution may have changed its own). */
const roleWithPermissions = STAFF_ROLES.map((r) => ({ id: r, name: `${r} — ${DEFAULT_ROLE_PERMISSIONS[r].join(', ').replace(/_/g, ' ')}` }));
/** The long options wrap in the menu instead of running off a phone's screen. */
const wrappingOptions = { MenuProps: { slotProps: { paper: { sx: { '& .MuiMenuItem-root': { whiteSpace: 'normal' } } } } } };
const filters = [
  <ReferenceInput key="i" source="institution_id" reference="institutions" alwaysOn />,
  <SelectInput key="r" source="role" choices={roleChoices} />,
];

type StaffRow = ApiRoutes['listAdminStaff']['response'][number];

/** A staff member as a narrow screen's row: name and role, then how to reach them and (unless shown within it) where they work. */
export const StaffListItems = ({ institution = true }: { institution?: boolean }) => {
  const t = useT();
  return (
  <SimpleList<StaffRow>
    rowClick="show"
    className={RECORD_LIST}
    sx={wrappingListSx}
    primaryText={(s) => s.name}
    tertiaryText={(s) => joined(s.role, s.is_institution_admin && s.role !== 'ADMIN' && t('admin.institutionAdminTag'))}
    secondaryText={(s) => (
      <>
        {joined(s.email, unbroken(s.phone))}
        {institution && <ReferenceField source="institution_id" reference="institutions" link={false} sx={{ display: 'block' }} />}
      </>
    )}
  />
  );
};

export const StaffList = () => {
  const narrow = useNarrowScreen();
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'name', order: 'ASC' }}>
      {narrow ? (
        <StaffListItems />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="role" />
          <ReferenceField source="institution_id" reference="institutions" link="show" sortable={false} />
          <EmailField source="email" />
          <TextField source="phone" sortable={false} />
          <BooleanField source="is_institution_admin" sortable={false} />
        </Datagrid>
      )}
    </List>
  );
};

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
      <BooleanField source="is_active" />
    </SimpleShowLayout>
  </Show>
);

export const StaffCreate = () => {
  const t = useT();
  return (
  <Create redirect="list">
    <SimpleForm>
      <ReferenceInput source="institution_id" reference="institutions">
        <SelectInput optionText="name" validate={required()} />
      </ReferenceInput>
      <TextInput source="name" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
      <TextInput source="phone" validate={required()} />
      <SelectInput source="account_type" choices={roleWithPermissions} slotProps={{ select: wrappingOptions }} validate={required()} helperText={t('admin.defaultPermissionsHelp')} />
      <TextInput source="role_title" />
      <TextInput source="department" />
    </SimpleForm>
  </Create>
  );
};


/**
 * The seeds' 'coming soon' staff edit, made real: the role. The server keeps an ADMIN in the institution, refuses
 * anyone raising their own role or giving rights they lack, and a doctor role to an account that is not a doctor's.
 */
export const StaffEdit = () => {
  const t = useT();
  return (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm toolbar={<StaffEditToolbar />}>
      <TextField source="name" />
      <ReferenceField source="institution_id" reference="institutions" link={false} />
      <SelectInput source="role" choices={roleWithPermissions} slotProps={{ select: wrappingOptions }} validate={required()} helperText={t('admin.defaultPermissionsHelp')} />
    </SimpleForm>
  </Edit>
  );
};

export const staff = { list: StaffList, show: StaffShow, create: StaffCreate, edit: StaffEdit };
