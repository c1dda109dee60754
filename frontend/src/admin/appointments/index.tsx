import { Datagrid, DateField, DateTimeInput, List, SelectInput, Show, SimpleList, SimpleShowLayout, TextField, TextInput, ReferenceInput, ReferenceField, useRecordContext } from 'react-admin';
import { NOTES_SEARCH_MAX_DAYS } from '@telemed/contracts/admin';
import { HistoryTimeline } from './HistoryTimeline';
import { DoctorFilter, instantOf } from './filters';
import { ListActionsWithExport } from '../export';
import { joined, unbroken, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import type { ApiRoutes } from '@telemed/contracts';

/** '24 Nov 2026, 9:30 am' in India's time, without seconds. */
const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' };
const statuses = ['requested', 'confirmed', 'rejected', 'cancelled', 'completed'].map((id) => ({ id, name: id }));
const filters = [
  <SelectInput key="s" source="status" choices={statuses} alwaysOn />,
  <DoctorFilter key="d" source="doctor_id" label="Doctor" />,
  <TextInput key="p" source="patient_id" label="Patient id" />,
  // The browser's local date and time, sent as the UTC instant the API filters by.
  <DateTimeInput key="from" source="start_gte" label="From" parse={instantOf} />,
  <DateTimeInput key="to" source="start_lte" label="To" parse={instantOf} />,
  <TextInput key="q" source="q" label="Search notes" helperText={`With From and To, at most ${NOTES_SEARCH_MAX_DAYS} days apart`} />,
  <ReferenceInput key="i" source="institution_id" reference="institutions" />,
];

type AppointmentRow = ApiRoutes['listAdminAppointments']['response'][number];

export const AppointmentList = () => {
  const narrow = useNarrowScreen();
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'start', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<AppointmentRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(a) => a.patient_name ?? 'Patient'}
          tertiaryText={(a) => a.status}
          secondaryText={(a) => (
            <>
              {joined(a.doctor_name && `with ${a.doctor_name}`, unbroken(new Date(a.start).toLocaleString('en-IN', WHEN)))}
              {a.notes && <span style={{ display: 'block' }}>{a.notes}</span>}
            </>
          )}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="patient_name" label="Patient" sortable={false} />
          <TextField source="doctor_name" label="Doctor" sortable={false} />
          <DateField source="start" label="Date & Time" showTime options={WHEN} />
          <TextField source="status" />
          <TextField source="notes" sortable={false} />
        </Datagrid>
      )}
    </List>
  );
};

/** 'Priya Patel with Dr. Ananya Sharma' rather than the appointment's id. */
const AppointmentTitle = () => {
  const record = useRecordContext<AppointmentRow>();
  return <>{record ? `${record.patient_name ?? 'Appointment'} with ${record.doctor_name ?? 'the doctor'}` : 'Appointment'}</>;
};

export const AppointmentShow = () => (
  <Show title={<AppointmentTitle />}>
    <SimpleShowLayout>
      <TextField source="patient_name" label="Patient" />
      <TextField source="doctor_name" label="Doctor" />
      <DateField source="start" label="Date & Time" showTime options={WHEN} />
      <TextField source="status" />
      <TextField source="notes" emptyText="—" />
      <ReferenceField source="institution_id" reference="institutions" link="show" emptyText="—" />
      <HistoryTimeline />
    </SimpleShowLayout>
  </Show>
);

export const appointments = { list: AppointmentList, show: AppointmentShow };
