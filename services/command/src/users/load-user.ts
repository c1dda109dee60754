import { randomUUID } from 'node:crypto';
import { streams, type DomainEventOf, type RecordedEvent } from '@telemed/contracts';
import type { EventStore, StoredEvent } from '@telemed/platform';
import { handleCommand, type CommandContext, type Fold } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { evolveUser, userDecider, type UserCommand, type UserEvent, type UserState } from './user';

type Registered = Extract<UserState, { status: 'registered' }>;
type Erased = Extract<UserState, { status: 'erased' }>;
type DoctorFields = NonNullable<Registered['doctor']>;

/** The account's personal fields (contracts' PERSONAL_FIELDS) and its password hash: what the outline leaves in the log. */
const PERSONAL = ['email', 'name', 'phone_number', 'password_hash'] as const;
type Personal = (typeof PERSONAL)[number];

/** Where a field's value is: null when the value is null (nothing to read), else the revision of the event that set it. */
type FieldAt = number | null;

/**
 * The user's state as userDecider's fold has it, without its personal fields: status, type, activity, subscriptions
 * and the doctor's profile without the registration number, and for each personal field the revision of the event
 * that last set it (the events name these fields as the state does). Erased, the revision of the erasure's event.
 * Small enough to keep per stream (StreamFolds) and holds nothing an erasure must remove, so a sign-in, a profile
 * edit or a consent reads the events since the last look and at most a few single events, not every edit,
 * subscription, consent and password the account ever had.
 */
export type UserOutline =
  | { status: 'unregistered' }
  | (Omit<Registered, Personal | 'doctor'> & { at: Record<Personal, FieldAt>; doctor: (Omit<DoctorFields, 'registration_number'> & { registration_number_at: FieldAt }) | null })
  | (Erased & { erased_at: number });

// A value no event holds: the outline's personal fields as evolveUser sees them, so what an event sets stands out.
const UNREAD = `\u0000unread ${randomUUID()}`;

function stateOf(outline: UserOutline): UserState {
  if (outline.status === 'unregistered') return outline;
  if (outline.status === 'erased') {
    const { erased_at: _e, ...erased } = outline;
    void _e;
    return erased;
  }
  const { at: _a, doctor, ...rest } = outline;
  void _a;
  let shownDoctor: DoctorFields | null = null;
  if (doctor) {
    const { registration_number_at: _r, ...fields } = doctor;
    void _r;
    shownDoctor = { ...fields, registration_number: UNREAD };
  }
  return { ...rest, email: UNREAD, name: UNREAD, phone_number: UNREAD, password_hash: UNREAD, doctor: shownDoctor };
}

/** A field after the event: unchanged (still UNREAD) keeps where it was; otherwise null, or this event's revision. */
function placed(value: unknown, before: FieldAt | undefined, revision: number): FieldAt {
  if (value === UNREAD) {
    if (before === undefined) throw new Error('user outline: a field kept its value but none was recorded');
    return before;
  }
  return value === null || value === undefined ? null : revision;
}

function outlineAfter(outline: UserOutline, event: UserEvent, revision: number): UserOutline {
  const after = evolveUser(stateOf(outline), event);
  if (after.status === 'unregistered') return after;
  if (after.status === 'erased') return { ...after, erased_at: outline.status === 'erased' ? outline.erased_at : revision };
  const known = outline.status === 'registered' ? outline : null;
  const at = {} as Record<Personal, FieldAt>;
  for (const field of PERSONAL) at[field] = placed(after[field], known?.at[field], revision);
  const { email: _e, name: _n, phone_number: _p, password_hash: _h, doctor, ...rest } = after;
  void [_e, _n, _p, _h];
  let keptDoctor: Extract<UserOutline, { status: 'registered' }>['doctor'] = null;
  if (doctor) {
    const { registration_number, ...fields } = doctor;
    keptDoctor = { ...fields, registration_number_at: placed(registration_number, known?.doctor?.registration_number_at, revision) };
  }
  return { ...rest, at, doctor: keptDoctor };
}

export const userOutlineFold: Fold<UserOutline, UserEvent> = {
  initialState: () => ({ status: 'unregistered' }),
  evolve: (outline, event) => {
    // Only a stored event is folded here (StreamFolds): it has its revision.
    const revision = (event as { revision?: number }).revision ?? -1;
    return outlineAfter(outline, event, revision);
  },
};

