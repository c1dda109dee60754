import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The fair ceiling for request + approve over HTTP: a plain node:http server in its own process that does the same
 * durable inserts per pair as the product (two rows for a request — the slot reservation and the appointment — one
 * row for an approval), each request in its own transaction, with the same SQLite pragmas. No validation, no tokens,
 * no read models. Run: `tsx bench/src/plain-insert-server.ts <dir> <port>`.
 */
const [dir = '.', port = '0'] = process.argv.slice(2);
const db = new Database(join(dir, 'plain.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS events (position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE,
  stream_id TEXT NOT NULL, revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
  UNIQUE (stream_id, revision))`);
const insert = db.prepare('INSERT INTO events (event_id, stream_id, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
const metadata = () => JSON.stringify({ actor: { user_id: 'bench', role: 'patient' }, occurred_at: new Date().toISOString() });
const request = db.transaction((slotId: number, appointmentId: string, notes: string) => {
  insert.run(randomUUID(), `slot-${slotId}`, 1, 'SlotReserved', JSON.stringify({ slot_id: slotId, appointment_id: appointmentId }), metadata());
  insert.run(randomUUID(), `appointment-${appointmentId}`, 0, 'AppointmentRequested', JSON.stringify({ appointment_id: appointmentId, slot_id: slotId, notes }), metadata());
});
const approve = db.transaction((appointmentId: string) => {
  insert.run(randomUUID(), `appointment-${appointmentId}`, 1, 'AppointmentApproved', JSON.stringify({ appointment_id: appointmentId }), metadata());
});

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

const server = createServer(async (req, res) => {
  res.setHeader('Content-Type', 'application/json');
  if (req.method === 'POST' && req.url === '/api/v1/appointments') {
    const { slot_id, notes } = JSON.parse(await body(req)) as { slot_id: number; notes: string };
    const appointment_id = randomUUID();
    request(slot_id, appointment_id, notes);
    res.statusCode = 201;
    return res.end(JSON.stringify({ appointment_id, status: 'requested' }));
  }
  const approval = /^\/api\/v1\/appointments\/([^/]+)\/approve$/.exec(req.url ?? '');
  if (req.method === 'POST' && approval) {
    await body(req);
    approve(approval[1]!);
    return res.end(JSON.stringify({ appointment_id: approval[1], status: 'confirmed' }));
  }
  res.statusCode = 404;
  res.end('{"detail":"Not found"}');
});
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
