import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type cliProgress from 'cli-progress';
import type { Projection } from './projections';

/** A row of GET /api/v1/admin/projections, as far as the replay reads it. */
interface ProjectionRow {
  name: string;
  position: number;
  state: 'live' | 'rebuilding' | 'failed';
  progress: { applied: number; percent: number } | null;
  failure: { event: { position: number; type: string; stream: string }; error: string } | null;
  /** Only when asked for (`checksum=true`): the final look, not the polls. */
  checksum: string | null;
}

const POLL_MS = 500;

async function readStdinLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** An operator's access token: REPLAY_TOKEN, or a sign-in as `operator` with the password read from stdin. */
async function operatorToken(base: string, operator: string | undefined): Promise<string> {
  const token = process.env.REPLAY_TOKEN;
  if (token) return token;
  if (!operator) throw new Error('--server needs an operator: REPLAY_TOKEN (an access token), or --operator EMAIL with the password on stdin');
  const res = await fetch(`${base}/api/v1/auth/support`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: operator, password: await readStdinLine() }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; detail?: unknown };
  if (!res.ok || !body.access_token) throw new Error(`Signing in as ${operator} failed (${res.status}): ${JSON.stringify(body.detail ?? body)}`);
  return body.access_token;
}

/**
 * The rebuild done by the running product at `server` (it owns its read models and their projector): each projection
 * through POST /api/v1/admin/projections/{name}/rebuild, which builds the next generation beside the live one and
 * switches over, followed in GET /api/v1/admin/projections for the bar. Its checksums are the server's.
 */
export async function remoteRebuild(options: { server: string; operator?: string; projections: Projection[]; bar: cliProgress.SingleBar }) {
  const base = options.server.replace(/\/+$/, '');
  const token = await operatorToken(base, options.operator);
  const call = async (method: 'GET' | 'POST', path: string) => {
    const res = await fetch(`${base}/api/v1${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json().catch(() => null)) as unknown;
    return { status: res.status, body };
  };
  const rows = async (withChecksums = false): Promise<ProjectionRow[]> => {
    const res = await call('GET', `/admin/projections${withChecksums ? '?checksum=true' : ''}`);
    if (res.status !== 200) throw new Error(`GET /admin/projections answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as ProjectionRow[];
  };
  const started = performance.now();
  let events = 0;
  let read = 0;
  for (const projection of options.projections) {
    const asked = await call('POST', `/admin/projections/${encodeURIComponent(projection.name)}/rebuild`);
    // 409: one is under way already (the console's Rebuild, or another replay): follow that one.
    if (asked.status !== 202 && asked.status !== 409) throw new Error(`Rebuilding ${projection.name} was refused (${asked.status}): ${JSON.stringify(asked.body)}`);
    const began = performance.now();
    let applied = 0;
    options.bar.start(100, 0, { name: projection.name, events: 0, rate: 0 });
    for (;;) {
      const row = (await rows()).find((r) => r.name === projection.name);
      if (!row) throw new Error(`The server does not list ${projection.name}`);
      if (row.state === 'failed') {
        options.bar.stop();
        const f = row.failure;
        throw new Error(`${projection.name} failed${f ? ` at event ${f.event.position} (${f.event.type} on ${f.event.stream}): ${f.error}` : ''}; the live generation stays`);
      }
      if (row.state === 'live') {
        // A rebuild quicker than the first look: the checkpoint's position is what it read (a count on SQLite).
        applied = Math.max(applied, applied === 0 ? row.position : 0);
        break;
      }
      applied = Math.max(applied, row.progress?.applied ?? 0);
      const seconds = Math.max((performance.now() - began) / 1000, 1e-9);
      options.bar.update(row.progress?.percent ?? 0, { events: applied, rate: Math.round(applied / seconds) });
      await sleep(POLL_MS);
    }
    options.bar.update(100, { events: applied, rate: Math.round(applied / Math.max((performance.now() - began) / 1000, 1e-9)) });
    options.bar.stop();
    process.stderr.write(`${projection.name}: switched over on ${base}\n`);
    events = Math.max(events, applied);
    read += applied;
  }
  const seconds = (performance.now() - started) / 1000;
  const final = await rows(true);
  const checksums = options.projections.map((p) => [p.name, final.find((r) => r.name === p.name)?.checksum ?? ''] as const);
  // As readModelsChecksum combines them.
  const hash = createHash('sha256');
  for (const [name, sum] of checksums) hash.update(`${name}:${sum}\n`);
  return {
    events,
    seconds: Number(seconds.toFixed(3)),
    events_per_second: Math.round(read / Math.max(seconds, 1e-9)),
    checksum: hash.digest('hex'),
    projections: Object.fromEntries(checksums),
  };
}
