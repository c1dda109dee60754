/** The real-time client: the seeds' connection states, reconnect rules, heartbeat and offline queue. */
import { parseServerMessage, type ClientMessage, type ServerMessage } from '@telemed/contracts/realtime';

/** A peer-to-peer signal of a consultation, as the server relays it from the other participant. */
export type RelayedSignal = Extract<ServerMessage, { from_user_id: string }>;
/** What the server says about a consultation the user takes part in (joins, leaves, the end, chat). */
export type ConsultationUpdate = Extract<ServerMessage, { type: 'consultation_update' }>['data'];
/** The other participant of a confirmed appointment entered or left its lobby. */
export type LobbyPresence = Omit<Extract<ServerMessage, { type: 'lobby_presence' }>, 'type'>;
type StatusChange = Extract<ServerMessage, { type: 'appointment_status_change' }>;
import { WS_AUTH_CLOSE_CODES, WS_CLOSE, WS_TERMINAL_CLOSE_CODES } from '@telemed/contracts/realtime';

export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'error';

export const REALTIME = {
  maxReconnects: 5,
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  heartbeatMs: 30_000,
  authCloseCodes: WS_AUTH_CLOSE_CODES,
  /** Messages kept while offline, newest last; older ones are dropped. */
  maxQueued: 20,
} as const;

export interface RealtimeEvents {
  connected: () => void;
  disconnected: (code: number) => void;
  error: () => void;
  authenticationError: (code: number, reason: string) => void;
  appointmentStatusChange: (status: StatusChange['status'], data: StatusChange['data']) => void;
  appointmentRequest: (data: Extract<ServerMessage, { type: 'appointment_request' }>['data']) => void;
  /** The doctor's schedule changed without their own action (a slot was freed). */
  scheduleUpdate: (data: Extract<ServerMessage, { type: 'schedule_update' }>['data']) => void;
  /** The patient's waitlist place changed: a slot is held for them, the hold ended, or the place closed. */
  waitlistUpdate: (data: Extract<ServerMessage, { type: 'waitlist_update' }>['data']) => void;
  /** Consultation signalling from the other participant (offer, answer, ICE candidate, hang-up). */
  signal: (message: RelayedSignal) => void;
  /** The server would not relay a signal (the consultation is not open to this user). */
  signalRefused: (appointmentId: string) => void;
  consultationUpdate: (data: ConsultationUpdate) => void;
  lobbyPresence: (presence: LobbyPresence) => void;
  state: (state: ConnectionState) => void;
}

type Listener<K extends keyof RealtimeEvents> = RealtimeEvents[K];

/** Delay before reconnect attempt n (1-based): 1 s doubling, plus up to 1 s of jitter, at most 30 s. */
export function reconnectDelay(attempt: number, random = Math.random): number {
  return Math.min(REALTIME.initialDelayMs * 2 ** (attempt - 1) + random() * 1000, REALTIME.maxDelayMs);
}

export class RealtimeClient {
  private socket: WebSocket | null = null;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly queue: string[] = [];
  private readonly listeners = new Map<keyof RealtimeEvents, Set<(...args: never[]) => void>>();
  private closedByUser = false;
  /** Closed with a code after which it must not reconnect (authentication, too many sockets). */
  private refused = false;
  state: ConnectionState = 'disconnected';

  /** Waiting for the address to connect to (a socket ticket being fetched). */
  private opening = false;

  /**
   * @param url the socket's address; a promise when it needs asking for first (the app's: a socket ticket, so that
   * no access token is ever in an address the browser may print). One that fails counts as a dropped connection.
   */
  constructor(
    private readonly url: () => string | Promise<string>,
    private readonly createSocket: (url: string) => WebSocket = (url) => new WebSocket(url),
  ) {}

  on<K extends keyof RealtimeEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (...args: never[]) => void);
    return () => set.delete(listener as (...args: never[]) => void);
  }

  private emit<K extends keyof RealtimeEvents>(event: K, ...args: Parameters<RealtimeEvents[K]>) {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: Parameters<RealtimeEvents[K]>) => void)(...args);
  }

  private setState(state: ConnectionState) {
    this.state = state;
    this.emit('state', state);
  }

  connect(): void {
    this.closedByUser = false;
    this.refused = false;
    if ((this.socket && this.socket.readyState <= 1) || this.opening) return;
    this.setState('connecting');
    let url: string | Promise<string>;
    try {
      url = this.url();
    } catch {
      return this.closed(1006, '');
    }
    if (typeof url === 'string') return this.open(url);
    this.opening = true;
    url.then(
      (address) => {
        this.opening = false;
        if (!this.closedByUser) this.open(address);
      },
      () => {
        this.opening = false;
        if (!this.closedByUser) this.closed(1006, '');
      },
    );
  }

  private open(url: string): void {
    const socket = this.createSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.setState('connected');
      this.emit('connected');
      while (this.queue.length > 0 && socket.readyState === 1) socket.send(this.queue.shift()!);
      this.heartbeat = setInterval(() => this.send({ type: 'heartbeat', timestamp: new Date().toISOString() }), REALTIME.heartbeatMs);
    };
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onerror = () => {
      this.setState('error');
      this.emit('error');
    };
    socket.onclose = (event) => this.closed(event.code, event.reason);
  }

  private receive(raw: string) {
    const message = parseServerMessage(raw);
    if (message?.type === 'appointment_status_change') this.emit('appointmentStatusChange', message.status, message.data);
    else if (message?.type === 'appointment_request') this.emit('appointmentRequest', message.data);
    else if (message?.type === 'schedule_update') this.emit('scheduleUpdate', message.data);
    else if (message?.type === 'waitlist_update') this.emit('waitlistUpdate', message.data);
    else if (message?.type === 'consultation_update') this.emit('consultationUpdate', message.data);
    else if (message?.type === 'rtc_refused') this.emit('signalRefused', message.appointment_id);
    else if (message?.type === 'lobby_presence') {
      const { appointment_id, user_id, role, present } = message;
      this.emit('lobbyPresence', { appointment_id, user_id, role, present });
    }
    else if (message && 'from_user_id' in message) this.emit('signal', message);
  }

  private closed(code: number, reason: string) {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.socket = null;
    this.setState('disconnected');
    this.emit('disconnected', code);
    if (REALTIME.authCloseCodes.includes(code)) {
      this.refused = true;
      this.emit('authenticationError', code, reason);
      return;
    }
    if (WS_TERMINAL_CLOSE_CODES.includes(code)) {
      this.refused = true;
      return;
    }
    if (code === 1000 || this.closedByUser) return;
    if (this.attempts >= REALTIME.maxReconnects) return;
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), reconnectDelay(this.attempts));
  }

  /** Sends now, or queues until connected. */
  send(message: ClientMessage): void {
    const text = JSON.stringify(message);
    if (this.socket && this.socket.readyState === 1) this.socket.send(text);
    else {
      this.queue.push(text);
      if (this.queue.length > REALTIME.maxQueued) this.queue.shift();
    }
  }

  /**
   * Connects now if the socket is down and may come back (the browser says the network is back): after a long drop
   * the automatic attempts may be spent or a long back-off away. Never after a logout or an authentication refusal.
   */
  reconnectNow(): void {
    if (this.closedByUser || this.refused || this.socket || this.opening) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.attempts = 0;
    this.connect();
  }

  disconnect(): void {
    this.closedByUser = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.close(WS_CLOSE.userInitiated.code, WS_CLOSE.userInitiated.reason);
  }
}
