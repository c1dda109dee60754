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
import { LANGUAGE_CODES } from '@telemed/contracts/languages';
import { keyRingOf, privateDigest, type EventStore } from '@telemed/platform';
import { handleCommand, systemContext, type CommandContext } from '../decider';
import { doctorNumberDecider } from './doctor-numbers';
import { foldsPerEventStore } from '../stream-folds';
import { accountStatus } from './account-standing';
import { handleUserCommand } from './load-user';
import { emailDecider, legacyEmailDigest, normalizeEmail } from '../identity/email';

export interface NewUser {
  user_id?: string;
  email: string | null;
  name: string;
  account_type: AccountType;
  phone_number?: string | null;
  doctor?: Partial<DoctorProfile>;
}

/**
 * Each event store's kept fold of the doctor-number sequence: one stream for the whole platform, an event per doctor
 * ever registered; a registration reads only the numbers handed out since the last one (the state is the last number).
 */
const doctorNumbersOf = foldsPerEventStore(doctorNumberDecider, 1);

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
    }, context, () => doctorNumbersOf(eventStore).current(streams.doctorNumbers())); // each attempt (a retry after a conflict too) reads only what is new
    doctor = {
      doctor_number: numbered.state.last,
      specialty: input.doctor?.specialty ?? DEFAULT_SPECIALTY,
      qualification: input.doctor?.qualification ?? DEFAULT_QUALIFICATION,
      consultation_fee: input.doctor?.consultation_fee ?? DEFAULT_CONSULTATION_FEE,
      appointment_duration_minutes: APPOINTMENT_DURATION_MINUTES,
      registration_number: input.doctor?.registration_number ?? null,
      medical_council: input.doctor?.medical_council ?? null,
      city: input.doctor?.city ?? null,
      ...(input.doctor?.languages?.length ? { languages: LANGUAGE_CODES.filter((code) => input.doctor?.languages?.includes(code)) } : {}),
    };
  }
  const result = await handleUserCommand(
    eventStore,
    user_id,
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

export { loadUser } from './load-user';

/**
 * The address's claim stream, named by a keyed digest of it (see privateDigest), and the plain-digest one it had
 * before (null when the store keeps no keys and the two are the same). Claims made before are still read; new ones
 * are written under the keyed name only.
 */
async function claimStreams(eventStore: EventStore, email: string): Promise<{ current: string; legacy: string | null }> {
  const legacy = streams.email(legacyEmailDigest(email));
  const keyed = await privateDigest(eventStore, 'email claim', normalizeEmail(email));
  return keyed === null ? { current: legacy, legacy: null } : { current: streams.email(keyed), legacy };
}

/**
 * Each event store's kept folds of address claims (StreamFolds; a claim's state is an account id and a time): an
 * address's stream gains a claim each time it passes to a new account, and every sign-in by address read them all.
 */
const claimsOf = foldsPerEventStore(emailDecider);

/** Who holds the address: the keyed stream's latest claim, else (nothing claimed since the names were keyed) the old one's. */
async function readClaim(eventStore: EventStore, names: { current: string; legacy: string | null }) {
  const current = await claimsOf(eventStore).current(names.current);
  if (current.revision !== null || names.legacy === null) return current;
  return { state: (await claimsOf(eventStore).current(names.legacy)).state, revision: null };
}

/** Reserves the address for this account first, so two accounts never share one. */
async function claimEmail(eventStore: EventStore, email: string, userId: string, context: CommandContext) {
  const names = await claimStreams(eventStore, email);
  const claim = await readClaim(eventStore, names);
  const { state } = claim;
  const previousOwner = state.user_id === null ? 'unregistered' : (await accountStatus(eventStore, state.user_id)).status;
  // The first attempt decides on the old claim too; a retry after a concurrent claim reads the keyed stream alone (it now has one).
  let attempts = 0;
  const load = async () => (attempts++ === 0 ? claim : claimsOf(eventStore).current(names.current));
  // Metadata of its own: the request's correlation id (and an institution admin as actor) are on the account's events too.
  const own = systemContext(context.now, null);
  const command = { type: 'ClaimEmail', data: { email, user_id: userId, claim_id: `claim-${randomUUID()}`, previous_owner: previousOwner, now: context.now } } as const;
  await handleCommand(eventStore, names.current, emailDecider, command, own, load);
}

/**
 * An erasure's part in the address's claim (see identity/email.ts): destroys the data key of the claim that names
 * this account, so the claim reads as `[erased]` (the address is free, and its stream no longer names the account).
 * Run before the person's own key is destroyed: the address is read from their account. Idempotent.
 */
export async function releaseEmailClaim(eventStore: EventStore, email: string, userId: string): Promise<void> {
  const keys = keyRingOf(eventStore);
  if (!keys) return;
  const names = await claimStreams(eventStore, email);
  const { state } = await readClaim(eventStore, names);
  if (state.user_id !== userId || state.claim_id === null) return; // another's claim, or one from before claims had a key
  await keys.destroy(state.claim_id);
  // The latest claim alone makes the state (emailDecider.evolve): once its key is gone it reads as `[erased]`, no holder.
  claimsOf(eventStore).reread(names.current, (kept) => (kept.claim_id === state.claim_id ? { ...kept, user_id: null } : kept));
}

/** The account holding an address, read from the write side (no read-model lag). */
export async function findUserIdByEmail(eventStore: EventStore, email: string): Promise<string | null> {
  const { state } = await readClaim(eventStore, await claimStreams(eventStore, email));
  if (!state.user_id) return null;
  return (await accountStatus(eventStore, state.user_id)).status === 'registered' ? state.user_id : null;
}
