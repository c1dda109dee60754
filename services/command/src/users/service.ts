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
        email: input.email,
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
