import { randomUUID } from 'node:crypto';
import { CONSULTATION_TEXTS, conflict, consultationRoom, streams, type JoinConsultationResponse } from '@telemed/contracts';
import { iceServersFor, type ConsultationSettings, type EventStore, type VideoProvider } from '@telemed/platform';
import { handleCommand, readStream, systemContext, type CommandContext } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { appointmentDecider, type AppointmentState } from '../appointments/appointment';
import { consultationDecider, type AppointmentFacts, type ConsultationCommand, type ConsultationLimits, type ConsultationState } from './consultation';

export interface ConsultationDeps {
  eventStore: EventStore;
  video: VideoProvider;
  settings: ConsultationSettings;
}

export function limitsOf(settings: ConsultationSettings): ConsultationLimits {
  return { earlyJoinMs: settings.earlyJoinMinutes * 60_000, maxMs: settings.maxMinutes * 60_000 };
}

/** The appointment as its own stream has it (the read models may lag; the rules decide on the log). */
export async function appointmentFacts(eventStore: EventStore, appointmentId: string): Promise<AppointmentFacts | null> {
  return factsOf((await readStream(eventStore, streams.appointment(appointmentId), appointmentDecider)).state);
}

/**
 * Whether the appointment's consultation has started (its stream begins with ConsultationStarted at the first join):
 * its first event is enough, never the whole stream.
 */
export async function consultationStarted(eventStore: EventStore, appointmentId: string): Promise<boolean> {
  return (await eventStore.readStream(streams.consultation(appointmentId), { maxCount: 1 })).length > 0;
}

function factsOf(state: AppointmentState): AppointmentFacts | null {
  if (state.status === 'none') return null;
  const { appointment_id, patient_id, doctor_id, start, end } = state.appointment;
  return { appointment_id, patient_id, doctor_id, start, end, status: state.status };
}

/**
 * The appointment's facts for a join, from the revision its decision is appended against. A join that would start
 * the consultation first records that on the appointment's stream (AppointmentConsultationBegun) with the expected
 * revision it read: a closer's cancel appended since makes that append fail, and the facts are read again (cancelled:
 * the join is refused); a join recorded first makes the closer's cancel fail instead, and it decides again and leaves
 * the appointment to its consultation. EventStoreDB has no multi-stream transaction: the appointment's stream is
 * where the two meet. A crash between this and the consultation's start leaves an appointment marked begun that the
 * next join starts.
 */
async function factsForJoin(
  eventStore: EventStore,
  appointmentId: string,
  consultation: { state: ConsultationState },
  join: Extract<ConsultationCommand, { type: 'JoinConsultation' }>,
  context: CommandContext,
): Promise<AppointmentFacts | null> {
  const stream = streams.appointment(appointmentId);
  const loaded = await readStream(eventStore, stream, appointmentDecider);
  const facts = factsOf(loaded.state);
  if (consultation.state.status !== 'none') return facts;
  // Decided here only to know whether this join starts the call (it throws what the join answers otherwise); it is
  // decided again, and appended, below on the consultation's stream.
  const starts = consultationDecider.decide({ ...join, data: { ...join.data, appointment: facts } }, consultation.state);
  if (!starts.some((event) => event.type === 'ConsultationStarted')) return facts;
  const recorded = await handleCommand(eventStore, stream, appointmentDecider, { type: 'RecordConsultationBegun', data: { now: context.now } }, context, loaded);
  return factsOf(recorded.state);
}

/**
 * Each event store's kept folds of consultations (StreamFolds): every room webhook (and, before chat had a stream of
 * its own, every chat message) is an event of the consultation's stream, so a command that read the whole stream cost
 * more with each one before it (and decrypted every earlier message again). A look reads only what came since the last one. The state holds ids,
 * times and the room's sessions, never the messages.
 */
export const consultationFoldsOf = foldsPerEventStore(consultationDecider);

/**
 * Loads the consultation; one past its limit is auto-ended first (by the system, whoever asked), so a late request
 * meets an ended consultation even when the limit's process manager has not run yet.
 */
