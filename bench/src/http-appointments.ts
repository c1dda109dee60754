import { join } from 'node:path';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE } from '@telemed/contracts';
import { SqliteEventStore, TokenService, loadTokenSecret } from '@telemed/platform';
import { registerUser, setAvailability, systemContext } from '@telemed/command';
import { startServerProcess } from '../../tests/src/support/processes';
import { readFileSync } from 'node:fs';
import { percentile } from './stats';

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Client {
  token: string;
}

/** Request + approve over HTTP against the product running in its own process, with `clients` concurrent clients. */
export async function appointmentThroughput(dir: string, options: { pairs: number; clients: number; doctors: number }) {
  const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
  const tokens = new TokenService({ secret: loadTokenSecret({ dataDir: dir, production: false }), issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 3600 });
  const context = systemContext(new Date(), null);
  const slotsPerDoctor = Math.ceil((options.pairs * 1.1) / options.doctors);
  const days = Math.ceil(slotsPerDoctor / 33) + 1;
  const doctorTokens = new Map<string, string>();
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
    doctorTokens.set(user_id, await tokens.issue({ user_id, account_type: 'doctor' }));
  }
  const patients: Client[] = [];
  for (let c = 0; c < options.clients; c += 1) {
    const { user_id } = await registerUser(store, { email: `p${c}@bench`, name: `Patient ${c}`, account_type: 'patient' }, context);
    patients.push({ token: await tokens.issue({ user_id, account_type: 'patient' }) });
  }
  await store.close();

  const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'error', SQLITE_SYNCHRONOUS: 'FULL' });
  try {
    const queue: Array<{ slot_id: number; doctorToken: string }> = [];
    for (const [doctorId, token] of doctorTokens) {
      const res = await fetch(`${server.baseUrl}/api/v1/doctors/${doctorId}/available-slots`, { headers: { Authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { slots: Array<{ slot_id: number }> };
      for (const s of body.slots) queue.push({ slot_id: s.slot_id, doctorToken: token });
    }
    queue.sort((a, b) => a.slot_id % 1e9 - (b.slot_id % 1e9)); // interleave doctors
    const latencies: number[] = [];
    let errors = 0;
    const runPairs = async (count: number, record: boolean) => {
      let next = 0;
      await Promise.all(
        patients.map(async (patient) => {
          for (;;) {
            const i = next++;
            if (i >= count) return;
            const item = queue.pop();
            if (!item) return;
            const started = performance.now();
            const requested = await fetch(`${server.baseUrl}/api/v1/appointments`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${patient.token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ slot_id: item.slot_id, notes: 'Benchmark' }),
            });
            const { appointment_id } = (await requested.json()) as { appointment_id: string };
            const approved = await fetch(`${server.baseUrl}/api/v1/appointments/${appointment_id}/approve`, {
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
    await runPairs(Math.min(200, Math.floor(options.pairs / 10)), false);
    const started = performance.now();
    const serverCpuBefore = cpuSeconds(server.child.pid!);
    const clientCpuBefore = process.cpuUsage();
    await runPairs(options.pairs, true);
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = cpuSeconds(server.child.pid!) - serverCpuBefore;
    const clientCpuUsage = process.cpuUsage(clientCpuBefore);
    const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1e6;
    latencies.sort((a, b) => a - b);
    return {
      pairs_per_second: latencies.length / seconds,
      http_requests_per_second: (2 * latencies.length) / seconds,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      errors,
      pairs: latencies.length,
      server_cpu_cores: serverCpu / seconds,
      client_cpu_cores: clientCpu / seconds,
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}
