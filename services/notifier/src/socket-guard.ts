import type { WebSocket } from 'ws';
import { WS_CLOSE } from '@telemed/contracts';
import type { Logger } from '@telemed/platform';

export interface SocketLimits {
  /** A socket whose unsent output passes this many bytes is closed: its client is not reading. */
  maxBufferedBytes: number;
  /** Incoming messages allowed per window (a token bucket: bursts up to this, refilled over the window). */
  messageRateLimit: number;
  messageRateWindowMs: number;
  /**
   * Signalling messages (WebRTC offer, answer, ICE candidates, hang-up) allowed per window, from a bucket of their own:
   * a call's setup sends a burst of candidates that the heartbeat budget was never meant for. Default 60.
   */
  signalRateLimit?: number;
  /** How long a closing socket may take to answer the close handshake before it is cut. */
  closeGraceMs?: number;
}

type Close = { code: number; reason: string };

/**
 * One socket's protections: an error listener (a bad frame or a reset never reaches the process), bounded output,
 * and a bounded incoming message rate. Every write to a client goes through `send`.
 */
export class GuardedSocket {
  private readonly buckets: Record<'general' | 'signal', { tokens: number; refilledAt: number; limit: number }>;
  private closing = false;

  constructor(
    readonly socket: WebSocket,
    private readonly limits: SocketLimits,
    private readonly logger: Logger,
  ) {
    const now = Date.now();
    this.buckets = {
      general: { tokens: limits.messageRateLimit, refilledAt: now, limit: limits.messageRateLimit },
      signal: { tokens: limits.signalRateLimit ?? 60, refilledAt: now, limit: limits.signalRateLimit ?? 60 },
    };
    // ws emits protocol errors (invalid frame, oversized or unmasked frame, bad UTF-8) here, then closes the socket.
    socket.on('error', (error: Error & { code?: string }) => {
      this.logger.debug({ code: error.code ?? error.name }, 'websocket error');
    });
  }

  get open(): boolean {
    return !this.closing && this.socket.readyState === this.socket.OPEN;
  }

  /** Sends a text frame; false when the socket is not open or was closed for not reading. */
  send(text: string): boolean {
    if (!this.open) return false;
    if (this.socket.bufferedAmount + Buffer.byteLength(text) > this.limits.maxBufferedBytes) {
      this.logger.warn({ buffered: this.socket.bufferedAmount }, 'closing a websocket whose client does not read');
      this.close(WS_CLOSE.tooSlow);
      return false;
    }
    this.socket.send(text, (error) => {
      if (error) this.logger.debug({ code: error.name }, 'websocket send failed');
    });
    return true;
  }

  /** Takes one incoming message from its budget (a token bucket); over budget closes the socket and answers false. */
  admit(now = Date.now(), kind: 'general' | 'signal' = 'general'): boolean {
    if (!this.open) return false;
    const bucket = this.buckets[kind];
    const window = this.limits.messageRateWindowMs;
    bucket.tokens = Math.min(bucket.limit, bucket.tokens + ((now - bucket.refilledAt) * bucket.limit) / window);
    bucket.refilledAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return true;
    }
    this.logger.warn({ kind }, 'closing a websocket over its message rate');
    this.close(WS_CLOSE.rateLimited);
    return false;
  }

  /** Starts the close handshake, and cuts the connection if the client does not answer it in time. */
  close(close: Close): void {
    if (this.closing) return;
    this.closing = true;
    if (this.socket.readyState === this.socket.CLOSED) return;
    this.socket.close(close.code, close.reason);
    const cut = setTimeout(() => this.socket.terminate(), this.limits.closeGraceMs ?? 2000);
    cut.unref();
    this.socket.once('close', () => clearTimeout(cut));
  }
}
