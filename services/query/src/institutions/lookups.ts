import { membershipAllows, type InstitutionMembership, type Permission } from '@telemed/contracts';
import type { InstitutionResolver, ReadStore } from '@telemed/platform';
import { INSTITUTION_APPOINTMENTS, institutionAppointmentId, readingInstitution, type AppointmentDoc, type InstitutionAppointmentDoc, type InstitutionDoc, type StaffDoc } from '../projections';

/** Institution lookups shared by the routes and the access policies. */
export function institutionLookups(readStore: ReadStore) {
  const institutions = readStore.collection<InstitutionDoc>('institutions');
  const staff = readStore.collection<StaffDoc>('institution_staff');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const membershipIn = async (institution: InstitutionDoc, userId: string): Promise<InstitutionMembership | null> => {
    const entry = (await staff.find({ institution_id: institution._id, user_id: userId, is_active: true }))[0];
    if (!entry) return null;
    // A deactivated doctor is still a member, without rights in the institution (as the write side's membershipOf).
    if (entry.deactivated) return { role: entry.role, is_institution_admin: false, permissions: [] };
    return {
      role: entry.role,
      is_institution_admin: entry.is_institution_admin,
      permissions: (institution.role_permissions[entry.role] ?? []) as Permission[],
    };
  };
  const resolve: InstitutionResolver = async (institutionId, userId) => {
    const institution = await institutions.get(institutionId);
    if (!institution || !institution.is_active) return null;
    return { membership: await membershipIn(institution, userId) };
  };
  /** Active institutions where the user is on the staff, with their membership. */
  const membershipsOf = async (userId: string) => {
    const entries = await staff.find({ user_id: userId, is_active: true }, { sort: { added_position: 1 } });
    const result: Array<{ institution: InstitutionDoc; membership: InstitutionMembership }> = [];
    for (const entry of entries) {
      const institution = await institutions.get(entry.institution_id);
      const membership = institution?.is_active ? await membershipIn(institution, userId) : null;
      if (institution && membership) result.push({ institution, membership });
    }
    return result;
  };
  /** The caller's institutions whose appointments they may read (the console's `read_appointments`): id → their role there. */
  const appointmentReaders = async (userId: string) =>
    new Map((await membershipsOf(userId)).filter((m) => membershipAllows(m.membership, 'read_appointments')).map((m) => [m.institution._id, m.membership.role]));
  /**
   * Through which institution (and in which role) may this user read this appointment? The institution_appointments
   * read model decided, when it was requested, which institutions read it (those that had its doctor as a doctor then:
   * joining opens no earlier history, leaving or a change of role keeps what was made meanwhile but nothing later).
   * Of those the caller may read appointments of, the one the console lists it under (readingInstitution). One get
   * per institution of the caller, whatever the doctors' membership history.
   */
  const institutionReadingAppointment = async (userId: string, appointment: Pick<AppointmentDoc, '_id'>): Promise<{ id: string; role: string } | null> => {
    const callers = await appointmentReaders(userId);
    if (callers.size === 0) return null;
    const entries = await Promise.all([...callers.keys()].map((id) => institutionAppointments.get(institutionAppointmentId(id, appointment._id))));
    // Any entry of the appointment carries every institution that reads it.
    const entry = entries.find((e) => e !== null);
    const id = entry ? readingInstitution(entry.readers_key, new Set(callers.keys())) : null;
    return id === null ? null : { id, role: callers.get(id)! };
  };
  /**
   * Through which institution may this user read this patient's records? One that reads (as its console lists) a
   * confirmed or completed appointment of the patient with a doctor who is still its member (in any role): once the
   * doctor has left, the institution keeps the audit of their appointments, not a window on their patients' records
   * from then on. The caller's institutions in id order (the order readingInstitution names them in). Each asks the
   * read model for the patient's doctors there one at a time (one indexed find of one entry per doctor, never each
   * appointment of a patient who saw the clinic often), and whether that doctor is still a member.
   */
  const institutionReadingPatient = async (userId: string, patientId: string): Promise<{ id: string; role: string } | null> => {
    const callers = await appointmentReaders(userId);
    for (const id of [...callers.keys()].sort()) {
      let after: string | null = null;
      for (;;) {
        const filter: Record<string, unknown> = { institution_id: id, patient_id: patientId, status: { $in: ['confirmed', 'completed'] } };
        if (after !== null) filter.doctor_id = { $gt: after };
        const [next] = await institutionAppointments.find(filter, { sort: { doctor_id: 1 }, limit: 1 });
        if (!next) break;
        if ((await staff.find({ institution_id: id, user_id: next.doctor_id, is_active: true })).length > 0) return { id, role: callers.get(id)! };
        after = next.doctor_id;
      }
    }
    return null;
  };
  return { institutions, staff, resolve, membershipsOf, institutionReadingAppointment, institutionReadingPatient };
}
