import { mkdtempSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startServerProcess } from '../../tests/src/support/processes';
import { buildHistoryLog } from './history-log';
import { rssMiB, sequentialLatency, tokenFor, waitReady } from './reads';

/**
 * What a long history costs once the product has seen it: for each log size, the first start (read models built from
 * the log) and then a restart on the same data — time to the first answer and to ready, memory after start — slots and
 * appointment-list latency, and the longest stall a health probe every 10 ms sees over `stallSeconds` (which covers
 * the timer-driven sweeps).
 */
export async function growth(work: string, sizes: number[], stallSeconds: number) {
  const rows = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(work, `growth-${size}-`));
    const built = performance.now();
    const log = await buildHistoryLog(join(dir, 'events.db'), size);
    await log.store.close();
    const buildSeconds = (performance.now() - built) / 1000;

    const firstAt = performance.now(); // the product builds its read models from the log before it listens
    const first = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error' }, undefined, 900_000);
    await waitReady(first.baseUrl);
    const firstReadyMs = performance.now() - firstAt;
    // The product has seen its history once its process managers have too (they follow the log after it listens).
    await processManagersAt(join(dir, 'events.db'), log.events);
    const caughtUpMs = performance.now() - firstAt;
    first.child.kill('SIGTERM');
    await first.exited;

    const restartAt = performance.now();
    const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error' }, undefined, 120_000);
    const firstAnswerMs = performance.now() - restartAt;
    try {
      const readyMs = firstAnswerMs + (await waitReady(server.baseUrl));
      await new Promise((r) => setTimeout(r, 1000));
      const rss = rssMiB(server.child.pid!);
      const doctor = log.doctors[0]!;
      const patientAuth = { Authorization: await tokenFor(dir, log.patients[0]!, 'patient') };
      const doctorAuth = { Authorization: await tokenFor(dir, doctor.id, 'doctor') };
      const slotsUrl = `${server.baseUrl}/api/v1/doctors/${doctor.id}/available-slots`;
      // The first request reads the read store; the next ones are what patients opening the same doctor see.
      const slotsFirst = await sequentialLatency(slotsUrl, patientAuth, 1);
      const slots = await sequentialLatency(slotsUrl, patientAuth, 200);
      const upcoming = await sequentialLatency(`${server.baseUrl}/api/v1/appointments/me`, doctorAuth, 100);
      const past = await sequentialLatency(`${server.baseUrl}/api/v1/appointments/me?section=past&limit=20`, doctorAuth, 100);
      const stall = await longestProbeStall(server.baseUrl, stallSeconds);
      rows.push({
        events: log.events,
        log_build_seconds: buildSeconds,
        first_start_ready_seconds: firstReadyMs / 1000,
        first_start_caught_up_seconds: caughtUpMs / 1000,
        restart_first_answer_seconds: firstAnswerMs / 1000,
        restart_ready_seconds: readyMs / 1000,
        rss_after_start_mib: rss,
        slots_get_first_ms: slotsFirst.p50_ms,
        slots_get: slots,
        appointments_upcoming: upcoming,
        appointments_past_page: past,
        longest_stall_ms: stall.longest_ms,
        probes: stall.probes,
      });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
  return rows;
}

/** Waits until every process manager's saved checkpoint in the log file has reached `head` (at most 15 minutes). */
async function processManagersAt(file: string, head: number): Promise<void> {
  const db = new Database(file, { readonly: true });
  try {
    for (const deadline = Date.now() + 900_000; ; await new Promise((r) => setTimeout(r, 500))) {
      // Checkpoints only: a process manager may keep a small fact beside its own under `name#fact` (not a position).
      const rows = db.prepare<[], { position: number }>("SELECT position FROM checkpoints WHERE name NOT LIKE '%#%'").all();
      if (rows.length > 0 && rows.every((r) => r.position >= head)) return;
      if (Date.now() > deadline) throw new Error(`process managers still behind: ${JSON.stringify(rows)}`);
    }
  } finally {
    db.close();
  }
}

/** A GET /healthz every 10 ms for `seconds`: the longest time one took is the longest the event loop was held. */
async function longestProbeStall(baseUrl: string, seconds: number) {
  let longest = 0;
  let probes = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    await (await fetch(`${baseUrl}/healthz`)).arrayBuffer();
    longest = Math.max(longest, performance.now() - t);
    probes += 1;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { longest_ms: longest, probes };
}
