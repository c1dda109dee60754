import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenService, loadTokenSecret } from '@telemed/platform';
import { startServerProcess } from '../../tests/src/support/processes';
import { startScript } from './child-server';
import { buildHistoryLog, type HistoryLog } from './history-log';
import { percentile } from './stats';

const IDENTITY = { 'Accept-Encoding': 'identity' }; // both sides send the same uncompressed bytes

export const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** `clients` concurrent clients GET `url` for `seconds`: requests per second and latency percentiles. */
export async function hammer(url: string, headers: Record<string, string>, clients: number, seconds: number) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { requests_per_second: latencies.length / ((performance.now() - started) / 1000), p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) };
}

/** Sequential GETs: the latency one person sees, without queueing behind others. */
export async function sequentialLatency(url: string, headers: Record<string, string>, count: number) {
  const latencies: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  return { p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) };
}

export async function tokenFor(dir: string, user_id: string, account_type: 'doctor' | 'patient') {
  const tokens = new TokenService({ secret: loadTokenSecret({ dataDir: dir, production: false }), issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 3600 });
  return `Bearer ${await tokens.issue({ user_id, account_type })}`;
}

export async function waitReady(baseUrl: string, timeoutMs = 600_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${baseUrl}/readyz`).catch(() => null);
    if (res?.status === 200) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error('not ready in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** GET a doctor's available slots: the product beside a plain server sending the same bytes, same clients. */
export async function slotsThroughput(work: string, options: { historyEvents: number; clients: number; seconds: number }) {
  const dir = mkdtempSync(join(work, 'slots-'));
  const log: HistoryLog = await buildHistoryLog(join(dir, 'events.db'), options.historyEvents);
  await log.store.close();
  const doctor = log.doctors[0]!;
  const headers = { ...IDENTITY, Authorization: await tokenFor(dir, log.patients[0]!, 'patient') };
  const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error' });
  let product;
  let bytes: Buffer;
  const url = `${server.baseUrl}/api/v1/doctors/${doctor.id}/available-slots?timezone_str=Asia/Kolkata`;
  try {
    await waitReady(server.baseUrl);
    bytes = Buffer.from(await (await fetch(url, { headers })).arrayBuffer());
    await hammer(url, headers, options.clients, 1); // warm-up
    product = await hammer(url, headers, options.clients, options.seconds);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const file = join(dir, 'slots.json');
  writeFileSync(file, bytes);
  const plain = await startScript('bench/src/plain-bytes-server.ts', [file, '0']);
  let baseline;
  try {
    await hammer(`${plain.baseUrl}/`, IDENTITY, options.clients, 1);
    baseline = await hammer(`${plain.baseUrl}/`, IDENTITY, options.clients, options.seconds);
  } finally {
    await plain.stop();
  }
  return { bytes: bytes.length, slots: (JSON.parse(bytes.toString()) as { slots: unknown[] }).slots.length, history_events: log.events, product, baseline };
}
