import { DOCTOR_ROLES, storedInstant, type AppointmentStatus, type EventType, type RecordedEvent } from '@telemed/contracts';
import { SETTLED, withDocument, type CollectionSource, type ReadCollection } from '@telemed/platform';
import { APPOINTMENT_EVENTS } from '../appointments/projection';
import { defineProjection } from '../projections/projection';

/** The collection of InstitutionAppointmentDoc: one per institution and appointment it reads. */
export const INSTITUTION_APPOINTMENTS = 'institution_appointments';
/** A doctor's doctor-role memberships now, by staff entry (what a request is matched with), under the doctor's id. */
const DOCTOR_MEMBERSHIPS = 'institution_appointment_doctors';
/** The institutions that read an appointment, under the appointment's id (what a status change updates). */
const APPOINTMENT_READERS = 'institution_appointment_readers';
/** The collection of ReaderSetsDoc: each institution's readers_key values, under the institution's id. */
export const INSTITUTION_READER_SETS = 'institution_reader_sets';

interface DoctorMembershipsDoc {
  _id: string;
  /** staff_id → institution_id, for entries with a doctor role. */
  staff: Record<string, string>;
}

interface AppointmentReadersDoc {
  _id: string;
  institutions: string[];
}

/**
 * The sets of institutions that read an appointment together (readers_key values) that one institution's entries
 * have: one, its own id, unless a doctor of it was a doctor of another institution at the same time. A console user of
 * several institutions lists each appointment once by asking each institution for the sets it is the first of.
 */
export interface ReaderSetsDoc {
  _id: string;
  keys: string[];
}

/** An appointment's reading institutions as one value: their ids in order, separated by spaces. */
export const readersKey = (institutions: readonly string[]) => [...institutions].sort().join(' ');

/**
 * Under which of a caller's institutions an appointment read by `key` (readers_key) is listed and read: the first of
 * its institutions (in the key's order) the caller may read appointments of, or null. The console's lists, a single
 * appointment's read and its access audit all name this one.
 */
export const readingInstitution = (key: string, callers: ReadonlySet<string>): string | null => key.split(' ').find((id) => callers.has(id)) ?? null;

/**
 * An appointment an institution reads: its doctor was the institution's doctor when it was requested (decided here
 * once, as the request is applied: a later change of membership or role opens no earlier appointment and closes none
 * made meanwhile). This is the one answer to "may this institution's member read this appointment": the console's
 * lists, a single appointment's read and its history (institutionReadingAppointment) and the records' access ask it. Ids, start and status only, never a person's details:
 * readers take those from the appointment itself. `_id` is `<institution_id>~<appointment_id>`, so within one
 * institution its order is the appointments' order.
 */
export interface InstitutionAppointmentDoc {
  _id: string;
  institution_id: string;
  appointment_id: string;
  doctor_id: string;
  patient_id: string;
  start: string;
  status: AppointmentStatus;
  /** Every institution that reads the appointment (readersKey): its entries in each carry the same value. */
  readers_key: string;
}

export const institutionAppointmentId = (institutionId: string, appointmentId: string) => `${institutionId}~${appointmentId}`;

const STATUS_AFTER = {
  AppointmentApproved: 'confirmed',
  AppointmentRejected: 'rejected',
  AppointmentCancelled: 'cancelled',
  AppointmentExpired: 'cancelled',
  AppointmentCompleted: 'completed',
  AppointmentNoShow: 'no_show',
} as const satisfies Partial<Record<EventType, InstitutionAppointmentDoc['status']>>;

/** Records (or, with null, forgets) one of the doctor's doctor-role staff entries. */
async function setMembership(memberships: ReadCollection<DoctorMembershipsDoc>, doctorId: string, staffId: string, institutionId: string | null): Promise<void> {
  const doc = (await memberships.get(doctorId)) ?? { _id: doctorId, staff: {} };
  const staff = { ...doc.staff };
  if (institutionId === null) delete staff[staffId];
  else staff[staffId] = institutionId;
  if (Object.keys(staff).length === 0) await memberships.delete(doctorId);
  else await memberships.put({ _id: doctorId, staff });
}

/** A request of a doctor who is an institution's doctor now (`membership`; null: none): an entry for each such institution. */
function requested(membership: DoctorMembershipsDoc | null, event: Extract<RecordedEvent, { type: 'AppointmentRequested' }>, store: CollectionSource): Promise<void> {
  return membership === null ? SETTLED : entriesOf(membership, event, store);
}

async function entriesOf(membership: DoctorMembershipsDoc, event: Extract<RecordedEvent, { type: 'AppointmentRequested' }>, store: CollectionSource): Promise<void> {
  const { appointment_id, doctor_id, patient_id } = event.data;
  const institutions = [...new Set(Object.values(membership.staff))];
  if (institutions.length === 0) return;
  const start = storedInstant(event.data.start);
  const rows = store.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const readerSets = store.collection<ReaderSetsDoc>(INSTITUTION_READER_SETS);
  await store.collection<AppointmentReadersDoc>(APPOINTMENT_READERS).put({ _id: appointment_id, institutions });
  const readers_key = institutions.length === 1 ? institutions[0]! : readersKey(institutions);
  for (const institution_id of institutions) {
    await rows.put({ _id: institutionAppointmentId(institution_id, appointment_id), institution_id, appointment_id, doctor_id, patient_id, start, status: 'requested', readers_key });
    const sets = await readerSets.get(institution_id);
    if (!sets?.keys.includes(readers_key)) await readerSets.put({ _id: institution_id, keys: [...(sets?.keys ?? []), readers_key] });
  }
}

