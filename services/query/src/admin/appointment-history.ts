import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { RawBody, Subjects, policies, type AccessAudit, type AccessClaims, type ApiRouter } from '@telemed/platform';
import type { HistoryDoc, UserDoc } from '../projections';
import { appointmentReader } from './appointments';
import { describe, historyCsv, type TimelineEntry } from './history';
import type { AdminContext } from './scope';

const csvOf = (id: string, events: TimelineEntry[]) => ({
  body: new RawBody(Buffer.from(historyCsv(events), 'utf8'), 'text/csv; charset=utf-8'),
  headers: { 'Content-Disposition': `attachment; filename="appointment-${id.replace(/[^A-Za-z0-9_-]/g, '')}-history.csv"` },
});

/** An appointment's timeline, as JSON or CSV: every read of it is on the record. */
export function appointmentHistoryRoutes(api: ApiRouter, ctx: AdminContext): void {
  const history = ctx.readStore.collection<HistoryDoc>('appointment_history');
  const users = ctx.readStore.collection<UserDoc>('users');
  const readableAppointment = appointmentReader(ctx);

  async function timeline(auth: AccessClaims, id: string, req: Parameters<AccessAudit['record']>[1], route: string, zoneName: string | undefined) {
    const { doc, institution } = await readableAppointment(auth, id);
    const zone = zoneName && DateTimeZone.valid(zoneName) ? zoneName : DEFAULT_TIMEZONE;
    // Every read of a history is on the record, before anything is answered.
    const recorded = ctx.audit.record(auth, req, {
      purpose: institution ? 'institution_audit' : 'platform_administration',
      resource: 'appointment_history',
      route,
      institution,
      subjects: new Subjects().add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id),
    });
    const [entries] = await Promise.all([history.find({ appointment_id: id }, { sort: { position: 1 } }), recorded]);
    const names = new Map<string, string | null>();
    // The actors, and the participants the events name (who joined or left the call).
    const people = entries.flatMap((e) => [e.actor.user_id, ...(typeof e.data.user_id === 'string' ? [e.data.user_id] : [])]);
    for (const id of people) if (!names.has(id)) names.set(id, (await users.get(id))?.name ?? null);
    const events: TimelineEntry[] = entries.map((e) => ({
      id: e.event_id,
      position: e.position,
      event_id: e.event_id,
      type: e.type,
      occurred_at: e.occurred_at,
      actor: { ...e.actor, name: names.get(e.actor.user_id) ?? null },
      correlation_id: e.correlation_id ?? null,
      description: describe(e, names.get(e.actor.user_id) ?? null, {
        zone,
        notesReadable: institution !== null,
        doctorId: doc.doctor_id,
        nameOf: (userId) => names.get(userId) ?? null,
      }),
    }));
    return { appointment_id: id, events };
  }

  api.implement('getAdminAppointmentHistory', {
    policy: policies.anyUser,
    handler: async ({ auth, params, query, req }) => {
      const result = await timeline(auth, params.id, req, 'GET /api/v1/admin/appointments/:id/history', query.timezone_str);
      if (query.format === 'csv') return csvOf(params.id, result.events);
      return { body: result };
    },
  });

  api.implement('getAdminAppointmentHistoryCsv', {
    policy: policies.anyUser,
    handler: async ({ auth, params, query, req }) => {
      const result = await timeline(auth, params.id, req, 'GET /api/v1/admin/appointments/:id/history.csv', query.timezone_str);
      return csvOf(params.id, result.events);
    },
  });
}

/** IANA zone names luxon knows. */
const DateTimeZone = {
  valid(name: string): boolean {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      return true;
    } catch {
      return false;
    }
  },
};
