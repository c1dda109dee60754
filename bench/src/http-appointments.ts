import { join } from 'node:path';
import { mkdtempSync, readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { SqliteEventStore, TokenService, loadTokenSecret } from '@telemed/platform';
import { giveConsent, loadFutureSchedule, registerUser, setAvailability, systemContext } from '@telemed/command';
import { startServerProcess } from '../../tests/src/support/processes';
import { startScript } from './child-server';
import { percentile } from './stats';

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Pair {
  slot_id: number;
  patientToken: string;
  doctorToken: string;
}

export interface PairsResult {
  pairs_per_second: number;
  http_requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  pairs: number;
  server_cpu_cores: number;
  client_cpu_cores: number;
}

/**
 * `clients` concurrent clients each send request then approve for the next slot of the queue; a warm-up first.
 * The same driver runs against the product and against the plain baseline server.
 */
async function drivePairs(baseUrl: string, serverPid: number, queue: Pair[], clients: number, pairs: number): Promise<PairsResult> {
  const latencies: number[] = [];
  let errors = 0;
  const run = async (count: number, record: boolean) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (;;) {
          if (next++ >= count) return;
          const item = queue.pop();
          if (!item) return;
          const started = performance.now();
          const requested = await fetch(`${baseUrl}/api/v1/appointments`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${item.patientToken}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ slot_id: item.slot_id, notes: 'Benchmark' }),
          });
          const { appointment_id } = (await requested.json()) as { appointment_id: string };
          const approved = await fetch(`${baseUrl}/api/v1/appointments/${appointment_id}/approve`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${item.doctorToken}` },
          });
          await approved.arrayBuffer();
          if (requested.status !== 201 || approved.status !== 200) errors += 1;
          if (record) latencies.push(performance.now() - started);
        }
      }),
    );
  };
  await run(Math.min(200, Math.floor(pairs / 10)), false);
  const started = performance.now();
  const serverCpuBefore = cpuSeconds(serverPid);
  const clientCpuBefore = process.cpuUsage();
  await run(pairs, true);
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = cpuSeconds(serverPid) - serverCpuBefore;
  const clientCpuUsage = process.cpuUsage(clientCpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    pairs_per_second: latencies.length / seconds,
    http_requests_per_second: (2 * latencies.length) / seconds,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    errors,
    pairs: latencies.length,
    server_cpu_cores: serverCpu / seconds,
    client_cpu_cores: (clientCpuUsage.user + clientCpuUsage.system) / 1e6 / seconds,
  };
}

/** Doctors with enough published slots, and patients, written straight to a fresh log; the queue of pairs to book. */
async function prepare(dir: string, options: { pairs: number; clients: number; doctors: number }) {
  const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
  const tokens = new TokenService({ secret: loadTokenSecret({ dataDir: dir, production: false }), issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 3600 });
  const context = systemContext(new Date(), null);
  const slotsPerDoctor = Math.ceil((options.pairs * 1.1 + 200) / options.doctors);
  const days = Math.ceil(slotsPerDoctor / 33) + 1;
  const doctors: Array<{ token: string; slots: number[] }> = [];
  for (let d = 0; d < options.doctors; d += 1) {
    const { user_id } = await registerUser(store, { email: `d${d}@bench`, name: `Dr ${d}`, account_type: 'doctor' }, context);
    const slots = [];
    for (let day = 1; day <= days; day += 1) {
      const date = DateTime.now().setZone(DEFAULT_TIMEZONE).plus({ days: day }).toISODate()!;
      for (let row = 0; row < 33; row += 1) {
        const start = DateTime.fromISO(`${date}T06:00`, { zone: DEFAULT_TIMEZONE }).plus({ minutes: 30 * row });
        slots.push({ slot_date: date, start_time: start.toFormat('HH:mm:ss'), end_time: start.plus({ minutes: 30 }).toFormat('HH:mm:ss') });
      }
    }
    await setAvailability(store, user_id, { slots, timezone: DEFAULT_TIMEZONE }, context);
    const opened = (await loadFutureSchedule(store, user_id, new Date())).known.sort((a, b) => a - b);
    doctors.push({ token: await tokens.issue({ user_id, account_type: 'doctor' }), slots: opened });
  }
  const patientTokens: string[] = [];
  for (let c = 0; c < options.clients; c += 1) {
    const { user_id } = await registerUser(store, { email: `p${c}@bench`, name: `Patient ${c}`, account_type: 'patient' }, context);
    await giveConsent(store, user_id, {}, context); // patients agree to the privacy notice before booking
    patientTokens.push(await tokens.issue({ user_id, account_type: 'patient' }));
  }
  await store.close();
  const queue: Pair[] = [];
  const longest = Math.max(...doctors.map((d) => d.slots.length));
  for (let i = 0; i < longest; i += 1) {
    for (const doctor of doctors) {
      const slot_id = doctor.slots[i];
      if (slot_id !== undefined) queue.push({ slot_id, doctorToken: doctor.token, patientToken: patientTokens[queue.length % patientTokens.length]! });
    }
  }
  return queue.reverse(); // pop() takes the soonest slots first, doctors interleaved
}

/** Request + approve over HTTP against the product running in its own process. */
export async function appointmentThroughput(
  dir: string,
  options: { pairs: number; clients: number; doctors: number },
  /** The product's entry (the encryption figure's 'before' runs bench/src/product-without-encryption.ts). */
  entry?: string,
): Promise<PairsResult> {
  const queue = await prepare(dir, options);
  const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error', SQLITE_SYNCHRONOUS: 'FULL' }, entry);
  try {
    return await drivePairs(server.baseUrl, server.child.pid!, queue, options.clients, options.pairs);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/** The same clients and pairs against a plain HTTP server doing the same durable inserts (the fair ceiling). */
export async function plainInsertThroughput(work: string, options: { pairs: number; clients: number }): Promise<PairsResult> {
  const dir = mkdtempSync(join(work, 'plain-'));
  const server = await startScript('bench/src/plain-insert-server.ts', [dir, '0']);
  const queue: Pair[] = Array.from({ length: options.pairs + 200 }, (_, i) => ({ slot_id: i + 1, patientToken: 'p', doctorToken: 'd' }));
  try {
    return await drivePairs(server.baseUrl, server.child.pid!, queue, options.clients, options.pairs);
  } finally {
    await server.stop();
  }
}