type StatusEvent = Extract<RecordedEvent, { type: keyof typeof STATUS_AFTER }>;

/** The new status in the entries of the institutions that read the appointment (`read`; null: none). */
function statusChanged(read: AppointmentReadersDoc | null, event: StatusEvent, store: CollectionSource): Promise<void> {
  return read === null ? SETTLED : entriesChanged(read, event, store);
}

async function entriesChanged(read: AppointmentReadersDoc, event: StatusEvent, store: CollectionSource): Promise<void> {
  const status = STATUS_AFTER[event.type];
  const rows = store.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  for (const institution_id of read.institutions) await rows.patch(institutionAppointmentId(institution_id, event.data.appointment_id), { status });
}

/** A moved appointment's new start (and status, when it waits for the doctor again) in its institutions' entries. */
function moved(read: AppointmentReadersDoc | null, event: Extract<RecordedEvent, { type: 'AppointmentRescheduled' }>, store: CollectionSource): Promise<void> {
  if (read === null) return SETTLED;
  const rows = store.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const fields = { start: event.data.start, ...(event.data.needs_approval ? { status: 'requested' as const } : {}) };
  return Promise.all(read.institutions.map((institution_id) => rows.patch(institutionAppointmentId(institution_id, event.data.appointment_id), fields))).then(() => undefined);
}

/**
 * An institution's appointments by institution (the console's lists for its members): a page is one indexed find of
 * what it shows and a count in the index, instead of merging the first `end + 1` appointments of each doctor's
 * membership (up to 10 000 each for the console's last page).
 */
export const institutionAppointmentsProjection = defineProjection({
  name: 'institution_appointments',
  // 2: memberships and readers looked up by id (a find inside a rebuild's batch scans the batch's pending writes).
  // 3: each entry's readers_key and each institution's reader sets, for the lists of several institutions.
  version: 3,
  collections: [INSTITUTION_APPOINTMENTS, DOCTOR_MEMBERSHIPS, APPOINTMENT_READERS, INSTITUTION_READER_SETS],
  indexes: [
    // The console's default order (by start, ties by id: a deep page skips index entries, no document), its filters
    // on doctor and status answered and counted in the index.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'start', '_id', 'doctor_id', 'status'] },
    // Ordered by status (a page of one status, or the list by status), ties by id.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'status', '_id'] },
    // The same two orders within one set of reading institutions (a list of several institutions: one find per set).
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'readers_key', 'start', '_id', 'doctor_id', 'status'] },
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'readers_key', 'status', '_id'] },
    // A patient's doctors in an institution, one at a time, with the status (may its staff read the patient's records?).
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'patient_id', 'doctor_id', 'status'] },
  ],
  handles: [
    'InstitutionStaffAdded',
    'InstitutionStaffRemoved',
    'InstitutionStaffRoleChanged',
    ...APPOINTMENT_EVENTS,
  ],
  ignores: [
    'accounts', 'sessions', 'privacy', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'InstitutionSlugClaimed', 'InstitutionCreated', 'InstitutionDisbanded', 'InstitutionUpdated', 'InstitutionStaffInvited',
    'InstitutionInvitationAccepted', 'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked', 'InstitutionDoctorDeactivated', 'InstitutionDoctorActivated', 'InstitutionBookingRulesSet',
    'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentHoldReleased',
  ],
  // Not async: a look-up is withDocument's (no promise when the store answers at once), and what follows a found
  // document is a small async function of its own (an async function saves its whole frame at each await, and this
  // one applies to every appointment event of a rebuild). Most appointments are of doctors of no institution.
  apply: (event, store) => {
    // Every look-up is by id: projections apply inside a batch, where a find also scans the batch's pending writes.
    switch (event.type) {
      case 'InstitutionStaffAdded': {
        const { staff_id, institution_id, user_id, role } = event.data;
        return DOCTOR_ROLES.includes(role) ? setMembership(store.collection<DoctorMembershipsDoc>(DOCTOR_MEMBERSHIPS), user_id, staff_id, institution_id) : SETTLED;
      }
      case 'InstitutionStaffRemoved':
        return setMembership(store.collection<DoctorMembershipsDoc>(DOCTOR_MEMBERSHIPS), event.data.user_id, event.data.staff_id, null);
      case 'InstitutionStaffRoleChanged': {
        const { staff_id, institution_id, user_id, role } = event.data;
        return setMembership(store.collection<DoctorMembershipsDoc>(DOCTOR_MEMBERSHIPS), user_id, staff_id, DOCTOR_ROLES.includes(role) ? institution_id : null);
      }
      case 'AppointmentRequested':
        return withDocument(store.collection<DoctorMembershipsDoc>(DOCTOR_MEMBERSHIPS), event.data.doctor_id, requested, event, store);
      case 'AppointmentApproved':
      case 'AppointmentRejected':
      case 'AppointmentCancelled':
      case 'AppointmentExpired':
      case 'AppointmentCompleted':
      case 'AppointmentNoShow':
        return withDocument(store.collection<AppointmentReadersDoc>(APPOINTMENT_READERS), event.data.appointment_id, statusChanged, event, store);
      case 'AppointmentRescheduled':
        return withDocument(store.collection<AppointmentReadersDoc>(APPOINTMENT_READERS), event.data.appointment_id, moved, event, store);
    }
    return SETTLED;
  },
});
