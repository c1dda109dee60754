import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rawInsertRate } from './sqlite-baseline';
import { eventStoreAppendRate } from './event-store-appends';
import { projectionRebuildRate } from './projection-rebuild';
import { appointmentThroughput, plainInsertThroughput, type PairsResult } from './http-appointments';
import { notifierFanout, plainBroadcast } from './notifier-fanout';
import { slotsThroughput } from './reads';
import { growth } from './growth';
import { loginPaint } from './login-paint';
import { firstFrame } from './first-frame';
import { bookingWithAndWithoutEncryption, rebuildWithAndWithoutDecryption } from './encryption-cost';
import { medicineSearch } from './medicine-search';
import { onlineRebuild } from './online-rebuild';
import { reminders } from './reminders';
import { median, round } from './stats';
import { markdownTable } from './table';

/**
 * `npm run bench [-- --only NAME[,NAME] --runs N --quick]`. Each figure is measured beside a fair ceiling in the same
 * run (the same work without the product's logic) and reported as medians. Results merge into
 * bench/results/latest.json (a figure not run keeps its last measurement) and a timestamped file; the README table is
 * printed from latest.json.
 */
const FIGURES = ['appends', 'request-approve', 'slots', 'rebuild', 'online-rebuild', 'fanout', 'growth', 'login-paint', 'encryption', 'medicines', 'first-frame', 'reminders'] as const;
type Figure = (typeof FIGURES)[number];

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, runs: { type: 'string' }, only: { type: 'string' } } });
const runs = Number(values.runs ?? (values.quick ? 1 : 3));
const size = values.quick ? 0.2 : 1;
const only = values.only ? (values.only.split(',') as Figure[]) : [...FIGURES];
for (const name of only) if (!FIGURES.includes(name)) throw new Error(`Unknown figure ${name}; known: ${FIGURES.join(', ')}`);
const work = mkdtempSync(join(tmpdir(), 'telemed-bench-'));
const log = (message: string) => process.stderr.write(`${message}\n`);
const medianBy = <T>(rows: T[], key: (row: T) => number, digits = 1) => round(median(rows.map(key)), digits);

