import type { ReadStore } from '@telemed/platform';
import { instantRange } from '@telemed/contracts';
import type { AppointmentDoc, InstitutionDoc, StaffDoc, UserDoc } from '../projections';

/**
 * Whether a doctor takes bookings, as the read models show it: their account is active and no active institution
 * they are on the staff of has deactivated them. The lists and pages offer no slot of a doctor who does not; booking
 * itself is refused on the write side (from the streams), so this only keeps the screens honest.
 */
export function bookableDoctors(readStore: ReadStore) {
  const users = readStore.collection<UserDoc>('users');
  const staff = readStore.collection<StaffDoc>('institution_staff');
  const institutions = readStore.collection<InstitutionDoc>('institutions');
  return async (doctorId: string): Promise<boolean> => {
    if ((await users.get(doctorId))?.active === false) return false;
    // The staff index by user_id: a doctor is on a handful of staffs at most.
    for (const member of await staff.find({ user_id: doctorId, is_active: true })) {
      if (member.deactivated === true && (await institutions.get(member.institution_id))?.is_active) return false;
    }
    return true;
  };
}

/** Why a closed appointment counts as one its patient missed (a clinic's no-show policy, issue 35). */
const MISSED = { no_show: ['patient_absent', 'both_absent'], cancelled: ['late_no_show'] } as const;

/**
 * What booking on the write side looks up: the institutions a doctor is on the staff of (by id), and the starts of a
 * patient's missed appointments since a date (the (patient_id, start) index: a window of their own appointments).
 */
export function bookingLookups(readStore: ReadStore) {
  const staff = readStore.collection<StaffDoc>('institution_staff');
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  return {
    institutionsOfMember: async (userId: string) => [...new Set((await staff.find({ user_id: userId, is_active: true })).map((m) => m.institution_id))],
    missedAppointmentsSince: async (patientId: string, since: Date) =>
      (await appointments.find({ patient_id: patientId, start: instantRange({ gte: since }), status: { $in: ['no_show', 'cancelled'] } }, { sort: { start: 1 } }))
        .filter((a) => (a.status === 'no_show' || a.status === 'cancelled') && (MISSED[a.status] as readonly (string | null)[]).includes(a.status_reason))
        .map((a) => a.start),
  };
}
