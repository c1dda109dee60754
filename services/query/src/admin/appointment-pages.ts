import { ADMIN_TEXTS, INSTITUTION_TEXTS, NOTES_SEARCH_MAX_DAYS, instantRange, notFound, type ADMIN_APPOINTMENT_SORT, type adminAppointmentFilter, type z } from '@telemed/contracts';
import { HttpError, RequestValidationError, type Filter, type ReadStore } from '@telemed/platform';
import {
  INSTITUTION_APPOINTMENTS,
  INSTITUTION_READER_SETS,
  institutionAppointmentId,
  readingInstitution,
  type AppointmentDoc,
  type InstitutionAppointmentDoc,
  type ReaderSetsDoc,
} from '../projections';
import { COUNTED, type ListQuery } from './ra';
import { readable, refuseIfNone, type Scope } from './scope';

/** The filter's bounds on starts as a range over the stored starts (compared as times, whatever the request's precision). */
const startRange = (f: z.output<typeof adminAppointmentFilter>) =>
  f.start_gte || f.start_lte || f.start_gt || f.start_lt ? instantRange({ gte: f.start_gte, lte: f.start_lte, gt: f.start_gt, lt: f.start_lt }) : null;

type AppointmentQuery = ListQuery<z.output<typeof adminAppointmentFilter>, (typeof ADMIN_APPOINTMENT_SORT)[number]>;

/** The institution's entries the filter asks for (its own index range when ordered by id). */
function institutionFilter(institutionId: string, query: AppointmentQuery): Filter {
  const f = query.filter;
  const starts = startRange(f);
  // By id alone: the institution's range of ids (all begin with its id) is the whole filter, read in the primary key.
  const idRangeOnly = query.sort.field === 'id' && !f.id && !f.status && !f.doctor_id && !f.patient_id && !starts;
  const filter: Filter = idRangeOnly ? {} : { institution_id: institutionId };
  if (f.status) filter.status = f.status;
  if (f.doctor_id) filter.doctor_id = f.doctor_id;
  if (f.patient_id) filter.patient_id = f.patient_id;
  if (f.id) filter._id = { $in: f.id.map((id) => institutionAppointmentId(institutionId, id)) };
  // By id: the institution's range of ids (all begin with its id), not every institution's entries in id order.
  else if (query.sort.field === 'id') filter._id = { $gt: institutionAppointmentId(institutionId, ''), $lt: institutionAppointmentId(institutionId, '\uffff') };
  if (starts) filter.start = starts;
  return filter;
}

