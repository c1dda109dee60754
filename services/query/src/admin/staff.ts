import { memberId } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import type { StaffDoc } from '../projections';
import { shownActive } from '../institutions/views';
import { memberReads } from './members';
import type { AdminContext } from './scope';

const staffRecord = (doc: StaffDoc) => ({
  id: memberId(doc.institution_id, doc.user_id),
  institution_id: doc.institution_id,
  user_id: doc.user_id,
  staff_id: doc._id,
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  role: doc.role,
  role_title: doc.role_title,
  department: doc.department,
  specialization: doc.specialization,
  is_active: shownActive(doc),
  deactivated: doc.deactivated === true,
  is_institution_admin: doc.is_institution_admin,
  added_at: doc.added_at,
});

/** Institutions' staff with their roles. */
export function staffRoutes(api: ApiRouter, ctx: AdminContext): void {
  const reads = memberReads(ctx, 'staff', async (docs) => docs.map(staffRecord));
  api.implement('listAdminStaff', { policy: policies.anyUser, handler: reads.list });
  api.implement('getAdminStaffMember', { policy: policies.anyUser, handler: reads.show });
}
