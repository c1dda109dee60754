import { API_TEXTS, DEFAULT_TIMEZONE, notFound, toLocalSlotFields } from '@telemed/contracts';
import { Subjects, policies, type AccessClaims, type ApiRouter } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';
import { appointmentPeople } from '../appointments/people';
import { appointmentPages } from './appointment-pages';
import { contentRange } from './ra';
import { auditPurpose, type AdminContext } from './scope';

export const appointmentRecord = (a: AppointmentDoc, zone: string, notesReadable: boolean, institutionId: string | null) => ({
  id: a._id,
  patient_id: a.patient_id,
  patient_name: a.patient_name,
  doctor_id: a.doctor_id,
  doctor_name: a.doctor_name,
  doctor_specialty: a.doctor_specialty,
  institution_id: institutionId,
  start: a.start,
  end: a.end,
  ...toLocalSlotFields(a.start, a.end, zone),
  status: a.status,
  status_reason: a.status_reason,
  notes: notesReadable ? a.notes : null,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

/** The appointment if the caller may read it through the console, with why. */
export function appointmentReader(ctx: AdminContext) {
  const appointments = ctx.readStore.collection<AppointmentDoc>('appointments');
  const withCurrentPeople = appointmentPeople(ctx.readStore);
  return async function readableAppointment(auth: AccessClaims, id: string) {
    const stored = await appointments.get(id);
    if (!stored) throw notFound(API_TEXTS.appointmentNotFound);
    const doc = (await withCurrentPeople([stored]))[0]!;
    if (auth.account_type === 'admin') return { doc, institution: null };
    const institution = await ctx.lookups.institutionReadingAppointment(auth.user_id, doc);
    if (!institution) throw notFound(API_TEXTS.appointmentNotFound);
    return { doc, institution };
  };
}

/** Appointments: all for platform admins (without notes), an institution's for its members who may read appointments. */
export function appointmentRoutes(api: ApiRouter, ctx: AdminContext): void {
  const { appointmentPage } = appointmentPages(ctx.readStore);
  const withCurrentPeople = appointmentPeople(ctx.readStore);
  const readableAppointment = appointmentReader(ctx);

  api.implement('listAdminAppointments', {
    policy: policies.anyUser,
    handler: async ({ auth, query, req }) => {
      const scope = await ctx.scopeOf(auth);
      const page = await appointmentPage(scope, query);
      const { total, institutionOf } = page;
      const docs = await withCurrentPeople(page.docs);
      const subjects = new Map<string | null, Subjects>();
      // A search in the notes read every matching appointment's notes, and its total tells how many matched even when the
      // page shows none of them (a patient_id and a word, past the last row): each one searched is on the record too.
      const searched = 'searched' in page && page.searched ? page.searched : [];
      const read = [...docs, ...searched].map((doc) => ({ doc, institution: institutionOf(doc._id) }));
      // So does one patient's list (patient_id): its total tells how many appointments they have here even on a page
      // past the last row. A patient's appointments are few: read whole, each one counted is on the record.
      if (query.filter.patient_id && searched.length === 0 && total > docs.length) {
        const whole = await appointmentPage(scope, { ...query, start: 0, end: total - 1 });
        read.push(...whole.docs.map((doc) => ({ doc, institution: whole.institutionOf(doc._id) })));
      }
      for (const { doc, institution } of read) {
        let s = subjects.get(institution);
        if (!s) subjects.set(institution, (s = new Subjects()));
        s.add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id);
      }
      for (const [institutionId, s] of subjects) {
        const why = auditPurpose(scope, institutionId);
        await ctx.audit.record(auth, req, { ...why, purpose: scope.platform ? why.purpose : 'institution_audit', resource: 'institution_appointments', route: 'GET /api/v1/admin/appointments', subjects: s });
      }
      return {
        body: docs.map((d) => appointmentRecord(d, DEFAULT_TIMEZONE, !scope.platform, institutionOf(d._id))),
        headers: contentRange('appointments', query.start, docs.length, total),
      };
    },
  });

  api.implement('getAdminAppointment', {
    policy: policies.anyUser,
    handler: async ({ auth, params, req }) => {
      const { doc, institution } = await readableAppointment(auth, params.id);
      await ctx.audit.record(auth, req, {
        purpose: institution ? 'institution_audit' : 'platform_administration',
        resource: 'institution_appointments',
        route: 'GET /api/v1/admin/appointments/:id',
        institution,
        subjects: new Subjects().add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id),
      });
      return { body: appointmentRecord(doc, DEFAULT_TIMEZONE, institution !== null, institution?.id ?? null) };
    },
  });
}
