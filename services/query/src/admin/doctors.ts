import { memberId } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import type { DoctorDoc, StaffDoc } from '../projections';
import { shownActive } from '../institutions/views';
import { memberReads } from './members';
import type { AdminContext } from './scope';

const doctorRecord = (doc: StaffDoc, profile: DoctorDoc | null) => ({
  id: memberId(doc.institution_id, doc.user_id),
  institution_id: doc.institution_id,
  doctor_id: doc.user_id,
  name: profile?.name ?? doc.name,
  email: profile?.email ?? doc.email,
  phone_number: profile?.phone_number ?? doc.phone,
  specialty: profile?.specialty ?? doc.specialization,
  qualification: profile?.qualification ?? null,
  consultation_fee: profile?.consultation_fee ?? null,
  role: doc.role,
  is_active: shownActive(doc),
  deactivated: doc.deactivated === true,
  is_institution_admin: doc.is_institution_admin,
});

/** Institutions' doctors, as their accounts show them. */
export function doctorRoutes(api: ApiRouter, ctx: AdminContext): void {
  const doctors = ctx.readStore.collection<DoctorDoc>('doctors');
  const reads = memberReads(ctx, 'doctors', async (docs) => Promise.all(docs.map(async (d) => doctorRecord(d, await doctors.get(d.user_id)))));
  api.implement('listAdminDoctors', { policy: policies.anyUser, handler: reads.list });
  api.implement('getAdminDoctor', { policy: policies.anyUser, handler: reads.show });
}
