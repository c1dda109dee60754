import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { parseDomainEvent, streams, type EventType } from '@telemed/contracts';
import { loadConfig, type NewEvent } from '@telemed/platform';
import { createApp, type App } from '@telemed/all-in-one';
import { appointmentMessageKey, messageIdFor, registerUser, systemContext } from '@telemed/command';
import { median, round } from './stats';

/**
 * Reminders falling due together (issue 34), through the all-in-one product on its embedded adapters as `npm start`
 * runs it (SQLite log with synchronous=FULL, SQLite read models, the development outbox as every channel): patients
 * and doctors registered by the product's own command, confirmed appointments appended to the log, their reminders
 * queued by the product's notifications process manager; then the clock moved into the minute they fall due and the
 * product's sweeps run (`runSweepsNow`: the message dispatcher, and the other sweeps, which find nothing pending) until
 * every reminder is in the outbox and its MessageSent recorded. Then batches of the same dispatch beside logs of 100k
 * and 1M unrelated events.
 */

const MINUTE_MS = 60_000;
const OFFSET_MINUTES = 60; // the reminder an hour before (REMINDER_OFFSETS_MINUTES' default is 1440,60)
const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);
const log = (message: string) => process.stderr.write(`${message}\n`);

/** 11:00 in India (05:30 UTC) `days` after today: outside every recipient's quiet hours (21:00-09:00 in their zone). */
function elevenInIndia(days: number): number {
  const today = new Date();
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days, 5, 30);
}

interface World {
  app: App;
  patients: string[];
  doctors: string[];
  clock(): Date;
  setClock(at: number): void;
  /** Until the log is quiet: the process managers have acted on every event and the read models hold it all. */
  settle(): Promise<void>;
}

