import { randomUUID } from 'node:crypto';
import {
  APPOINTMENT_DURATION_MINUTES,
  DEFAULT_CONSULTATION_FEE,
  DEFAULT_QUALIFICATION,
  DEFAULT_SPECIALTY,
  streams,
  type AccountType,
  type DoctorProfile,
} from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, readStream, type CommandContext } from '../decider';
import { userDecider } from './user';
import { doctorNumberDecider } from './doctor-numbers';
import { emailDecider, emailDigest, normalizeEmail } from '../identity/email';

export interface NewUser {
  user_id?: string;
  email: string | null;
  name: string;
  account_type: AccountType;
  phone_number?: string | null;
  doctor?: Partial<DoctorProfile>;
}

/** Registers a user; a doctor first gets a doctor number, then account and profile land in one append. */
export async function registerUser(eventStore: EventStore, input: NewUser, context: CommandContext) {
  const user_id = input.user_id ?? randomUUID();
  const email = input.email === null ? null : normalizeEmail(input.email);
  if (email) await claimEmail(eventStore, email, user_id, context);
  let doctor: (DoctorProfile & { doctor_number: number }) | null = null;
  if (input.account_type === 'doctor') {
    const numbered = await handleCommand(eventStore, streams.doctorNumbers(), doctorNumberDecider, {
      type: 'AssignDoctorNumber',
      data: { doctor_id: user_id },
    }, context);
    doctor = {
      doctor_number: numbered.state.last,
      specialty: input.doctor?.specialty ?? DEFAULT_SPECIALTY,
      qualification: input.doctor?.qualification ?? DEFAULT_QUALIFICATION,
      consultation_fee: input.doctor?.consultation_fee ?? DEFAULT_CONSULTATION_FEE,
      appointment_duration_minutes: APPOINTMENT_DURATION_MINUTES,
      registration_number: input.doctor?.registration_number ?? null,
      medical_council: input.doctor?.medical_council ?? null,
    };
  }
  const result = await handleCommand(
    eventStore,
    streams.user(user_id),
    userDecider,
    {
      type: 'RegisterUser',
      data: {
        user_id,
        email,
        name: input.name,
        account_type: input.account_type,
        phone_number: input.phone_number ?? null,
        doctor,
      },
    },
    context,
  );
  return { user_id, position: result.position };
}

export async function loadUser(eventStore: EventStore, userId: string) {
  return (await readStream(eventStore, streams.user(userId), userDecider)).state;
}

/** Reserves the address for this account first, so two accounts never share one. */
async function claimEmail(eventStore: EventStore, email: string, userId: string, context: CommandContext) {
  const stream = streams.email(emailDigest(email));
  const { state } = await readStream(eventStore, stream, emailDecider);
  const previousOwnerExists = state.user_id !== null && (await loadUser(eventStore, state.user_id)).status === 'registered';
  await handleCommand(eventStore, stream, emailDecider, { type: 'ClaimEmail', data: { email, user_id: userId, previous_owner_exists: previousOwnerExists } }, context);
}

/** The account holding an address, read from the write side (no read-model lag). */
export async function findUserIdByEmail(eventStore: EventStore, email: string): Promise<string | null> {
  const { state } = await readStream(eventStore, streams.email(emailDigest(email)), emailDecider);
  if (!state.user_id) return null;
  return (await loadUser(eventStore, state.user_id)).status === 'registered' ? state.user_id : null;
}

/** Whether the account holding an address was erased (its owner cannot sign in to it again). */
export async function emailOwnerErased(eventStore: EventStore, email: string): Promise<boolean> {
  const { state } = await readStream(eventStore, streams.email(emailDigest(email)), emailDecider);
  return state.user_id !== null && (await loadUser(eventStore, state.user_id)).status === 'erased';
}