const measure: Record<Figure, () => Promise<unknown>> = {
  async appends() {
    const total = Math.round(100_000 * size);
    const raw: number[] = [];
    const appends: number[] = [];
    let errors = 0;
    for (let i = 0; i < runs; i += 1) {
      log(`appends: raw better-sqlite3 inserts, then the event store with 50 writers (${total})…`);
      raw.push(rawInsertRate(work, total, 50, 'FULL'));
      const result = await eventStoreAppendRate(work, total, 50, 'FULL');
      appends.push(result.rate);
      errors += result.errors;
    }
    return { events: total, per_second: round(median(appends), 0), ceiling_per_second: round(median(raw), 0), ratio: round(median(appends) / median(raw), 3), errors };
  },

  async 'request-approve'() {
    const pairs = Math.round(5000 * size);
    const product: PairsResult[] = [];
    const plain: PairsResult[] = [];
    for (let i = 0; i < runs; i += 1) {
      log(`request-approve: ${pairs} pairs by 50 clients against the product, then against a plain HTTP server with the same inserts…`);
      product.push(await appointmentThroughput(mkdtempSync(join(work, 'http-')), { pairs, clients: 50, doctors: 10 }));
      plain.push(await plainInsertThroughput(work, { pairs, clients: 50 }));
    }
    return {
      pairs,
      pairs_per_second: medianBy(product, (r) => r.pairs_per_second, 0),
      p50_ms: medianBy(product, (r) => r.p50_ms),
      p99_ms: medianBy(product, (r) => r.p99_ms),
      errors: product.reduce((n, r) => n + r.errors, 0),
      ceiling_pairs_per_second: medianBy(plain, (r) => r.pairs_per_second, 0),
      ratio: round(median(product.map((r) => r.pairs_per_second)) / median(plain.map((r) => r.pairs_per_second)), 3),
      runs: product,
      ceiling_runs: plain,
    };
  },

  async slots() {
    const rows = [];
    for (let i = 0; i < runs; i += 1) {
      log('slots: GET a doctor’s available slots by 20 clients, then a plain server sending the same bytes…');
      rows.push(await slotsThroughput(work, { historyEvents: Math.round(100_000 * size), clients: 20, seconds: values.quick ? 3 : 8 }));
    }
    return {
      bytes: rows[0]!.bytes,
      slots: rows[0]!.slots,
      history_events: rows[0]!.history_events,
      requests_per_second: medianBy(rows, (r) => r.product.requests_per_second, 0),
      p50_ms: medianBy(rows, (r) => r.product.p50_ms),
      ceiling_requests_per_second: medianBy(rows, (r) => r.baseline.requests_per_second, 0),
      ratio: round(median(rows.map((r) => r.product.requests_per_second)) / median(rows.map((r) => r.baseline.requests_per_second)), 3),
      runs: rows,
    };
  },

  async rebuild() {
    const events = Math.round(100_000 * size);
    log(`rebuild: projections over ${events} events into memory and into SQLite, beside reading and parsing the same log…`);
    const result = await projectionRebuildRate(work, events, runs);
    return {
      events: result.events,
      per_second: round(median(result.rates), 0),
      ceiling_per_second: round(median(result.ceilings), 0),
      ratio: round(median(result.rates) / median(result.ceilings), 3),
      runs: result.rates.map((r) => round(r, 0)),
      // Its read-and-store ceiling: the same reading plus putting the rebuild's final documents into a new in-memory store.
      store_ceiling_per_second: round(median(result.storeCeilings), 0),
      store_ceiling_ratio: round(median(result.rates) / median(result.storeCeilings), 3),
      // The same rebuild into the SQLite read store that `npm start` uses (per_second above: the in-memory one).
      sqlite_per_second: round(median(result.sqliteRates), 0),
      sqlite_ratio: round(median(result.sqliteRates) / median(result.ceilings), 3),
      // Its fair ceiling: the same reading plus storing the same rows and indexes without projection logic.
      sqlite_ceiling_per_second: round(median(result.writeCeilings), 0),
      sqlite_ceiling_ratio: round(median(result.sqliteRates) / median(result.writeCeilings), 3),
      sqlite_runs: result.sqliteRates.map((r) => round(r, 0)),
    };
  },

  async 'online-rebuild'() {
    const events = values.quick ? 200_000 : 1_000_000;
    log(`online-rebuild: ${events} events; appointments rebuilt beside its live generation while a client queries it…`);
    const rows = await onlineRebuild(work, events, runs);
    return {
      events,
      projection: rows[0]!.projection,
      per_second: medianBy(rows, (r) => r.events_per_second, 0),
      ceiling_per_second: medianBy(rows, (r) => r.ceiling_events_per_second, 0),
      ratio: round(median(rows.map((r) => r.events_per_second)) / median(rows.map((r) => r.ceiling_events_per_second)), 3),
      peak_rss_mib: medianBy(rows, (r) => r.peak_rss_mib),
      longest_stall_ms: medianBy(rows, (r) => r.longest_stall_ms),
      retire_seconds: medianBy(rows, (r) => r.retire_seconds),
      retire_longest_stall_ms: medianBy(rows, (r) => r.retire_longest_stall_ms),
      slowest_query_ms: medianBy(rows, (r) => r.slowest_query_ms),
      failed_or_empty_queries: rows.reduce((n, r) => n + r.failed_or_empty_queries, 0),
      runs: rows,
    };
  },

  async fanout() {
    const sockets = Math.round(5000 * size);
    const notifier = [];
    const plain = [];
    for (let i = 0; i < runs; i += 1) {
      log(`fanout: ${sockets} sockets, one approval each over HTTP; then a plain ws server sending at the same rate…`);
      const run = await notifierFanout(mkdtempSync(join(work, 'fanout-')), sockets);
      notifier.push(run);
      plain.push(await plainBroadcast(sockets, run.messages_per_second));
    }
    return {
      sockets,
      delivered_all: notifier.every((f) => f.delivered === f.sockets),
      messages_per_second: medianBy(notifier, (r) => r.messages_per_second),
      p50_ms: medianBy(notifier, (r) => r.p50_ms),
      p99_ms: medianBy(notifier, (r) => r.p99_ms),
      memory_per_socket_kib: medianBy(notifier, (r) => r.memory_per_socket_kib),
      ceiling_p50_ms: medianBy(plain, (r) => r.p50_ms),
      ceiling_p99_ms: medianBy(plain, (r) => r.p99_ms),
      ceiling_memory_per_socket_kib: medianBy(plain, (r) => r.memory_per_socket_kib),
      runs: notifier,
      ceiling_runs: plain,
    };
  },

  async growth() {
    const sizes = values.quick ? [10_000, 100_000] : [100_000, 1_000_000];
    log(`growth: logs of ${sizes.join(' and ')} events — start, memory, reads and stalls…`);
    return { sizes, rows: await growth(work, sizes, values.quick ? 10 : 60) };
  },

  async encryption() {
    const pairs = Math.round(3000 * size);
    const events = Math.round(100_000 * size);
    const encrypted: PairsResult[] = [];
    const plain: PairsResult[] = [];
    for (let i = 0; i < runs; i += 1) {
      log(`encryption: ${pairs} pairs against the product, then against it without encryption…`);
      const run = await bookingWithAndWithoutEncryption(work, { pairs, clients: 50, doctors: 10 });
      encrypted.push(run.encrypted);
      plain.push(run.plain);
    }
    // Each rebuild takes under a second and its rate moves by ±15 % from run to run on two cores: eleven of each side,
    // taking turns, at least, so the medians do not hang on one or two runs.
    const rebuildRuns = Math.max(runs, 11);
    log(`encryption: ${rebuildRuns} rebuilds over ${events} events each way, decrypting and as stored, taking turns…`);
    const rebuild = await rebuildWithAndWithoutDecryption(work, events, rebuildRuns);
    const booking = median(encrypted.map((r) => r.pairs_per_second));
    const bookingPlain = median(plain.map((r) => r.pairs_per_second));
    return {
      pairs,
      pairs_per_second: round(booking, 0),
      unencrypted_pairs_per_second: round(bookingPlain, 0),
      booking_cost: round(1 - booking / bookingPlain, 3),
      events,
      rebuild_per_second: round(median(rebuild.decrypted), 0),
      undecrypted_rebuild_per_second: round(median(rebuild.asStored), 0),
      rebuild_cost: round(1 - median(rebuild.decrypted) / median(rebuild.asStored), 3),
      rebuild_runs: rebuildRuns,
      runs: { encrypted, plain, rebuild },
    };
  },

  async medicines() {
    // The catalogue size in both modes (the aim is stated for it); --quick only searches fewer times.
    const brands = 250_000;
    const iterations = values.quick ? 100 : 1000;
    log(`medicines: search over NLEM 2022, then over it with ${brands} generated brands (${iterations} searches per query), beside a plain filter(includes) scan…`);
    return medicineSearch({ brands, iterations });
  },

  async 'first-frame'() {
    const count = values.quick ? 2 : Math.max(5, runs);
    log(`first-frame: ${count} video calls between two browsers for each order of joining (doctor first, patient first, both at once), then ${count} bare peer connections…`);
    return firstFrame(count);
  },

  async reminders() {
    log(`reminders: ${values.quick ? 1000 : 10_000} due in one minute (${runs} runs), then batches after the log grows with unrelated events…`);
    return reminders(work, { quick: values.quick, runs });
  },

  async 'login-paint'() {
    log('login-paint: /login on Fast 3G with a 4× slower CPU…');
    return loginPaint(work, runs);
  },
};

try {
  const measured: Record<string, unknown> = {};
  for (const name of only) measured[name] = await measure[name]();
  const meta = {
    measured_at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, load_average_at_start: loadavg().map((l) => round(l, 2)) },
    runs,
    quick: values.quick,
  };
  const latestFile = 'bench/results/latest.json';
  const previous = existsSync(latestFile) ? (JSON.parse(readFileSync(latestFile, 'utf8')) as { figures?: Record<string, unknown> }) : {};
  const stamped = Object.fromEntries(Object.entries(measured).map(([name, result]) => [name, { ...meta, result }]));
  const latest = { figures: { ...(previous.figures ?? {}), ...stamped } };
  mkdirSync('bench/results', { recursive: true });
  if (!values.quick) {
    writeFileSync(join('bench/results', `${meta.measured_at.replace(/[:.]/g, '-')}.json`), JSON.stringify({ ...meta, figures: measured }, null, 2) + '\n');
    writeFileSync(latestFile, JSON.stringify(latest, null, 2) + '\n');
  }
  process.stdout.write(JSON.stringify(measured, null, 2) + '\n\n');
  process.stdout.write(markdownTable(values.quick ? { figures: { ...(previous.figures ?? {}), ...stamped } } : latest) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
