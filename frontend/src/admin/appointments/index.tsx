import {
  Datagrid, DateField, DateTimeInput, List, SelectField, SelectInput, Show, SimpleList, SimpleShowLayout, TextField, TextInput, ReferenceInput, ReferenceField,
  useRecordContext,
} from 'react-admin';
import { NOTES_SEARCH_MAX_DAYS } from '@telemed/contracts/admin';
import { HistoryTimeline } from './HistoryTimeline';
import { AppointmentMessages } from '../messages/AppointmentMessages';
import { DoctorFilter, instantOf } from './filters';
import { ListActionsWithExport } from '../export';
import { joined, unbroken, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

type AppointmentRow = ApiRoutes['listAdminAppointments']['response'][number];

/** '24 Nov 2026, 9:30 am' in India's time, without seconds. */
const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' };
const STATUSES: Record<AppointmentRow['status'], MessageId> = {
  requested: 'admin.statusRequested',
  confirmed: 'admin.statusConfirmed',
  rejected: 'admin.statusRejected',
  cancelled: 'admin.statusCancelled',
  completed: 'admin.statusCompleted',
  no_show: 'admin.statusNoShow',
};

/** The statuses, each in the chosen language (in English as the API writes them: 'confirmed'). */
function useStatuses() {
  const t = useT();
  return Object.entries(STATUSES).map(([id, name]) => ({ id, name: t(name) }));
}

export const AppointmentList = () => {
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  const statuses = useStatuses();
  const filters = [
    <SelectInput key="s" source="status" choices={statuses} translateChoice={false} alwaysOn />,
    <DoctorFilter key="d" source="doctor_id" />,
    <TextInput key="p" source="patient_id" />,
    // The browser's local date and time, sent as the UTC instant the API filters by.
    <DateTimeInput key="from" source="start_gte" parse={instantOf} />,
    <DateTimeInput key="to" source="start_lte" parse={instantOf} />,
    <TextInput key="q" source="q" helperText={t('admin.notesSearchHelp', { days: NOTES_SEARCH_MAX_DAYS })} />,
    <ReferenceInput key="i" source="institution_id" reference="institutions" />,
  ];
  return (
    <List actions={<ListActionsWithExport />} filters={filters} sort={{ field: 'start', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<AppointmentRow>
          rowClick="show"
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(a) => a.patient_name ?? t('admin.patient')}
          tertiaryText={(a) => t(STATUSES[a.status])}
          secondaryText={(a) => (
            <>
              {joined(a.doctor_name && t('admin.withDoctor', { doctor: a.doctor_name }), unbroken(f.date(a.start, WHEN)))}
              {a.notes && <span style={{ display: 'block' }}>{a.notes}</span>}
            </>
          )}
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="patient_name" sortable={false} />
          <TextField source="doctor_name" sortable={false} />
          <DateField source="start" showTime options={WHEN} locales={f.locale} />
          <SelectField source="status" choices={statuses} translateChoice={false} />
          <TextField source="notes" sortable={false} />
        </Datagrid>
      )}
    </List>
  );
};

/** 'Priya Patel with Dr. Ananya Sharma' rather than the appointment's id. */
const AppointmentTitle = () => {
  const record = useRecordContext<AppointmentRow>();
  const t = useT();
  return <>{record ? t('admin.appointmentTitle', { patient: record.patient_name ?? t('admin.appointment'), doctor: record.doctor_name ?? t('admin.theDoctor') }) : t('admin.appointment')}</>;
};

export const AppointmentShow = () => {
  const f = useFormat();
  const statuses = useStatuses();
  return (
    <Show title={<AppointmentTitle />}>
      <SimpleShowLayout>
        <TextField source="patient_name" />
        <TextField source="doctor_name" />
        <DateField source="start" showTime options={WHEN} locales={f.locale} />
        <SelectField source="status" choices={statuses} translateChoice={false} />
        <TextField source="notes" emptyText="—" />
        <ReferenceField source="institution_id" reference="institutions" link="show" emptyText="—" />
        <HistoryTimeline />
        {/* What was sent about it, to those the console lets see it (issue 34). */}
        <AppointmentMessages />
      </SimpleShowLayout>
    </Show>
  );
};

export const appointments = { list: AppointmentList, show: AppointmentShow };
