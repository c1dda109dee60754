import {
  ArrayInput, BooleanField, Create, Datagrid, DateField, Edit, EmailField, List, ReferenceManyField, SelectInput, Show, SimpleForm, SimpleList,
  SimpleFormIterator, SimpleShowLayout, TextField, TextInput, required, email, useRecordContext,
  Button, DeleteWithConfirmButton, SaveButton, Toolbar, useCanAccess, useSimpleFormIterator, useNotify, useRedirect, type ButtonProps,
} from 'react-admin';
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import { useWatch } from 'react-hook-form';
import { STAFF_ROLES, slugify } from '@telemed/contracts/institution-constants';
import { ListActionsWithExport } from '../export';
import { joined, unbroken, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { StaffListItems } from '../staff';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';
import { BookingRulesPanel } from './BookingRulesPanel';

const filters = [<TextInput key="q" source="q" alwaysOn />];

type InstitutionRow = ApiRoutes['listAdminInstitutions']['response'][number];

export const InstitutionList = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'name', order: 'ASC' }} empty={false}>
      {narrow ? (
        <SimpleList<InstitutionRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(i) => i.name}
          tertiaryText={(i) => t(i.is_active ? 'admin.active' : 'admin.disbanded')}
          secondaryText={(i) => joined(i.slug, unbroken(i.phone), i.email)}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="slug" />
          <BooleanField source="is_active" sortable={false} />
          <TextField source="phone" sortable={false} />
          <EmailField source="email" sortable={false} />
        </Datagrid>
      )}
    </List>
  );
};

export const InstitutionShow = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <BooleanField source="is_active" />
        <TextField source="address" />
        <TextField source="phone" />
        <EmailField source="email" />
        <DateField source="created_at" showTime locales={f.locale} />
        <ReferenceManyField label={t('admin.resources.institutions.fields.staff')} reference="staff" target="institution_id">
          {narrow ? (
            <StaffListItems institution={false} />
          ) : (
            <Datagrid rowClick="show" bulkActionButtons={false} empty={<>{t('admin.noStaffMembers')}</>}>
              <TextField source="name" />
              <TextField source="role" />
              <EmailField source="email" />
              <TextField source="phone" sortable={false} />
            </Datagrid>
          )}
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
};

/** The slug: typed, or left empty for the one the server derives from the name (shown as the field's help). */
function SlugInput() {
  const name = useWatch({ name: 'name' }) as string | undefined;
  const t = useT();
  return (
    <TextInput
      source="slug"
      parse={(value: string) => (value === '' ? undefined : value)}
      helperText={name ? t('admin.slugHelpNamed', { slug: slugify(name) }) : t('admin.slugHelp')}
    />
  );
}

const roleChoices = STAFF_ROLES.map((r) => ({ id: r, name: r }));

/** The staff list's add button says what it adds (react-admin's is a bare ⊕ icon). */
function AddStaffButton(props: ButtonProps) {
  const { add } = useSimpleFormIterator();
  const t = useT();
  return (
    <Button label={t('admin.addStaffMember')} {...props} onClick={() => add()}>
      <AddCircleOutlineIcon />
    </Button>
  );
}

export const InstitutionCreate = () => {
  const t = useT();
  return (
  <Create redirect="show">
    <SimpleForm>
      <TextInput source="name" validate={required()} />
      <SlugInput />
      <TextInput source="address" validate={required()} multiline />
      <TextInput source="phone" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
      <ArrayInput source="staff" validate={required(t('admin.staffRequired'))}>
        <SimpleFormIterator inline addButton={<AddStaffButton />}>
          <TextInput source="name" validate={required()} />
          <TextInput source="email" validate={[required(), email()]} />
          <TextInput source="phone" validate={required()} />
          <SelectInput source="account_type" choices={roleChoices} validate={required()} />
        </SimpleFormIterator>
      </ArrayInput>
    </SimpleForm>
  </Create>
  );
};

/**
 * Disband, not Delete: the institution stays (inactive, with its history), as the server does it. react-admin's own
 * button said 'Delete institution …? Are you sure you want to delete this institution?'. Platform admins only.
 */
function DisbandButton() {
  const record = useRecordContext<InstitutionRow>();
  const { canAccess } = useCanAccess({ resource: 'institutions', action: 'delete' });
  const notify = useNotify();
  const redirect = useRedirect();
  const t = useT();
  if (!record || !canAccess || !record.is_active) return null;
  return (
    <DeleteWithConfirmButton
      label={t('admin.disband')}
      confirmTitle={t('admin.disbandTitle', { name: record.name })}
      confirmContent={t('admin.disbandContent')}
      mutationMode="pessimistic"
      mutationOptions={{
        onSuccess: () => {
          notify(t('admin.disbandedNotice', { name: record.name }));
          redirect('list', 'institutions');
        },
      }}
    />
  );
}

const InstitutionEditToolbar = () => (
  <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
    <SaveButton />
    <DisbandButton />
  </Toolbar>
);

export const InstitutionEdit = () => (
  <Edit mutationMode="pessimistic">
    <SimpleForm toolbar={<InstitutionEditToolbar />}>
      <TextInput source="name" validate={required()} />
      <TextInput source="address" validate={required()} multiline />
      <TextInput source="phone" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
    </SimpleForm>
    <BookingRulesPanel />
  </Edit>
);

export const institutions = { list: InstitutionList, show: InstitutionShow, create: InstitutionCreate, edit: InstitutionEdit };
