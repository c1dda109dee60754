import { connect as tcpConnect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

/** Builds one WebSocket frame by hand, including the kinds a conforming client never sends. */
export function frame(
  opcode: number,
  payload: Buffer,
  options: { mask?: boolean; fin?: boolean; rsv?: number; declaredLength?: number } = {},
): Buffer {
  const { mask = true, fin = true, rsv = 0 } = options;
  const length = options.declaredLength ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const maskBit = mask ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 65536) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(maskBit | 127, ...big);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!));
  return Buffer.concat([Buffer.from(head), key, masked]);
}

export const text = (value: string | Buffer) => frame(0x1, Buffer.isBuffer(value) ? value : Buffer.from(value));

/** A raw TCP connection that has done the WebSocket handshake; collects what the server sends. */
export interface RawSocket {
  socket: Socket;
  /** Everything received after the handshake response. */
  received(): Buffer;
  /** Resolves when the server ends the connection (or after `timeoutMs` with false). */
  closedWithin(timeoutMs: number): Promise<boolean>;
  /** Waits until the received bytes contain this text. */
  waitFor(textPart: string, timeoutMs?: number): Promise<void>;
}

/** `early` is written in the same packet as the handshake: it reaches the server before the socket is authenticated. */
export async function rawWebSocket(port: number, path: string, early?: Buffer): Promise<RawSocket> {
  const socket = tcpConnect(port, '127.0.0.1');
  socket.on('error', () => {});
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let ended = false;
  const endWaiters: Array<() => void> = [];
  const dataWaiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return void socket.destroy();
      buffer = buffer.subarray(end + 4);
      upgraded = true;
    }
    dataWaiters.splice(0).forEach((w) => w());
  });
  socket.on('close', () => {
    ended = true;
    endWaiters.splice(0).forEach((w) => w());
    dataWaiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const request = Buffer.from(
    [
      `GET ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(early ? Buffer.concat([request, early]) : request);
  const raw: RawSocket = {
    socket,
    received: () => buffer,
    closedWithin: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (ended) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        endWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      }),
    async waitFor(textPart, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!buffer.includes(textPart)) {
        if (ended || Date.now() > deadline) throw new Error(`no "${textPart}" received; got ${JSON.stringify(buffer.toString('latin1'))}`);
        await new Promise<void>((resolve) => {
          dataWaiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
  return raw;
}
