import { Datagrid, DateField, DateTimeInput, List, SelectInput, Show, SimpleShowLayout, TextField, TextInput, ReferenceInput, ReferenceField } from 'react-admin';
import { HistoryTimeline } from './HistoryTimeline';

const statuses = ['requested', 'confirmed', 'rejected', 'cancelled', 'completed'].map((id) => ({ id, name: id }));
const filters = [
  <SelectInput key="s" source="status" choices={statuses} alwaysOn />,
  <TextInput key="d" source="doctor_id" label="Doctor id" />,
  <TextInput key="p" source="patient_id" label="Patient id" />,
  <DateTimeInput key="from" source="start_gte" label="From" />,
  <DateTimeInput key="to" source="start_lte" label="To" />,
  <TextInput key="q" source="q" label="Search notes" />,
  <ReferenceInput key="i" source="institution_id" reference="institutions" />,
];

export const AppointmentList = () => (
  <List filters={filters} sort={{ field: 'start', order: 'DESC' }}>
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <TextField source="patient_name" label="Patient" />
      <TextField source="doctor_name" label="Doctor" />
      <DateField source="start" label="Date & Time" showTime />
      <TextField source="status" />
      <TextField source="notes" />
    </Datagrid>
  </List>
);

export const AppointmentShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="patient_name" label="Patient" />
      <TextField source="doctor_name" label="Doctor" />
      <DateField source="start" label="Date & Time" showTime />
      <TextField source="status" />
      <TextField source="notes" emptyText="—" />
      <ReferenceField source="institution_id" reference="institutions" link="show" emptyText="—" />
      <HistoryTimeline />
    </SimpleShowLayout>
  </Show>
);

export const appointments = { list: AppointmentList, show: AppointmentShow };
