import { SelectInput, useGetList } from 'react-admin';

/**
 * A datetime-local value ('2026-11-24T10:00', in the browser's time zone) as the UTC instant the API's start_gte and
 * start_lte take; an empty or unreadable value sets no filter.
 */
export function instantOf(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The doctors the caller may see (their institutions' doctors), by name, filtering appointments by doctor_id. Its label is
 * the resource's field's (`resources.appointments.fields.doctor_id` in the admin catalogue) unless one is given.
 */
export function DoctorFilter({ source, label }: { source: string; label?: string }) {
  const { data, isPending } = useGetList<{ id: string; doctor_id: string; name: string }>('doctors', {
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'name', order: 'ASC' },
  });
  // A doctor of two institutions is one choice.
  const choices = [...new Map((data ?? []).map((d) => [d.doctor_id, { id: d.doctor_id, name: d.name }])).values()];
  return <SelectInput source={source} label={label} choices={choices} isPending={isPending} />;
}
