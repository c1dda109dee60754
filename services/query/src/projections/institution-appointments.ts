import { DOCTOR_ROLES, storedInstant, type EventType } from '@telemed/contracts';
import type { ReadCollection } from '@telemed/platform';
import { APPOINTMENT_EVENTS } from './appointments';
import { defineProjection } from './projection';

/** The collection of InstitutionAppointmentDoc: one per institution and appointment it reads. */
export const INSTITUTION_APPOINTMENTS = 'institution_appointments';
/** A doctor's doctor-role memberships now, by staff entry (what a request is matched with), under the doctor's id. */
const DOCTOR_MEMBERSHIPS = 'institution_appointment_doctors';
/** The institutions that read an appointment, under the appointment's id (what a status change updates). */
const APPOINTMENT_READERS = 'institution_appointment_readers';

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
 * An appointment an institution reads: its doctor was the institution's doctor when it was requested (the rule of
 * memberAt in institution-routes.ts, decided here once, as the request is applied: a later change of membership opens
 * no earlier appointment and closes none made meanwhile). Ids, start and status only, never a person's details:
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
  status: 'requested' | 'confirmed' | 'rejected' | 'cancelled' | 'completed';
}

export const institutionAppointmentId = (institutionId: string, appointmentId: string) => `${institutionId}~${appointmentId}`;

const STATUS_AFTER = {
  AppointmentApproved: 'confirmed',
  AppointmentRejected: 'rejected',
  AppointmentCancelled: 'cancelled',
  AppointmentExpired: 'cancelled',
  AppointmentCompleted: 'completed',
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

/**
 * An institution's appointments by institution (the console's lists for its members): a page is one indexed find of
 * what it shows and a count in the index, instead of merging the first `end + 1` appointments of each doctor's
 * membership (up to 10 000 each for the console's last page).
 */
export const institutionAppointmentsProjection = defineProjection({
  name: 'institution_appointments',
  // 2: memberships and readers looked up by id (a find inside a rebuild's batch scans the batch's pending writes).
  version: 2,
  collections: [INSTITUTION_APPOINTMENTS, DOCTOR_MEMBERSHIPS, APPOINTMENT_READERS],
  indexes: [
    // The console's default order (by start, ties by id: a deep page skips index entries, no document), its filters
    // on doctor and status answered and counted in the index.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'start', '_id', 'doctor_id', 'status'] },
    // Ordered by status (a page of one status, or the list by status), ties by id.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'status', '_id'] },
  ],
  handles: [
    'InstitutionStaffAdded',
    'InstitutionStaffRemoved',
    'InstitutionStaffRoleChanged',
    ...APPOINTMENT_EVENTS,
  ],
  apply: async (event, store) => {
    const memberships = store.collection<DoctorMembershipsDoc>(DOCTOR_MEMBERSHIPS);
    const readers = store.collection<AppointmentReadersDoc>(APPOINTMENT_READERS);
    const rows = store.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
    // Every look-up is by id: projections apply inside a batch, where a find also scans the batch's pending writes.
    switch (event.type) {
      case 'InstitutionStaffAdded': {
        const { staff_id, institution_id, user_id, role } = event.data;
        return DOCTOR_ROLES.includes(role) ? setMembership(memberships, user_id, staff_id, institution_id) : undefined;
      }
      case 'InstitutionStaffRemoved':
        return setMembership(memberships, event.data.user_id, event.data.staff_id, null);
      case 'InstitutionStaffRoleChanged': {
        const { staff_id, institution_id, user_id, role } = event.data;
        return setMembership(memberships, user_id, staff_id, DOCTOR_ROLES.includes(role) ? institution_id : null);
      }
      case 'AppointmentRequested': {
        const { appointment_id, doctor_id, patient_id } = event.data;
        const institutions = [...new Set(Object.values((await memberships.get(doctor_id))?.staff ?? {}))];
        if (institutions.length === 0) return;
        const start = storedInstant(event.data.start);
        await readers.put({ _id: appointment_id, institutions });
        for (const institution_id of institutions) {
          await rows.put({ _id: institutionAppointmentId(institution_id, appointment_id), institution_id, appointment_id, doctor_id, patient_id, start, status: 'requested' });
        }
        return;
      }
      case 'AppointmentApproved':
      case 'AppointmentRejected':
      case 'AppointmentCancelled':
      case 'AppointmentExpired':
      case 'AppointmentCompleted': {
        const status = STATUS_AFTER[event.type];
        const read = await readers.get(event.data.appointment_id);
        for (const institution_id of read?.institutions ?? []) await rows.patch(institutionAppointmentId(institution_id, event.data.appointment_id), { status });
        return;
      }
    }
  }
});
