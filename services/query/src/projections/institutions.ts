import { match } from 'ts-pattern';
import { defineProjection } from './projection';
import type { InstitutionDoc, StaffDoc } from './documents';

export const institutionsProjection = defineProjection({
  name: 'institutions',
  // 2: staff docs carry removed_position (membership intervals for appointment access).
  version: 2,
  collections: ['institutions', 'institution_staff'],
  indexes: [
    { collection: 'institution_staff', field: 'institution_id' },
    { collection: 'institution_staff', field: 'user_id' },
  ],
  handles: ['InstitutionCreated', 'InstitutionStaffAdded', 'InstitutionStaffRemoved', 'InstitutionDisbanded'],
  apply: async (event, store) => {
    const institutions = store.collection<InstitutionDoc>('institutions');
    const staff = store.collection<StaffDoc>('institution_staff');
    await match(event)
      .with({ type: 'InstitutionCreated' }, ({ data: { institution_id, ...fields }, metadata }) =>
        institutions.put({ _id: institution_id, ...fields, is_active: true, created_at: metadata.occurred_at }),
      )
      .with({ type: 'InstitutionStaffAdded' }, ({ data: { staff_id, ...fields }, metadata, position }) =>
        staff.put({ _id: staff_id, ...fields, is_active: true, added_at: metadata.occurred_at, added_position: position, removed_at: null, removed_position: null }),
      )
      .with({ type: 'InstitutionStaffRemoved' }, ({ data, metadata, position }) =>
        staff.patch(data.staff_id, { is_active: false, removed_at: metadata.occurred_at, removed_position: position }),
      )
      .with({ type: 'InstitutionDisbanded' }, ({ data }) => institutions.patch(data.institution_id, { is_active: false }))
      .otherwise(async () => {});
  },
});
