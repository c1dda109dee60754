import { WebSocketServer, type WebSocket } from 'ws';
import { readFileSync } from 'node:fs';

/**
 * The ceiling for the notifier benchmark: a bare `ws` server that accepts sockets and, when told, sends every socket
 * one message of the notifier's size stamped with the send time. Run as a child process; speaks over stdin/stdout.
 */
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const sockets = new Set<WebSocket>();
wss.on('connection', (ws) => {
  sockets.add(ws);
  ws.on('close', () => sockets.delete(ws));
});
const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
wss.on('listening', () => {
  process.stdout.write(JSON.stringify({ port: (wss.address() as { port: number }).port, rss_kib: rssKiB() }) + '\n');
});
process.stdin.on('data', (chunk) => {
  for (const line of String(chunk).trim().split('\n')) {
    const command = JSON.parse(line) as { type: 'broadcast'; padding: number } | { type: 'memory' };
    if (command.type === 'memory') {
      process.stdout.write(JSON.stringify({ rss_kib: rssKiB(), sockets: sockets.size }) + '\n');
      continue;
    }
    // One stamp for the whole broadcast: latency is from the event to each socket, as for the notifier.
    const message = JSON.stringify({ type: 'appointment_status_change', data: { occurred_at: new Date().toISOString(), padding: 'x'.repeat(command.padding) } });
    for (const ws of sockets) ws.send(message);
  }
});
