import { randomUUID } from 'node:crypto';
import {
  parseDomainEvent,
  type Actor,
  type DomainEvent,
  type EventMetadata,
  type RecordedEvent,
  type StreamParties,
} from '@telemed/contracts';
import { WrongExpectedRevisionError, type EventStore, type StoredEvent } from '@telemed/platform';

/** Emmett-style decider: pure and synchronous; time and identity come in through the command. */
export interface Decider<State, Command, Event extends DomainEvent = DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /**
   * The stream's parties (its patient), for personal fields encrypted under a party's key rather than one named in
   * the event (contracts' PERSONAL_FIELDS, `{party: 'patient'}`): the handler hands them to the encrypting store.
   */
  parties?(state: State): StreamParties;
}

/** Who asked, when, and why: becomes every event's metadata. */
export interface CommandContext {
  actor: Actor;
  now: Date;
  correlation_id: string;
  causation_id: string | null;
}

export function systemContext(now: Date, causation_id: string | null, correlation_id?: string): CommandContext {
  return {
    actor: { user_id: 'system', role: 'system' },
    now,
    correlation_id: correlation_id ?? causation_id ?? randomUUID(),
    causation_id,
  };
}

export interface CommandResult<State> {
  state: State;
  events: RecordedEvent[];
  /** Global position of the last event written, or null when the command changed nothing. */
  position: number | null;
}

export function toRecorded(stored: StoredEvent): RecordedEvent {
  return stored as unknown as RecordedEvent; // data was validated by its zod schema when appended
}

/**
 * The log position of an event an evolve is folding: a stored one's, or an append's (the write's position); none for
 * an event only decided. For a fold that compares when things happened across streams (a session and a deactivation).
 */
export function logPositionOf(event: DomainEvent): number | undefined {
  return (event as Partial<Pick<RecordedEvent, 'position'>>).position;
}

/** A decider's fold alone: what reading a stream needs (a check that decides nothing passes only this). */
export type Fold<State, Event extends DomainEvent = DomainEvent> = Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>;

export async function readStream<State, Event extends DomainEvent>(
  eventStore: EventStore,
  stream: string,
  decider: Fold<State, Event>,
): Promise<{ state: State; revision: number | null }> {
  const stored = await eventStore.readStream(stream);
  let state = decider.initialState();
  for (const event of stored) state = decider.evolve(state, toRecorded(event) as unknown as Event);
  return { state, revision: stored.length ? stored[stored.length - 1]!.revision : null };
}

/**
 * How often a command decides again after a concurrent writer moved its stream, and how long it waits before each new
 * attempt: a random pause up to a bound that doubles with each conflict, so writers that met at once (two people
 * pressing Join together, a webhook beside them) do not meet again at every attempt.
 */
export const COMMAND_RETRY = { attempts: 10, firstPauseMs: 4, maxPauseMs: 120 } as const;

const pauseBefore = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.random() * Math.min(COMMAND_RETRY.maxPauseMs, COMMAND_RETRY.firstPauseMs * 2 ** (attempt - 2))));

export interface HandleOptions {
  /**
   * 'any': the decision needs the stream's events in order, not the revision it was decided on (a chat message: the
   * consultation's state it was checked against is read from another stream). Appended once, never refused.
   */
  expectedRevision?: 'any';
}

/**
 * Load the stream, fold `evolve`, `decide`, append with the expected revision. A concurrent writer makes the
 * append fail; the whole cycle then runs again on the new state, after a jittered pause (COMMAND_RETRY), before giving
 * up with 409.
 * `loaded` is a fold the caller has just made of the same stream (it hands it over, as evolve may change it): the
 * first attempt uses it instead of reading and folding the stream a second time. Given as a function (a kept fold's
 * look), it loads every attempt, so a retry after a conflict does not read the whole stream either.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  eventStore: EventStore,
  stream: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  context: CommandContext,
  loaded?: { state: State; revision: number | null } | (() => Promise<{ state: State; revision: number | null }>),
  options: HandleOptions = {},
): Promise<CommandResult<State>> {
  for (let attempt = 1; ; attempt += 1) {
    if (attempt > 1) await pauseBefore(attempt);
    const { state, revision } =
      typeof loaded === 'function' ? await loaded() : attempt === 1 && loaded ? loaded : await readStream(eventStore, stream, decider);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { state, events: [], position: null };
    const metadata: EventMetadata = {
      actor: context.actor,
      correlation_id: context.correlation_id,
      causation_id: context.causation_id,
      occurred_at: context.now.toISOString(),
    };
    const newEvents = decided.map((event) => ({
      event_id: randomUUID(),
      ...parseDomainEvent(event.type, event.data),
      metadata,
    }));
    // Folded once (evolve may change the state in place); a conflict below starts again from a fresh read.
    const nextState = decided.reduce(decider.evolve, state);
    try {
      // The store encrypts the personal fields (EncryptingEventStore); the decider saw, and the caller gets, plain values.
      const result = await eventStore.appendToStream(stream, newEvents, {
        expectedRevision: options.expectedRevision ?? revision ?? 'no_stream',
        parties: decider.parties?.(nextState),
        // A person's own or another user's words about an erased person are refused (410); the system's closing writes go through.
        whenErased: context.actor.role === 'system' ? 'blank' : 'refuse',
      });
      const firstRevision = result.next_revision - newEvents.length + 1;
      // Positions within one append are not contiguous in every store; the write's position is what callers need.
      const events = newEvents.map(
        (event, i) =>
          ({ ...event, stream_id: stream, revision: firstRevision + i, position: result.position }) as RecordedEvent,
      );
      return { state: nextState, events, position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < COMMAND_RETRY.attempts) continue;
      throw error;
    }
  }
}
