import { DOCTOR_ROLES, storedInstant, type EventType } from '@telemed/contracts';
import { defineProjection } from './projection';

/** The collection of InstitutionAppointmentDoc: one per institution and appointment it reads. */
export const INSTITUTION_APPOINTMENTS = 'institution_appointments';
/** Who is a doctor of which institution now (one per staff entry): what a request is matched with. */
const DOCTOR_MEMBERSHIPS = 'institution_appointment_doctors';

interface DoctorMembershipDoc {
  _id: string;
  institution_id: string;
  doctor_id: string;
  is_doctor: boolean;
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

/**
 * An institution's appointments by institution (the console's lists for its members): a page is one indexed find of
 * what it shows and a count in the index, instead of merging the first `end + 1` appointments of each doctor's
 * membership (up to 10 000 each for the console's last page).
 */
export const institutionAppointmentsProjection = defineProjection({
  name: 'institution_appointments',
  version: 1,
  collections: [INSTITUTION_APPOINTMENTS, DOCTOR_MEMBERSHIPS],
  indexes: [
    // The console's default order (by start, ties by id: a deep page skips index entries, no document), its filters
    // on doctor and status answered and counted in the index.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'start', '_id', 'doctor_id', 'status'] },
    // Ordered by status (a page of one status, or the list by status), ties by id.
    { collection: INSTITUTION_APPOINTMENTS, fields: ['institution_id', 'status', '_id'] },
    // A status change finds the appointment's entries.
    { collection: INSTITUTION_APPOINTMENTS, field: 'appointment_id' },
    { collection: DOCTOR_MEMBERSHIPS, field: 'doctor_id' },
  ],
  handles: [
    'InstitutionStaffAdded',
    'InstitutionStaffRemoved',
    'InstitutionStaffRoleChanged',
    'AppointmentRequested',
    'AppointmentApproved',
    'AppointmentRejected',
    'AppointmentCancelled',
    'AppointmentExpired',
    'AppointmentCompleted',
  ],
  apply: async (event, store) => {
    const memberships = store.collection<DoctorMembershipDoc>(DOCTOR_MEMBERSHIPS);
    const rows = store.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
    switch (event.type) {
      case 'InstitutionStaffAdded': {
        const { staff_id, institution_id, user_id, role } = event.data;
        return memberships.put({ _id: staff_id, institution_id, doctor_id: user_id, is_doctor: DOCTOR_ROLES.includes(role) });
      }
      case 'InstitutionStaffRemoved':
        return memberships.delete(event.data.staff_id);
      case 'InstitutionStaffRoleChanged':
        return memberships.patch(event.data.staff_id, { is_doctor: DOCTOR_ROLES.includes(event.data.role) });
      case 'AppointmentRequested': {
        const { appointment_id, doctor_id, patient_id } = event.data;
        const start = storedInstant(event.data.start);
        const institutions = new Set((await memberships.find({ doctor_id, is_doctor: true })).map((m) => m.institution_id));
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
        for (const row of await rows.find({ appointment_id: event.data.appointment_id })) await rows.patch(row._id, { status });
        return;
      }
    }
  },
});
