import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rawInsertRate } from './sqlite-baseline';
import { eventStoreAppendRate } from './event-store-appends';
import { projectionRebuildRate } from './projection-rebuild';
import { appointmentThroughput } from './http-appointments';
import { median, round } from './stats';
import { notifierFanout, plainBroadcast } from './notifier-fanout';

/**
 * `npm run bench [-- --quick]`: the three figures of issue 3, each beside the raw better-sqlite3 insert rate measured
 * in the same run (the ceiling), as medians of several runs. Writes bench/results/<timestamp>.json and latest.json.
 */
const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, runs: { type: 'string' } } });
const runs = Number(values.runs ?? (values.quick ? 1 : 3));
const size = values.quick ? 0.2 : 1;
const synchronous = 'FULL' as const;
const work = mkdtempSync(join(tmpdir(), 'telemed-bench-'));

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

try {
  const appendsTotal = Math.round(100_000 * size);
  log(`raw better-sqlite3 inserts (${appendsTotal}, 50 per transaction, synchronous=${synchronous})…`);
  const raw: number[] = [];
  const appends: number[] = [];
  let appendErrors = 0;
  for (let i = 0; i < runs; i += 1) {
    raw.push(rawInsertRate(work, appendsTotal, 50, synchronous));
    log(`event store appends, 50 concurrent writers to distinct streams (${appendsTotal})…`);
    const result = await eventStoreAppendRate(work, appendsTotal, 50, synchronous);
    appends.push(result.rate);
    appendErrors += result.errors;
  }
  const ceiling = median(raw);

  const rebuildEvents = Math.round(100_000 * size);
  log(`projection rebuild over ${rebuildEvents} events…`);
  const rebuild = await projectionRebuildRate(work, rebuildEvents, runs);

  const pairs = Math.round(5000 * size);
  log(`appointment request+approve over HTTP, 50 clients, ${pairs} pairs…`);
  const http: Array<Awaited<ReturnType<typeof appointmentThroughput>>> = [];
  for (let i = 0; i < runs; i += 1) {
    const dir = mkdtempSync(join(work, 'http-'));
    http.push(await appointmentThroughput(dir, { pairs, clients: 50, doctors: 10 }));
  }

  const fanoutSockets = Math.round(5000 * size);
  log(`notifier fan-out to ${fanoutSockets} sockets, and a plain ws broadcast beside it…`);
  const fanout: Array<Awaited<ReturnType<typeof notifierFanout>>> = [];
  const plain: Array<Awaited<ReturnType<typeof plainBroadcast>>> = [];
  for (let i = 0; i < runs; i += 1) {
    fanout.push(await notifierFanout(mkdtempSync(join(work, 'fanout-')), fanoutSockets));
    plain.push(await plainBroadcast(fanoutSockets));
  }
  const fanoutMedian = (rows: typeof fanout, key: keyof (typeof fanout)[number]) => round(median(rows.map((r) => r[key] as number)), 1);

  const httpMedian = {
    pairs_per_second: median(http.map((h) => h.pairs_per_second)),
    p50_ms: median(http.map((h) => h.p50_ms)),
    p99_ms: median(http.map((h) => h.p99_ms)),
    errors: http.reduce((n, h) => n + h.errors, 0),
  };
  const results = {
    measured_at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    runs,
    quick: values.quick,
    sqlite_synchronous: synchronous,
    baseline_raw_sqlite_inserts_per_second: { median: round(ceiling, 0), runs: raw.map((r) => round(r, 0)) },
    event_store_appends_per_second: {
      median: round(median(appends), 0),
      runs: appends.map((r) => round(r, 0)),
      errors: appendErrors,
      ratio_to_baseline: round(median(appends) / ceiling, 3),
    },
    appointment_request_approve_over_http: {
      pairs_per_second: round(httpMedian.pairs_per_second, 0),
      p50_ms: round(httpMedian.p50_ms, 1),
      p99_ms: round(httpMedian.p99_ms, 1),
      errors: httpMedian.errors,
      events_per_pair: 3,
      ratio_to_baseline: round((httpMedian.pairs_per_second * 3) / ceiling, 3),
      runs: http.map((h) => ({ ...h, pairs_per_second: round(h.pairs_per_second, 0), p50_ms: round(h.p50_ms, 1), p99_ms: round(h.p99_ms, 1) })),
    },
    notifier_fanout: {
      sockets: fanoutSockets,
      delivered_all: fanout.every((f) => f.delivered === f.sockets),
      p50_ms: fanoutMedian(fanout, 'p50_ms'),
      p99_ms: fanoutMedian(fanout, 'p99_ms'),
      memory_per_socket_kib: fanoutMedian(fanout, 'memory_per_socket_kib'),
      messages_per_second: fanoutMedian(fanout, 'messages_per_second'),
      baseline_plain_ws_broadcast: {
        p50_ms: fanoutMedian(plain, 'p50_ms'),
        p99_ms: fanoutMedian(plain, 'p99_ms'),
        memory_per_socket_kib: fanoutMedian(plain, 'memory_per_socket_kib'),
        messages_per_second: fanoutMedian(plain, 'messages_per_second'),
      },
      runs: fanout,
      baseline_runs: plain,
    },
    projection_rebuild_events_per_second: {
      events: rebuild.events,
      median: round(median(rebuild.rates), 0),
      runs: rebuild.rates.map((r) => round(r, 0)),
      ratio_to_baseline: round(median(rebuild.rates) / ceiling, 3),
    },
  };
  mkdirSync('bench/results', { recursive: true });
  const json = JSON.stringify(results, null, 2) + '\n';
  if (!values.quick) {
    writeFileSync(join('bench/results', `${results.measured_at.replace(/[:.]/g, '-')}.json`), json);
    writeFileSync('bench/results/latest.json', json);
  }
  process.stdout.write(json);
  process.stdout.write(`
| figure | median | ratio to raw SQLite inserts |
|---|---|---|
| raw better-sqlite3 inserts (ceiling, 50 rows per transaction) | ${results.baseline_raw_sqlite_inserts_per_second.median.toLocaleString('en')} rows/s | 1 |
| event-store appends, 50 concurrent writers, distinct streams | ${results.event_store_appends_per_second.median.toLocaleString('en')} events/s (errors: ${appendErrors}) | ${results.event_store_appends_per_second.ratio_to_baseline} |
| appointment request + approve over HTTP, 50 clients | ${results.appointment_request_approve_over_http.pairs_per_second.toLocaleString('en')} pairs/s, p50 ${results.appointment_request_approve_over_http.p50_ms} ms, p99 ${results.appointment_request_approve_over_http.p99_ms} ms | ${results.appointment_request_approve_over_http.ratio_to_baseline} (3 events a pair) |
| projection rebuild, ${rebuild.events.toLocaleString('en')} events | ${results.projection_rebuild_events_per_second.median.toLocaleString('en')} events/s | ${results.projection_rebuild_events_per_second.ratio_to_baseline} |

| notifier fan-out, ${fanoutSockets.toLocaleString('en')} sockets, one approval each | p50 | p99 | memory per socket | messages/s |
|---|---|---|---|---|
| notifier (commit → socket, approvals over HTTP by 50 clients) | ${results.notifier_fanout.p50_ms} ms | ${results.notifier_fanout.p99_ms} ms | ${results.notifier_fanout.memory_per_socket_kib} KiB | ${results.notifier_fanout.messages_per_second} |
| plain ws broadcast of the same messages (ceiling) | ${results.notifier_fanout.baseline_plain_ws_broadcast.p50_ms} ms | ${results.notifier_fanout.baseline_plain_ws_broadcast.p99_ms} ms | ${results.notifier_fanout.baseline_plain_ws_broadcast.memory_per_socket_kib} KiB | ${results.notifier_fanout.baseline_plain_ws_broadcast.messages_per_second} |
`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
