import WebSocket from 'ws';

export interface Message {
  type: string;
  status?: string;
  data?: Record<string, unknown>;
}

/** A real ws client that records messages and its close code. */
export function connect(base: string, userId: string, token?: string) {
  const url = `${base}/ws/${userId}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (raw) => {
    messages.push(JSON.parse(String(raw)) as Message);
    waiters.splice(0).forEach((w) => w());
  });
  socket.on('error', () => {}); // a refused or cut connection shows up as its close code
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const next = async (type: string, timeoutMs = 3000): Promise<Message> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find((m) => m.type === type);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        return found;
      }
      if (Date.now() > deadline) throw new Error(`no ${type} message; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  /**
   * A heartbeat and its answer: everything the server sent this socket before it handled the heartbeat has arrived.
   * A test that checks a message did *not* come waits on this, rather than on a quiet spell of fixed length.
   */
  const roundTrip = async (): Promise<void> => {
    socket.send(JSON.stringify({ type: 'heartbeat' }));
    await next('heartbeat_response');
  };
  return { socket, messages, closed, next, roundTrip };
}
