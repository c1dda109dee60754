import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { OutgoingMessage } from './port';

export function sampleMessage(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    message_id: 'msg-1',
    idempotency_key: 'appointment-42:appointment_reminder:60:email',
    channel: 'email',
    kind: 'appointment_reminder',
    language: 'en',
    to: 'meera.iyer@example.in',
    subject: 'Your consultation is in one hour',
    text: 'Your consultation with Dr. Rao starts at 10:30.\nJoin: https://telemed.example.in/appointments/42',
    params: ['Dr. Rao', '10:30', 'https://telemed.example.in/appointments/42'],
    ...overrides,
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** A local HTTP server standing in for a provider's API: it records each request and answers as told (or never, for null). */
export async function providerServer(answer: (request: RecordedRequest) => Answer | null) {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const reply = answer(request);
      if (!reply) return;
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: one a server had a moment ago. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}
