import { WebSocketServer, type WebSocket } from 'ws';
import { readFileSync } from 'node:fs';

/**
 * The ceiling for the notifier benchmark: a bare `ws` server that accepts sockets and, when told, sends every socket
 * one message of the notifier's size stamped with the send time — all at once, or paced at a given rate (the fair
 * comparison: the notifier's messages arrive as fast as the approvals do). Run as a child process; speaks over stdin/stdout.
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
    const command = JSON.parse(line) as { type: 'broadcast'; padding: number } | { type: 'paced'; padding: number; rate: number } | { type: 'memory' };
    if (command.type === 'memory') {
      process.stdout.write(JSON.stringify({ rss_kib: rssKiB(), sockets: sockets.size }) + '\n');
      continue;
    }
    if (command.type === 'paced') {
      // One message per socket at the rate the notifier's approvals arrived, each stamped when it is sent.
      const queue = [...sockets];
      const started = performance.now();
      const tick = () => {
        const due = Math.min(queue.length, Math.floor(((performance.now() - started) / 1000) * command.rate) + 1);
        for (const ws of queue.splice(0, due)) {
          ws.send(JSON.stringify({ type: 'appointment_status_change', data: { occurred_at: new Date().toISOString(), padding: 'x'.repeat(command.padding) } }));
        }
        if (queue.length > 0) setTimeout(tick, 1);
      };
      tick();
      continue;
    }
    // One stamp for the whole broadcast: latency is from the event to each socket, as for the notifier.
    const message = JSON.stringify({ type: 'appointment_status_change', data: { occurred_at: new Date().toISOString(), padding: 'x'.repeat(command.padding) } });
    for (const ws of sockets) ws.send(message);
  }
});