async function inParallel(count: number, width: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

/** The product in `dir` (its own keys, log, read models and outbox), with its clock at `at` and these accounts registered. */
async function openWorld(dir: string, at: number, people: { patients: number; doctors: number }): Promise<World> {
  let now = new Date(at);
  const clock = () => now;
  const config = loadConfig({ DATA_DIR: dir, DEMO_DATA: 'off', LOG_LEVEL: 'error' });
  const app = await createApp({ config, clock });
  await app.start();
  const settle = async () => {
    for (;;) {
      const head = await app.eventStore.headPosition();
      if (!(await app.waitForProcessManagers(head, 600_000))) throw new Error(`process managers did not reach ${head}`);
      if (!(await app.runner.waitForPosition(head, 600_000))) throw new Error(`read models did not reach ${head}`);
      if ((await app.eventStore.headPosition()) === head) return;
    }
  };
  // Doctors one at a time (each takes the next doctor number from one stream); patients fifty at once.
  const doctors: string[] = [];
  for (let i = 0; i < people.doctors; i += 1) {
    const { user_id } = await registerUser(app.eventStore, { email: `doctor${i}@reminders.bench`, name: `Dr Bench ${i}`, account_type: 'doctor' }, systemContext(clock(), null));
    doctors.push(user_id);
  }
  const patients: string[] = new Array<string>(people.patients);
  await inParallel(people.patients, 50, async (i) => {
    const { user_id } = await registerUser(app.eventStore, { email: `patient${i}@reminders.bench`, name: `Patient ${i}`, account_type: 'patient' }, systemContext(clock(), null));
    patients[i] = user_id;
  });
  await settle();
  return { app, patients, doctors, clock, setClock: (to) => (now = new Date(to)), settle };
}

const recorded = (type: EventType, data: unknown, actor: { user_id: string; role: string }, at: number): NewEvent => ({
  event_id: randomUUID(),
  ...parseDomainEvent(type, data),
  metadata: { actor, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date(at).toISOString() },
});

let nextSlotId = 1;

/**
 * `count` appointments starting at `start`, requested and approved two days before (the events the patient's and the
 * doctor's commands record, appended through the encrypting store): the notifications process manager, seeing them
 * now, queues the reminder an hour before each (the day-before one is past, and the approval, days old, is no news:
 * MESSAGE_STALE_AFTER_MS). The doctors take turns, so each has several consultations at once: the dispatcher reads the
 * recipient (the patient) and the appointment, never the doctor. Returns the appointments' ids once the reminders are
 * queued and in the pending index.
 */
async function bookConfirmed(world: World, count: number, start: number): Promise<string[]> {
  const ids: string[] = [];
  const bookedAt = start - 2 * 86_400_000;
  const times = { start: new Date(start).toISOString(), end: new Date(start + 30 * MINUTE_MS).toISOString() };
  for (let i = 0; i < count; ) {
    const appends: Array<Promise<unknown>> = [];
    for (let j = 0; j < 500 && i < count; j += 1, i += 1) {
      const doctor = world.doctors[i % world.doctors.length]!;
      const patient = world.patients[i % world.patients.length]!;
      const appointment_id = randomUUID();
      ids.push(appointment_id);
      const events = [
        recorded('AppointmentRequested', { appointment_id, slot_id: nextSlotId++, doctor_id: doctor, patient_id: patient, ...times, notes: 'Follow-up' }, { user_id: patient, role: 'patient' }, bookedAt),
        recorded('AppointmentApproved', { appointment_id, doctor_id: doctor }, { user_id: doctor, role: 'doctor' }, bookedAt + 3_600_000),
      ];
      appends.push(world.app.eventStore.appendToStream(streams.appointment(appointment_id), events, { expectedRevision: 'no_stream', parties: { patient } }));
    }
    await Promise.all(appends);
  }
  await world.settle();
  return ids;
}

/**
 * `count` events no reader does work for, appended through the product's store in large group commits: refreshed
 * sessions (SessionRefreshed, 20 to a session's stream). The sessions projection names it as ignored and every other
 * projection and process manager ignores the sessions family; the relay only publishes it to the in-process bus, where
 * the notifier subscribes to none of it; and it has no personal field, so the encrypting store passes it through.
 * Returns the seconds the appends took and the seconds until every reader had followed them.
 */
async function appendUnrelated(world: World, count: number): Promise<{ append_seconds: number; readers_caught_up_seconds: number }> {
  const started = performance.now();
  const at = world.clock().getTime();
  const expires_at = new Date(at + 30 * 86_400_000).toISOString();
  for (let written = 0; written < count; ) {
    const appends: Array<Promise<unknown>> = [];
    for (let j = 0; j < 500 && written < count; j += 1) {
      const session_id = randomUUID();
      const n = Math.min(20, count - written);
      const events = Array.from({ length: n }, (_, k) =>
        recorded('SessionRefreshed', { session_id, refresh_token_hash: `${session_id}.${k}`, expires_at }, { user_id: 'system', role: 'system' }, at),
      );
      appends.push(world.app.eventStore.appendToStream(streams.session(session_id), events));
      written += n;
    }
    await Promise.all(appends);
  }
  const appended = performance.now();
  await world.settle();
  return { append_seconds: round((appended - started) / 1000, 1), readers_caught_up_seconds: round((performance.now() - appended) / 1000, 1) };
}

export interface DispatchRun {
  reminders: number;
  events_in_log: number;
  seconds: number;
  per_message_ms: number;
  /** The process's CPU time (every thread: the append thread, the read models' writer and the log's readers too). */
  cpu_per_message_ms: number;
  /** The event loop's longest stall while dispatching (monitorEventLoopDelay, 10 ms resolution). */
  longest_stall_ms: number;
  stall_p99_ms: number;
  rss_before_mib: number;
  peak_rss_mib: number;
  in_outbox: number;
  sent_recorded: number;
  /** The machine's one-minute load average as the dispatch started (the stall counts every thread's and process's turn). */
  load_average: number;
}

/** Moves the clock into the minute `due` and runs the product's sweeps (its dispatcher among them) until they finish. */
async function dispatchAt(world: World, due: number, appointments: string[], wrap: DispatchWrap): Promise<DispatchRun> {
  const { app } = world;
  const eventsInLog = await app.eventStore.headPosition();
  const load = loadavg()[0]!;
  world.setClock(due + 30_000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  delay.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await wrap(`${appointments.length} at ${eventsInLog}`, () => app.runSweepsNow(), app);
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = process.cpuUsage(cpu);
  delay.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  // Each reminder in the outbox (its e-mail send's key: the message's key and the channel; the outbox keeps its newest
  // OUTBOX_KEEP, 10,000) and its stream ending in MessageSent.
  let inOutbox = 0;
  let sent = 0;
  for (const id of appointments) {
    const key = appointmentMessageKey(id, 'appointment_reminder', OFFSET_MINUTES);
    if (app.outbox!.get(`${key}:email`)) inOutbox += 1;
    const events = await app.eventStore.log.readStream(streams.message(messageIdFor(key)));
    if (events[events.length - 1]?.type === 'MessageSent') sent += 1;
  }
  await world.settle();
  return {
    reminders: appointments.length,
    events_in_log: eventsInLog,
    seconds: round(seconds, 2),
    per_message_ms: round((seconds * 1000) / appointments.length, 3),
    cpu_per_message_ms: round((cpuUsed.user + cpuUsed.system) / 1000 / appointments.length, 3),
    longest_stall_ms: round(delay.max / 1e6, 1),
    stall_p99_ms: round(delay.percentile(99) / 1e6, 1),
    rss_before_mib: mib(rssBefore),
    peak_rss_mib: mib(peak),
    in_outbox: inOutbox,
    sent_recorded: sent,
    load_average: round(load, 2),
  };
}

/** Wraps each timed dispatch (a CPU profile of it, say); the default just runs it. */
export type DispatchWrap = (label: string, dispatch: () => Promise<void>, app: App) => Promise<void>;
const unwrapped: DispatchWrap = (_label, dispatch) => dispatch();

/** Part 1: `reminders` reminders due in the same minute, each to a patient of their own, dispatched in one run. */
export async function remindersAtOnce(work: string, options: { reminders: number; doctors: number; wrap?: DispatchWrap }) {
  const due = elevenInIndia(1);
  const built = performance.now();
  const dir = mkdtempSync(join(work, 'reminders-'));
  const world = await openWorld(dir, due - 10 * MINUTE_MS, { patients: options.reminders, doctors: options.doctors });
  try {
    const appointments = await bookConfirmed(world, options.reminders, due + OFFSET_MINUTES * MINUTE_MS);
    const pending = await world.app.readStore.collection('pending_messages').count({ due_at: { $lte: new Date(due).toISOString() } });
    const buildSeconds = (performance.now() - built) / 1000;
    log(`reminders: ${options.reminders} patients and ${options.doctors} doctors registered, ${pending} reminders pending, in ${round(buildSeconds, 1)} s; dispatching…`);
    await world.app.runSweepsNow(); // once before they fall due: nothing to send
    const run = await dispatchAt(world, due, appointments, options.wrap ?? unwrapped);
    log(`reminders: ${run.reminders} sent in ${run.seconds} s, longest stall ${run.longest_stall_ms} ms, peak RSS ${run.peak_rss_mib} MiB`);
    return { ...run, pending_before: pending, patients: options.reminders, doctors: options.doctors, build_seconds: round(buildSeconds, 1) };
  } finally {
    await world.app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Part 2: the same dispatch of `batch` reminders to the same patients, after logs of each of `sizes` unrelated events:
 * one product for each size (its own data directory, the same accounts, in this process), their batches taken in
 * turns (the order swapped each round) so that the machine's load as it drifts falls on every size alike; the medians
 * of `batches` per size, and the ratio of the last size's to the first's. One batch each before the rounds warms the
 * process and the product (the JIT, the patients' kept folds) and is not counted.
 */
export async function remindersOverHistory(work: string, options: { batch: number; batches: number; sizes: number[]; doctors: number; wrap?: DispatchWrap }) {
  const wrap = options.wrap ?? unwrapped;
  const logs: Array<{ size: number; dir: string; world: World; fill: Awaited<ReturnType<typeof appendUnrelated>>; warmup: DispatchRun; runs: DispatchRun[] }> = [];
  try {
    for (const size of options.sizes) {
      const dir = mkdtempSync(join(work, `reminders-history-${size}-`));
      const world = await openWorld(dir, elevenInIndia(1) - 10 * MINUTE_MS, { patients: options.batch, doctors: options.doctors });
      log(`reminders: appending ${size} unrelated events…`);
      const fill = await appendUnrelated(world, size);
      log(`reminders: appended in ${fill.append_seconds} s, readers caught up ${fill.readers_caught_up_seconds} s later`);
      const warmup = await dispatchAt(world, elevenInIndia(1), await bookConfirmed(world, options.batch, elevenInIndia(1) + OFFSET_MINUTES * MINUTE_MS), unwrapped);
      logs.push({ size, dir, world, fill, warmup, runs: [] });
    }
    for (let round = 0; round < options.batches; round += 1) {
      // Each round's batch due at 11:00 in India on a day of its own.
      const due = elevenInIndia(2 + round);
      for (const entry of round % 2 === 0 ? logs : [...logs].reverse()) {
        entry.world.setClock(due - 10 * MINUTE_MS);
        const booked = await bookConfirmed(entry.world, options.batch, due + OFFSET_MINUTES * MINUTE_MS);
        entry.runs.push(await dispatchAt(entry.world, due, booked, wrap));
      }
      log(`reminders: round ${round + 1}: ${logs.map((l) => `${l.size} unrelated events ${l.runs[round]!.per_message_ms} ms`).join(', ')} per message`);
    }
    const rows = logs.map(({ size, fill, warmup, runs }) => ({
      unrelated_events: size,
      ...fill,
      per_message_ms: round(median(runs.map((r) => r.per_message_ms)), 3),
      cpu_per_message_ms: round(median(runs.map((r) => r.cpu_per_message_ms)), 3),
      longest_stall_ms: round(median(runs.map((r) => r.longest_stall_ms)), 1),
      warmup,
      runs,
    }));
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    return {
      batch: options.batch,
      batches: options.batches,
      rows,
      ratio: round(last.per_message_ms / first.per_message_ms, 3),
      cpu_ratio: round(last.cpu_per_message_ms / first.cpu_per_message_ms, 3),
    };
  } finally {
    for (const { world, dir } of logs) {
      await world.app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

type AtOnceOptions = Parameters<typeof remindersAtOnce>[1];
type HistoryOptions = Parameters<typeof remindersOverHistory>[1];
type Part = { part: 'at-once'; options: AtOnceOptions } | { part: 'history'; options: HistoryOptions };

/**
 * One part in a process of its own, as a server has the machine to itself: a fresh heap for each run (an app stopped
 * in this process leaves part of itself on the heap, which would swell the next run's memory and collections).
 */
async function inProcessOfItsOwn<T>(work: string, part: Part): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), work, JSON.stringify(part)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  if (code !== 0) throw new Error(`reminders ${part.part} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

/**
 * Both parts: the reminders at once `runs` times (a new product in a new process each time), then the history's
 * batches (at least five per size, in one process); medians, every run kept, and a short table on stderr.
 */
export async function reminders(work: string, options: { quick: boolean; runs: number }) {
  const count = options.quick ? 1000 : 10_000;
  const atOnce: Array<Awaited<ReturnType<typeof remindersAtOnce>>> = [];
  for (let i = 0; i < options.runs; i += 1) atOnce.push(await inProcessOfItsOwn(work, { part: 'at-once', options: { reminders: count, doctors: options.quick ? 20 : 200 } }));
  const history: Awaited<ReturnType<typeof remindersOverHistory>> = await inProcessOfItsOwn(work, {
    part: 'history',
    options: { batch: options.quick ? 200 : 1000, batches: Math.max(5, options.runs), sizes: options.quick ? [10_000, 100_000] : [100_000, 1_000_000], doctors: 50 },
  });
  const result = {
    reminders: count,
    goals: { seconds: 60, longest_stall_ms: 50, history_ratio: 1 },
    seconds: round(median(atOnce.map((r) => r.seconds)), 2),
    longest_stall_ms: round(median(atOnce.map((r) => r.longest_stall_ms)), 1),
    peak_rss_mib: round(median(atOnce.map((r) => r.peak_rss_mib)), 1),
    all_sent: atOnce.every((r) => r.in_outbox === r.reminders && r.sent_recorded === r.reminders) && history.rows.every((row) => row.runs.every((r) => r.in_outbox === r.reminders && r.sent_recorded === r.reminders)),
    history_per_message_ms: history.rows.map((row) => ({ unrelated_events: row.unrelated_events, per_message_ms: row.per_message_ms, cpu_per_message_ms: row.cpu_per_message_ms })),
    history_ratio: history.ratio,
    history_cpu_ratio: history.cpu_ratio,
    at_once_runs: atOnce,
    history,
  };
  log(table(result));
  return result;
}

function table(result: { reminders: number; seconds: number; longest_stall_ms: number; peak_rss_mib: number; at_once_runs: Array<DispatchRun & { pending_before: number }>; history: Awaited<ReturnType<typeof remindersOverHistory>> }): string {
  const { history } = result;
  return [
    `| ${result.reminders} reminders due in one minute | all in the outbox, MessageSent recorded | longest stall | RSS before / peak | events in the log | load |`,
    '|---|---|---|---|---|---|',
    ...result.at_once_runs.map((r) => `| run | ${r.seconds} s (${r.in_outbox} in the outbox, ${r.sent_recorded} sent) | ${r.longest_stall_ms} ms (p99 ${r.stall_p99_ms} ms) | ${r.rss_before_mib} / ${r.peak_rss_mib} MiB | ${r.events_in_log} | ${r.load_average} |`),
    `| median | ${result.seconds} s (goal 60 s) | ${result.longest_stall_ms} ms (goal 50 ms) | peak ${result.peak_rss_mib} MiB | | |`,
    '',
    `| unrelated events in the log | per message, ${history.batch} reminders (median of ${history.batches}, taking turns) | CPU per message | longest stall (median) | log written in / readers caught up after |`,
    '|---|---|---|---|---|',
    ...history.rows.map((r) => `| ${r.unrelated_events} | ${r.per_message_ms} ms (${r.runs.map((x) => x.per_message_ms).join(', ')}) | ${r.cpu_per_message_ms} ms | ${r.longest_stall_ms} ms | ${r.append_seconds} s / ${r.readers_caught_up_seconds} s |`),
    `| ratio ${history.rows[history.rows.length - 1]!.unrelated_events} / ${history.rows[0]!.unrelated_events} | ${history.ratio} | ${history.cpu_ratio} | | |`,
  ].join('\n');
}

// A part run as a process of its own: `tsx bench/src/reminders.ts WORK_DIR PART_JSON` prints the part's result as JSON.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [work, json] = process.argv.slice(2) as [string, string];
  const part = JSON.parse(json) as Part;
  const result = part.part === 'at-once' ? await remindersAtOnce(work, part.options) : await remindersOverHistory(work, part.options);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