async function loadConsultation(eventStore: EventStore, appointmentId: string, context: CommandContext) {
  const stream = streams.consultation(appointmentId);
  const loaded = await consultationFoldsOf(eventStore).current(stream);
  if (loaded.state.status === 'active' && new Date(loaded.state.ends_at).getTime() <= context.now.getTime()) {
    const ended = await handleCommand(
      eventStore,
      stream,
      consultationDecider,
      { type: 'AutoEndConsultation', data: { now: context.now } },
      systemContext(context.now, null, context.correlation_id),
      loaded,
    );
    return { state: ended.state, revision: null as number | null, fresh: false };
  }
  return { ...loaded, fresh: true };
}

/**
 * What handleCommand loads on each attempt: the fold just loaded first (unless an auto-end came after it), then the
 * kept fold again, so neither an auto-end nor a retry after a concurrent message reads the whole chat.
 */
function thenKept(eventStore: EventStore, appointmentId: string, loaded: { state: ConsultationState; revision: number | null; fresh: boolean }) {
  let first = loaded.fresh;
  return async () => {
    if (first) {
      first = false;
      return loaded;
    }
    return consultationFoldsOf(eventStore).current(streams.consultation(appointmentId));
  };
}

export async function runConsultationCommand(
  eventStore: EventStore,
  appointmentId: string,
  command: ConsultationCommand,
  context: CommandContext,
) {
  const loaded = await loadConsultation(eventStore, appointmentId, context);
  return handleCommand(eventStore, streams.consultation(appointmentId), consultationDecider, command, context, thenKept(eventStore, appointmentId, loaded));
}

/**
 * A chat message: checked against the consultation as its own stream has it (running, within its limit; the sender
 * its patient or doctor), then appended to the consultation's chat stream in arrival order without an expected
 * revision. Messages sent at once are all kept, none waits on another, and the joins, leaves and End Call on the
 * consultation's stream never wait on a message. A message checked a moment before the call ended may be stored just
 * after the end: the chat is what was said, in the order it arrived.
 */
export async function postConsultationMessage(
  eventStore: EventStore,
  appointmentId: string,
  command: Extract<ConsultationCommand, { type: 'PostConsultationMessage' }>,
  context: CommandContext,
) {
  const loaded = await loadConsultation(eventStore, appointmentId, context);
  return handleCommand(eventStore, streams.consultationChat(appointmentId), consultationDecider, command, context, loaded, { expectedRevision: 'any' });
}

export async function joinConsultation(
  deps: ConsultationDeps,
  input: { appointment_id: string; user_id: string; name: string },
  context: CommandContext,
): Promise<{ body: JoinConsultationResponse; position: number | null }> {
  const connection_id = randomUUID();
  const join = {
    type: 'JoinConsultation',
    data: {
      actor_id: input.user_id,
      appointment: null as AppointmentFacts | null,
      connection_id,
      provider: deps.video.kind,
      room: consultationRoom(input.appointment_id),
      now: context.now,
      limits: limitsOf(deps.settings),
    },
  } satisfies ConsultationCommand;
  const consultation = await loadConsultation(deps.eventStore, input.appointment_id, context);
  const appointment = await factsForJoin(deps.eventStore, input.appointment_id, consultation, join, context);
  const result = await handleCommand(
    deps.eventStore,
    streams.consultation(input.appointment_id),
    consultationDecider,
    { ...join, data: { ...join.data, appointment } },
    context,
    thenKept(deps.eventStore, input.appointment_id, consultation),
  );
  const state = result.state;
  if (state.status !== 'active') throw conflict(CONSULTATION_TEXTS.ended);
  const expiresAt = new Date(state.ends_at);
  // Identity from the verified session (the caller's user id), never from the request.
  const connection = await deps.video.connect({ room: state.room, identity: input.user_id, name: input.name, now: context.now, expiresAt });
  return {
    body: {
      ...connection,
      provider: state.provider,
      room: state.room,
      started_at: state.started_at,
      ends_at: state.ends_at,
      ice_servers: iceServersFor(deps.settings.iceServers, deps.settings.turnSecret, input.user_id, expiresAt),
      connection_id,
      server_time: context.now.toISOString(),
    },
    position: result.position,
  };
}

export function apiStatusOf(state: ConsultationState): 'waiting' | 'active' | 'ended' {
  return state.status === 'none' ? 'waiting' : state.status;
}