/** The pages of appointments the console's list reads, for platform admins and institutions' members. */
export function appointmentPages(readStore: ReadStore) {
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const readerSets = readStore.collection<ReaderSetsDoc>(INSTITUTION_READER_SETS);

  /**
   * The appointments this caller may read: platform admins all, an institution's members those with its doctors
   * requested while they were members (as `GET /institutions/:id/appointments`), each membership interval one indexed find.
   */
  async function appointmentPage(scope: Scope, query: AppointmentQuery) {
    const f = query.filter;
    const base: Filter = {};
    if (f.status) base.status = f.status;
    if (f.patient_id) base.patient_id = f.patient_id;
    if (f.id) base._id = { $in: f.id };
    const starts = startRange(f);
    if (starts) base.start = starts;
    const order = query.sort.order;
    const sort: Record<string, 1 | -1> =
      query.sort.field === 'status' ? { status: order, start: order, _id: order } : query.sort.field === 'id' ? { _id: order } : { start: order, _id: order };
    const needle = f.q?.toLowerCase();
    // Searching notes reads every appointment the other filters leave (of the caller's institutions; no index on free
    // text): only within a window of starts (NOTES_SEARCH_MAX_DAYS), never the whole history.
    const matchesNotes = needle ? (d: AppointmentDoc) => d.notes.toLowerCase().includes(needle) : null;
    if (scope.platform) {
      // Notes are the patient's health data: not an operator's to read, nor to search.
      if (f.q) throw new HttpError(403, ADMIN_TEXTS.notesNotReadable);
      const filter: Filter = { ...base };
      if (f.doctor_id) filter.doctor_id = f.doctor_id;
      if (f.institution_id) return institutionPage(f.institution_id, query, matchesNotes);
      // Orders an index serves with these filters: every index on one person's appointments begins with their id, then
      // the start (none orders them by status), and only the whole list is in id order.
      const byPerson = Boolean(f.doctor_id || f.patient_id);
      if ((query.sort.field === 'status' && byPerson && !f.status) || (query.sort.field === 'id' && (byPerson || f.status || starts))) {
        throw new RequestValidationError([{ loc: ['query', 'sort'], msg: ADMIN_TEXTS.sortNotOffered, type: 'value_error' }]);
      }
      const [docs, total] = await Promise.all([appointments.find(filter, { sort, skip: query.start, limit: query.end - query.start + 1 }), appointments.count(filter, COUNTED)]);
      return { docs, total, institutionOf: () => null as string | null };
    }
    const allowed = readable(scope, 'read_appointments')!;
    refuseIfNone(allowed);
    if (f.q) {
      const from = f.start_gte ?? f.start_gt;
      const to = f.start_lte ?? f.start_lt;
      const span = from && to ? Date.parse(to) - Date.parse(from) : Infinity;
      if (!(span <= NOTES_SEARCH_MAX_DAYS * 86_400_000)) {
        throw new RequestValidationError([{ loc: ['query', 'filter', 'q'], msg: ADMIN_TEXTS.notesSearchWindow, type: 'value_error' }]);
      }
    }
    const institutionIds = f.institution_id ? [...allowed].filter((id) => id === f.institution_id) : [...allowed];
    if (f.institution_id && institutionIds.length === 0) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
    if (institutionIds.length === 1) return institutionPage(institutionIds[0]!, query, matchesNotes);
    return institutionsPage(institutionIds, query, matchesNotes);
  }

  /**
   * Several institutions' page (a member of more than one): each appointment once, under the first of the caller's
   * institutions that reads it. Each institution names the sets of institutions its entries are read by (its own id
   * alone, unless a doctor of it was another's doctor at the same time); for each set whose first of the caller's
   * institutions it is, one indexed find of the first `end + 1` entries in the order asked and a count. These lists
   * hold each appointment once, so their merge's first `end + 1` hold the page, and the counts add up to the total.
   * What it reads grows with the page's depth and the sets, not with the doctors' membership history.
   */
  async function institutionsPage(institutionIds: string[], query: AppointmentQuery, matchesNotes: ((d: AppointmentDoc) => boolean) | null) {
    const callers = new Set(institutionIds);
    const lists: Array<{ institutionId: string; readersKey: string }> = [];
    for (const institutionId of institutionIds) {
      for (const key of (await readerSets.get(institutionId))?.keys ?? []) {
        if (readingInstitution(key, callers) === institutionId) lists.push({ institutionId, readersKey: key });
      }
    }
    const order = query.sort.order;
    const field = query.sort.field === 'id' ? 'appointment_id' : query.sort.field;
    const sort = query.sort.field === 'id' ? { _id: order } : { [query.sort.field]: order, _id: order };
    const wanted = query.end + 1;
    const institutionById = new Map<string, string>();
    let entries: InstitutionAppointmentDoc[] = [];
    let total = 0;
    for (const list of lists) {
      const filter = { ...institutionFilter(list.institutionId, query), readers_key: list.readersKey };
      // A notes search reads its window's entries (no index on free text); the page's filter is applied below.
      const [found, count] = await Promise.all([institutionAppointments.find(filter, matchesNotes ? { sort } : { sort, limit: wanted }), matchesNotes ? 0 : institutionAppointments.count(filter, COUNTED)]);
      total += count;
      for (const entry of found) institutionById.set(entry.appointment_id, list.institutionId);
      entries.push(...found);
    }
    // Within one list an entry's _id orders as its appointment's id; across lists the appointment's id breaks ties.
    const compare = (a: InstitutionAppointmentDoc, b: InstitutionAppointmentDoc) => {
      const x = a[field as keyof InstitutionAppointmentDoc];
      const y = b[field as keyof InstitutionAppointmentDoc];
      const byValue = x < y ? -1 : x > y ? 1 : a.appointment_id < b.appointment_id ? -1 : a.appointment_id > b.appointment_id ? 1 : 0;
      return byValue * order;
    };
    entries.sort(compare);
    const appointmentsOf = async (chosen: InstitutionAppointmentDoc[]) => {
      const found = await appointments.find({ _id: { $in: chosen.map((e) => e.appointment_id) } });
      const byId = new Map(found.map((d) => [d._id, d]));
      return chosen.map((e) => byId.get(e.appointment_id)).filter((d): d is AppointmentDoc => d !== undefined);
    };
    const institutionOf = (id: string) => institutionById.get(id) ?? null;
    if (matchesNotes) {
      const matching = (await appointmentsOf(entries)).filter(matchesNotes);
      return { docs: matching.slice(query.start, query.end + 1), total: matching.length, institutionOf, searched: matching };
    }
    entries = entries.slice(query.start, query.end + 1);
    return { docs: await appointmentsOf(entries), total, institutionOf };
  }

  /**
   * One institution's page: one indexed find of the page's entries (institution_appointments, which holds an
   * appointment for each institution that had its doctor as a member when it was requested) and a count in the index;
   * only the page's appointments are read. A notes search reads its window's appointments (no index on free text).
   */
  async function institutionPage(institutionId: string, query: AppointmentQuery, matchesNotes: ((d: AppointmentDoc) => boolean) | null) {
    const filter = institutionFilter(institutionId, query);
    const order = query.sort.order;
    // Within one institution an entry's _id orders as its appointment's id (the same prefix before it).
    const sort = query.sort.field === 'id' ? { _id: order } : { [query.sort.field]: order, _id: order };
    const appointmentsOf = async (entries: InstitutionAppointmentDoc[]) => {
      const found = await appointments.find({ _id: { $in: entries.map((e) => e.appointment_id) } });
      const byId = new Map(found.map((d) => [d._id, d]));
      return entries.map((e) => byId.get(e.appointment_id)).filter((d): d is AppointmentDoc => d !== undefined);
    };
    const institutionOf = () => institutionId;
    if (matchesNotes) {
      const matching = (await appointmentsOf(await institutionAppointments.find(filter, { sort }))).filter(matchesNotes);
      return { docs: matching.slice(query.start, query.end + 1), total: matching.length, institutionOf, searched: matching };
    }
    const [entries, total] = await Promise.all([
      institutionAppointments.find(filter, { sort, skip: query.start, limit: query.end - query.start + 1 }),
      institutionAppointments.count(filter, COUNTED),
    ]);
    return { docs: await appointmentsOf(entries), total, institutionOf };
  }

  return { appointmentPage };
}
