import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { notifierFanout, plainBroadcast } from './notifier-fanout';

// A quick look at the fan-out benchmark alone: `npx tsx bench/src/fanout-only.ts [sockets]`.
const sockets = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'telemed-fanout-'));
try {
  console.log('notifier', await notifierFanout(dir, sockets));
  console.log('plain ws', await plainBroadcast(sockets));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