/**
 * Each event store's kept outlines of user streams (StreamFolds): a user stream gains an event with every profile
 * edit, subscription, consent and password, and every sign-in, profile edit and records request read all of them.
 */
export const userOutlinesOf = foldsPerEventStore(userOutlineFold);

/** Revisions this close are read in one range (a new account's fields and its password are a few events apart). */
const RANGE_GAP = 4;

/** The events at these revisions, in as few reads as the gaps between them allow. */
async function eventsAt(eventStore: EventStore, stream: string, revisions: number[]): Promise<Map<number, StoredEvent>> {
  const sorted = [...revisions].sort((a, b) => a - b);
  const ranges: Array<{ from: number; to: number }> = [];
  for (const at of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && at - last.to <= RANGE_GAP) last.to = at;
    else ranges.push({ from: at, to: at });
  }
  const found = new Map<number, StoredEvent>();
  await Promise.all(
    ranges.map(async ({ from, to }) => {
      for (const event of await eventStore.readStream(stream, { fromRevision: from, maxCount: to - from + 1 })) found.set(event.revision, event);
    }),
  );
  for (const at of sorted) if (!found.has(at)) throw new Error(`${stream}: no event at revision ${at}`);
  return found;
}

/**
 * The user as userDecider's fold of the whole stream has it: the kept outline (the events since the last look) and
 * each personal field from the one event that last set it (at most a few events, read once each).
 */
export async function loadUserFold(eventStore: EventStore, userId: string): Promise<{ state: UserState; revision: number | null }> {
  const stream = streams.user(userId);
  const { state: outline, revision } = await userOutlinesOf(eventStore).current(stream);
  if (outline.status !== 'registered') return { state: stateOf(outline), revision };
  const wanted = new Set<number>();
  for (const field of PERSONAL) if (outline.at[field] !== null) wanted.add(outline.at[field]);
  if (outline.doctor?.registration_number_at != null) wanted.add(outline.doctor.registration_number_at);
  const events = await eventsAt(eventStore, stream, [...wanted]);
  // Each event that sets one of these fields names it as the state does (UserRegistered, UserProfileUpdated, PasswordSet, DoctorRegistered, DoctorProfileUpdated).
  const valueAt = (at: FieldAt, field: string): string | null => (at === null ? null : ((events.get(at)!.data as Record<string, unknown>)[field] as string | null));
  const { at, doctor, ...rest } = outline;
  let loadedDoctor: DoctorFields | null = null;
  if (doctor) {
    const { registration_number_at, ...fields } = doctor;
    loadedDoctor = { ...fields, registration_number: valueAt(registration_number_at, 'registration_number') };
  }
  const state: Registered = {
    ...rest,
    email: valueAt(at.email, 'email'),
    name: valueAt(at.name, 'name') as string,
    phone_number: valueAt(at.phone_number, 'phone_number'),
    password_hash: valueAt(at.password_hash, 'password_hash'),
    doctor: loadedDoctor,
  };
  return { state, revision };
}

/** The user now (see loadUserFold). */
export async function loadUser(eventStore: EventStore, userId: string): Promise<UserState> {
  return (await loadUserFold(eventStore, userId)).state;
}

/** The erasure's event of an erased account (its one event, found through the outline), or null. */
export async function erasureEvent(eventStore: EventStore, userId: string): Promise<RecordedEvent<DomainEventOf<'PersonalDataErased'>> | null> {
  const stream = streams.user(userId);
  const { state } = await userOutlinesOf(eventStore).current(stream);
  if (state.status !== 'erased') return null;
  const event = (await eventsAt(eventStore, stream, [state.erased_at])).get(state.erased_at)!;
  return event.type === 'PersonalDataErased' ? (event as unknown as RecordedEvent<DomainEventOf<'PersonalDataErased'>>) : null;
}

/** A command on the user's stream, loaded from the kept outline on every attempt (a retry after a conflict too). */
export function handleUserCommand(eventStore: EventStore, userId: string, command: UserCommand, context: CommandContext) {
  return handleCommand(eventStore, streams.user(userId), userDecider, command, context, () => loadUserFold(eventStore, userId));
}
