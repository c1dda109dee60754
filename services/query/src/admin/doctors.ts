import { memberId } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import type { DoctorDoc, StaffDoc } from '../projections';
import { memberDoctorView } from '../institutions/views';
import { memberReads } from './members';
import type { AdminContext } from './scope';

const doctorRecord = (doc: StaffDoc, profile: DoctorDoc | null) => ({
  id: memberId(doc.institution_id, doc.user_id),
  institution_id: doc.institution_id,
  ...memberDoctorView(doc, profile),
  role: doc.role,
  deactivated: doc.deactivated === true,
});

/** Institutions' doctors, as their accounts show them. */
export function doctorRoutes(api: ApiRouter, ctx: AdminContext): void {
  const doctors = ctx.readStore.collection<DoctorDoc>('doctors');
  const reads = memberReads(ctx, 'doctors', async (docs) => Promise.all(docs.map(async (d) => doctorRecord(d, await doctors.get(d.user_id)))));
  api.implement('listAdminDoctors', { policy: policies.anyUser, handler: reads.list });
  api.implement('getAdminDoctor', { policy: policies.anyUser, handler: reads.show });
}
