import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

/**
 * The fair ceiling for a read: a plain node:http server in its own process answering every GET with the same bytes
 * the product answered (read once from a file). Run: `tsx bench/src/plain-bytes-server.ts <file> <port>`.
 */
const [file = '', port = '0'] = process.argv.slice(2);
const bytes = readFileSync(file);
const server = createServer((_req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
});
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
