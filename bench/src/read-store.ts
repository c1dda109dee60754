import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServerProcess } from '../../tests/src/support/processes';
import { buildHistoryLog } from './history-log';
import { rssMiB, sequentialLatency, tokenFor, waitReady } from './reads';
import { round } from './stats';

/**
 * `npx tsx bench/src/read-store.ts [--events 100000]`: what the read store costs `npm start` over a long log. The
 * product starts on the same log three ways: read models in memory (rebuilt from the log before listening, the old
 * default), on SQLite for the first time (built into DATA_DIR/read-models.db), and on SQLite again (a restart, which
 * resumes from the stored checkpoints). For each: time from spawn to the first answer and to ready, memory after
 * start, and the latency of a doctor's slots and appointment list. An empty log's start is the fixed cost (tsx,
 * routes, the identity provider). Results in bench/results/read-store.json.
 */
const { values } = parseArgs({ options: { events: { type: 'string', default: '100000' } } });
const events = Number(values.events);
const work = mkdtempSync(join(tmpdir(), 'telemed-bench-read-store-'));
const log = (message: string) => process.stderr.write(`${message}\n`);

async function startOnce(dataDir: string, readStore: 'memory' | 'sqlite', probe?: { doctor: string; patient: string }) {
  const spawned = performance.now();
  const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'error', READ_STORE: readStore });
  const firstAnswerMs = performance.now() - spawned;
  try {
    const readyMs = firstAnswerMs + (await waitReady(server.baseUrl));
    await new Promise((r) => setTimeout(r, 1000));
    const row: Record<string, unknown> = { start_to_first_answer_s: round(firstAnswerMs / 1000, 2), start_to_ready_s: round(readyMs / 1000, 2), rss_after_start_mib: round(rssMiB(server.child.pid!), 0) };
    if (probe) {
      const patient = { Authorization: await tokenFor(dataDir, probe.patient, 'patient') };
      const doctor = { Authorization: await tokenFor(dataDir, probe.doctor, 'doctor') };
      row.slots_get = await sequentialLatency(`${server.baseUrl}/api/v1/doctors/${probe.doctor}/available-slots`, patient, 200);
      row.appointments_past_page = await sequentialLatency(`${server.baseUrl}/api/v1/appointments/me?section=past&limit=20`, doctor, 100);
      row.rss_after_reads_mib = round(rssMiB(server.child.pid!), 0);
    }
    return row;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

try {
  const empty = mkdtempSync(join(work, 'empty-'));
  log('empty log (fixed start cost)…');
  const fixed = await startOnce(empty, 'memory');

  const dir = mkdtempSync(join(work, 'log-'));
  log(`building a ${events}-event log…`);
  const history = await buildHistoryLog(join(dir, 'events.db'), events);
  await history.store.close();
  const probe = { doctor: history.doctors[0]!.id, patient: history.patients[0]! };

  log('memory read models (rebuilt at every start)…');
  const memory = await startOnce(dir, 'memory', probe);
  log('SQLite read models, first start (built from the log)…');
  const sqliteFirst = await startOnce(dir, 'sqlite', probe);
  const fileMiB = round(statSync(join(dir, 'read-models.db')).size / 1024 / 1024, 1);
  log('SQLite read models, restart (resumes from the checkpoints)…');
  const sqliteRestart = await startOnce(dir, 'sqlite', probe);

  const result = {
    measured_at: new Date().toISOString(),
    events: history.events,
    empty_log: fixed,
    memory_rebuild_at_start: memory,
    sqlite_first_start: { ...sqliteFirst, read_models_file_mib: fileMiB },
    sqlite_restart: sqliteRestart,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/read-store.json', JSON.stringify(result, null, 2) + '\n');
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
