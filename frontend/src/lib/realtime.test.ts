import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME, RealtimeClient, reconnectDelay } from './realtime';

/** A socket the test drives: open, message, close. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code = 1000, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const client = () => new RealtimeClient(() => 'ws://test/ws/u', (url) => new FakeSocket(url) as unknown as WebSocket);

describe('real-time client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  it('asks for each connection\'s address first (a socket ticket): a fresh one per attempt, and a failed ask counts as a drop', async () => {
    let asked = 0;
    let fail = false;
    const c = new RealtimeClient(
      async () => {
        asked += 1;
        if (fail) throw new Error('offline');
        return `ws://test/ws/u?token=ticket-${asked}`;
      },
      (url) => new FakeSocket(url) as unknown as WebSocket,
    );
    c.connect();
    c.connect(); // still asking: no second ask, no second socket
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toBe(1);
    expect(FakeSocket.all.map((s) => s.url)).toEqual(['ws://test/ws/u?token=ticket-1']);
    FakeSocket.all[0]!.open();
    fail = true;
    FakeSocket.all[0]!.drop(1006);
    await vi.advanceTimersByTimeAsync(2000); // the first retry comes 1 to 2 s after a drop
    expect(asked).toBe(2);
    expect(FakeSocket.all.length).toBe(1);
    expect(c.state).toBe('disconnected');
    fail = false;
    await vi.advanceTimersByTimeAsync(3000); // the second, 2 to 3 s after the failed ask
    expect(FakeSocket.all.map((s) => s.url)).toEqual(['ws://test/ws/u?token=ticket-1', 'ws://test/ws/u?token=ticket-3']);
  });

  it('backs off 1 s doubling with up to 1 s of jitter, capped at 30 s', () => {
    expect(reconnectDelay(1, () => 0)).toBe(1000);
    expect(reconnectDelay(2, () => 0.5)).toBe(2500);
    expect(reconnectDelay(5, () => 0)).toBe(16_000);
    expect(reconnectDelay(6, () => 1)).toBe(30_000);
  });

  it('reconnects at most 5 times after abnormal closes, and resets after a success', () => {
    const c = client();
    c.connect();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    for (let i = 1; i <= REALTIME.maxReconnects; i += 1) {
      vi.advanceTimersByTime(31_000);
      expect(FakeSocket.all.length).toBe(i + 1);
      FakeSocket.all[i]!.drop(1006);
    }
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.length).toBe(REALTIME.maxReconnects + 1);
  });

  it('connects at once when the network is back, even with its attempts spent, but never after a logout or an authentication close', () => {
    const c = client();
    c.connect();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    for (let i = 1; i <= REALTIME.maxReconnects; i += 1) {
      vi.advanceTimersByTime(31_000);
      FakeSocket.all[i]!.drop(1006);
    }
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.length).toBe(REALTIME.maxReconnects + 1);
    c.reconnectNow();
    expect(FakeSocket.all.length).toBe(REALTIME.maxReconnects + 2);
    c.reconnectNow(); // already connecting: no second socket
    expect(FakeSocket.all.length).toBe(REALTIME.maxReconnects + 2);
    FakeSocket.all.at(-1)!.open();
    FakeSocket.all.at(-1)!.drop(4002);
    c.reconnectNow();
    expect(FakeSocket.all.length).toBe(REALTIME.maxReconnects + 2);

    const other = client();
    other.connect();
    const first = FakeSocket.all.length;
    FakeSocket.all.at(-1)!.open();
    other.disconnect();
    other.reconnectNow();
    expect(FakeSocket.all.length).toBe(first);
  });

  it('does not reconnect after a normal close or an authentication close, which it reports', () => {
    const c = client();
    const authErrors: number[] = [];
    c.on('authenticationError', (code) => authErrors.push(code));
    c.connect();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4002);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.length).toBe(1);
    expect(authErrors).toEqual([4002]);
    c.connect();
    FakeSocket.all[1]!.open();
    FakeSocket.all[1]!.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.length).toBe(2);
  });

  it('queues messages while offline, flushes on connect, and beats every 30 s', () => {
    const c = client();
    for (let i = 0; i < REALTIME.maxQueued + 5; i += 1) c.send({ type: 'heartbeat', timestamp: String(i) });
    c.connect();
    FakeSocket.all[0]!.open();
    const flushed = FakeSocket.all[0]!.sent.map((s) => JSON.parse(s).timestamp);
    expect(flushed).toHaveLength(REALTIME.maxQueued);
    expect(flushed.at(-1)).toBe(String(REALTIME.maxQueued + 4));
    vi.advanceTimersByTime(REALTIME.heartbeatMs);
    expect(JSON.parse(FakeSocket.all[0]!.sent[1]!).type).toBe('heartbeat');
  });

  it('turns messages into events', () => {
    const c = client();
    const seen: string[] = [];
    c.on('appointmentStatusChange', (status) => seen.push(`status:${status}`));
    c.on('appointmentRequest', (data) => seen.push(`request:${String(data.patient_name)}`));
    c.connect();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.onmessage?.({ data: JSON.stringify({ type: 'appointment_status_change', event_id: 'e1', status: 'approved', data: { appointment_id: 'a1' } }) });
    FakeSocket.all[0]!.onmessage?.({ data: JSON.stringify({ type: 'appointment_request', event_id: 'e2', data: { appointment_id: 'a2', patient_name: 'Neha' } }) });
    for (const odd of ['not json', 'null', '[]', '42', '{"type":"appointment_request"}', '{"type":"appointment_status_change","data":{}}', '{"type":"appointment_status_change","event_id":"e3","status":"lost","data":{"appointment_id":"a1"}}']) {
      FakeSocket.all[0]!.onmessage?.({ data: odd });
    }
    expect(seen).toEqual(['status:approved', 'request:Neha']);
  });

  it('does not reconnect when the server closed the oldest of too many sockets', () => {
    const c = client();
    c.connect();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4009);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all.length).toBe(1);
  });

  it('closes with 1000 and the seeds’ reason when the user disconnects', () => {
    const c = client();
    c.connect();
    const socket = FakeSocket.all[0]!;
    socket.open();
    const close = vi.spyOn(socket, 'close');
    c.disconnect();
    expect(close).toHaveBeenCalledWith(1000, 'User initiated disconnect');
  });
  it('passes consultation signalling and updates to the call page (the same socket, no second one)', () => {
    const c = client();
    const seen: string[] = [];
    c.on('signal', (m) => seen.push(`signal:${m.type}:${m.from_user_id}`));
    c.on('consultationUpdate', (d) => seen.push(`update:${d.event}:${d.appointment_id}`));
    c.on('signalRefused', (id) => seen.push(`refused:${id}`));
    c.connect();
    const socket = FakeSocket.all[0]!;
    socket.open();
    socket.onmessage?.({ data: JSON.stringify({ type: 'rtc_offer', appointment_id: 'a1', sdp: 'v=0', from_user_id: 'doc' }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'rtc_hang_up', appointment_id: 'a1', from_user_id: 'doc' }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'rtc_refused', appointment_id: 'a1', detail: 'no' }) });
    socket.onmessage?.({ data: JSON.stringify({ type: 'consultation_update', event_id: 'e1', data: { appointment_id: 'a1', event: 'auto_ended', user_id: null, connection_id: null, replaced_connection_id: null, status: 'ended', started_at: '2026-12-06T10:00:00Z', ends_at: '2026-12-06T10:30:00Z', occurred_at: '2026-12-06T10:30:00Z', auto_ended: true, message_id: null } }) });
    for (const odd of ['{"type":"rtc_offer","sdp":"v=0","from_user_id":"doc"}', '{"type":"rtc_answer","appointment_id":"a1","sdp":"v=0"}', '{"type":"consultation_update"}', '{"type":"consultation_update","event_id":"e2","data":{"appointment_id":"a1","event":"auto_ended"}}']) {
      socket.onmessage?.({ data: odd });
    }
    expect(seen).toEqual(['signal:rtc_offer:doc', 'signal:rtc_hang_up:doc', 'refused:a1', 'update:auto_ended:a1']);
    c.send({ type: 'rtc_answer', appointment_id: 'a1', sdp: 'v=0' });
    expect(JSON.parse(socket.sent.at(-1)!)).toEqual({ type: 'rtc_answer', appointment_id: 'a1', sdp: 'v=0' });
  });
});
