import {
  BooleanField, Create, Datagrid, EmailField, FunctionField, List, NumberInput, ReferenceField, ReferenceInput, SelectInput, Show, SimpleForm,
  SimpleList, SimpleShowLayout, TextField, TextInput, TopToolbar, email, required,
} from 'react-admin';
import { DoctorActiveButton } from './ActiveButton';
import { DoctorRemoveButton } from './RemoveButton';
import { ListActionsWithExport } from '../export';
import { joined, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { formatRupees } from '../../lib/money';
import { useT } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

const filters = [<ReferenceInput key="i" source="institution_id" reference="institutions" alwaysOn />];

/** The fee as every screen shows it (₹1,23,456), whatever the browser's language. */
const fee = (d: DoctorRow) => (d.consultation_fee === null ? '' : formatRupees(d.consultation_fee));

type DoctorRow = ApiRoutes['listAdminDoctors']['response'][number];

/** On a narrow screen each doctor is a row of wrapped lines that opens their page, where Activate and Deactivate are. */
export const DoctorList = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'name', order: 'ASC' }}>
      {narrow ? (
        <SimpleList<DoctorRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(d) => d.name}
          tertiaryText={(d) => t(d.is_active ? 'admin.active' : 'admin.inactive')}
          secondaryText={(d) => (
            <>
              {joined(d.specialty, d.consultation_fee !== null && formatRupees(d.consultation_fee))}
              <ReferenceField source="institution_id" reference="institutions" link={false} sx={{ display: 'block' }} />
            </>
          )}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" />
          <TextField source="specialty" />
          <ReferenceField source="institution_id" reference="institutions" link="show" sortable={false} />
          <FunctionField<DoctorRow> source="consultation_fee" render={fee} sortable={false} />
          <BooleanField source="is_active" sortable={false} />
          <DoctorActiveButton />
        </Datagrid>
      )}
    </List>
  );
};

export const DoctorShow = () => (
  <Show
    actions={
      <TopToolbar>
        <DoctorActiveButton />
        <DoctorRemoveButton />
      </TopToolbar>
    }
  >
    <SimpleShowLayout>
      <TextField source="name" />
      <TextField source="specialty" />
      <TextField source="qualification" />
      <EmailField source="email" />
      <TextField source="phone_number" />
      <FunctionField<DoctorRow> source="consultation_fee" render={fee} />
      <ReferenceField source="institution_id" reference="institutions" link="show" />
      <BooleanField source="is_active" />
    </SimpleShowLayout>
  </Show>
);

/** The seeds' Add Doctor form: empty specialty, qualification and fee become General Medicine, MD and ₹100. */
export const DoctorCreate = () => (
  <Create redirect="list">
    <SimpleForm defaultValues={{ consultation_fee: 100 }}>
      <ReferenceInput source="institution_id" reference="institutions">
        <SelectInput optionText="name" validate={required()} />
      </ReferenceInput>
      <TextInput source="name" validate={required()} />
      <TextInput source="email" validate={[required(), email()]} />
      <TextInput source="phone_number" validate={required()} />
      <TextInput source="specialty" />
      <TextInput source="qualification" />
      <NumberInput source="consultation_fee" min={0} />
    </SimpleForm>
  </Create>
);

export const doctors = { list: DoctorList, show: DoctorShow, create: DoctorCreate };
