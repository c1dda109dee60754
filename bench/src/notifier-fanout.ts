import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DateTime } from 'luxon';
import WebSocket from 'ws';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { SqliteEventStore, tokensFromConfig, loadConfig } from '@telemed/platform';
import { BookingChecks, giveConsent, loadFutureSchedule, registerUser, requestAppointment, setAvailability, systemContext } from '@telemed/command';
import { repoRoot, startServerProcess } from '../../tests/src/support/processes';
import { percentile } from './stats';

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

interface Socketed {
  socket: WebSocket;
  received: Promise<number>;
}

/** Opens `count` sockets, each resolving `received` with the latency of its first message of `type`. */
async function openSockets(urls: string[], type: string, latencyOf: (message: { data?: { occurred_at?: string } }) => number): Promise<Socketed[]> {
  const result: Socketed[] = [];
  for (let i = 0; i < urls.length; i += 250) {
    const batch = await Promise.all(
      urls.slice(i, i + 250).map(
        (url) =>
          new Promise<Socketed>((resolve, reject) => {
            const socket = new WebSocket(url);
            let settle!: (ms: number) => void;
            const received = new Promise<number>((r) => (settle = r));
            socket.on('message', (raw) => {
              const message = JSON.parse(String(raw)) as { type: string; data?: { occurred_at?: string } };
              if (message.type === type) settle(latencyOf(message));
            });
            socket.on('open', () => resolve({ socket, received }));
            socket.on('error', reject);
          }),
      ),
    );
    result.push(...batch);
  }
  return result;
}

/** Waits for every socket's message, closes them, and reports latency percentiles, rate and memory per socket. */
async function summarize(open: Socketed[], started: number, memoryKiB: number) {
  const latencies = (await Promise.all(open.map((s) => s.received))).sort((a, b) => a - b);
  const seconds = (performance.now() - started) / 1000;
  for (const s of open) s.socket.terminate();
  return {
    sockets: open.length,
    delivered: latencies.length,
    messages_per_second: latencies.length / seconds,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    memory_per_socket_kib: memoryKiB / open.length,
  };
}

const sinceStamp = (message: { data?: { occurred_at?: string } }) => Date.now() - Date.parse(message.data!.occurred_at!);

/** The bench's doctors practise through no institution. */
const noInstitutions = { institutionsOfMember: async () => [], missedAppointmentsSince: async () => [] };

/** The notifier: one appointment approval per patient, each patient on its own socket; latency commit → socket. */
export async function notifierFanout(dir: string, sockets: number) {
  const store = new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL' });
  const bookingChecks = new BookingChecks(store, noInstitutions);
  const context = systemContext(new Date(), null);
  const doctors: Array<{ user_id: string; slots: number[] }> = [];
  const perDoctor = 1000;
  for (let d = 0; d < Math.ceil(sockets / perDoctor); d += 1) {
    const { user_id } = await registerUser(store, { email: `fan-d${d}@bench`, name: `Dr ${d}`, account_type: 'doctor' }, context);
    const inputs = [];
    for (let day = 1; inputs.length < perDoctor; day += 1) {
      const date = DateTime.now().setZone(DEFAULT_TIMEZONE).plus({ days: day }).toISODate()!;
      for (let row = 0; row < 33 && inputs.length < perDoctor; row += 1) {
        const start = DateTime.fromISO(`${date}T06:00`, { zone: DEFAULT_TIMEZONE }).plus({ minutes: 30 * row });
        inputs.push({ slot_date: date, start_time: start.toFormat('HH:mm:ss'), end_time: start.plus({ minutes: 30 }).toFormat('HH:mm:ss') });
      }
    }
    await setAvailability(store, user_id, { slots: inputs, timezone: DEFAULT_TIMEZONE }, context);
    const opened = (await loadFutureSchedule(store, user_id, new Date())).known.sort((a, b) => a - b);
    doctors.push({ user_id, slots: opened });
  }
  const config = loadConfig({ DATA_DIR: dir });
  const { tokens } = tokensFromConfig(config);
  const patients: Array<{ user_id: string; token: string; appointment_id: string; doctor: number }> = [];
  for (let i = 0; i < sockets; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, sockets - i) }, async (_, j) => {
        const n = i + j;
        const { user_id } = await registerUser(store, { email: `fan-p${n}@bench`, name: `Patient ${n}`, account_type: 'patient' }, context);
        await giveConsent(store, user_id, {}, context);
        const doctor = Math.floor(n / perDoctor);
        const { appointment_id } = await requestAppointment(store, { slot_id: doctors[doctor]!.slots[n % perDoctor]!, notes: 'fan-out', patient_id: user_id }, context, bookingChecks);
        return { user_id, token: await tokens.issue({ user_id, account_type: 'patient' }), appointment_id, doctor };
      }),
    );
    patients.push(...batch);
  }
  await store.close();
  const doctorTokens = await Promise.all(doctors.map((d) => tokens.issue({ user_id: d.user_id, account_type: 'doctor' })));

  const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error', SQLITE_SYNCHRONOUS: 'FULL' });
  try {
    const wsBase = server.baseUrl.replace('http', 'ws');
    const before = rssKiB(server.child.pid!);
    const open = await openSockets(patients.map((p) => `${wsBase}/ws/${p.user_id}?token=${p.token}`), 'appointment_status_change', sinceStamp);
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssKiB(server.child.pid!);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (;;) {
          const p = patients[next++];
          if (!p) return;
          const res = await fetch(`${server.baseUrl}/api/v1/appointments/${p.appointment_id}/approve`, { method: 'POST', headers: { Authorization: `Bearer ${doctorTokens[p.doctor]}` } });
          await res.arrayBuffer();
        }
      }),
    );
    return await summarize(open, started, after - before);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

/**
 * The ceiling: a bare ws server sending messages of the same size to as many sockets, at `rate` messages a second
 * (the rate the notifier's approvals arrived) — or all at once without a rate.
 */
export async function plainBroadcast(sockets: number, rate?: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/src/plain-ws-server.ts'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const readLine = async () => JSON.parse((await lines.next()).value as string) as { port: number; rss_kib: number; sockets?: number };
  try {
    const { port } = await readLine();
    child.stdin!.write(JSON.stringify({ type: 'memory' }) + '\n');
    const before = (await readLine()).rss_kib;
    const open = await openSockets(Array.from({ length: sockets }, () => `ws://127.0.0.1:${port}`), 'appointment_status_change', sinceStamp);
    await new Promise((r) => setTimeout(r, 1000));
    child.stdin!.write(JSON.stringify({ type: 'memory' }) + '\n');
    const after = (await readLine()).rss_kib;
    const started = performance.now();
    child.stdin!.write(JSON.stringify(rate ? { type: 'paced', padding: 300, rate } : { type: 'broadcast', padding: 300 }) + '\n');
    return await summarize(open, started, after - before);
  } finally {
    child.kill('SIGTERM');
  }
}
