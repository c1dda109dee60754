import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RealtimeClient } from '../../lib/realtime';
import { LOBBY_REFRESH_MS, useCallAttachment, useLobbyAnnouncement, useWaitingInLobby } from './lobbyPresence';

/** A socket the test opens, feeds and drops. */
class FakeSocket {
  readyState = 0;
  sent: Array<{ type: string; appointment_id?: string }> = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  send(text: string) {
    this.sent.push(JSON.parse(text) as { type: string });
  }
  close() {
    this.drop(1000);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

function connected() {
  const sockets: FakeSocket[] = [];
  const client = new RealtimeClient(() => 'ws://test/ws/u', () => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket as unknown as WebSocket;
  });
  client.connect();
  sockets[0]!.open();
  return { client, sockets };
}

const presence = (appointment_id: string, present: boolean) => ({ type: 'lobby_presence', appointment_id, user_id: 'patient-1', role: 'patient', present });

describe('lobby presence on the client', () => {
  it("the dashboard asks about its appointments and follows the server's word live; a drop forgets it and asks again", () => {
    const { client, sockets } = connected();
    const { result } = renderHook(() => useWaitingInLobby(client, ['a1', 'a2']));
    expect(sockets[0]!.sent).toEqual([{ type: 'lobby_watch', appointment_id: 'a1' }, { type: 'lobby_watch', appointment_id: 'a2' }]);
    act(() => sockets[0]!.receive(presence('a2', true)));
    act(() => sockets[0]!.receive(presence('elsewhere', true)));
    expect([...result.current]).toEqual(['a2']);
    act(() => sockets[0]!.receive(presence('a2', false)));
    expect(result.current.size).toBe(0);
    act(() => sockets[0]!.receive(presence('a1', true)));
    act(() => sockets[0]!.drop(1006));
    expect(result.current.size).toBe(0);
    client.connect();
    act(() => sockets[1]!.open());
    expect(sockets[1]!.sent.filter((m) => m.type === 'lobby_watch').map((m) => m.appointment_id)).toEqual(['a1', 'a2']);
    client.disconnect();
  });

  it('the lobby announces itself while active, again after a reconnect, and leaves when it is no longer active', () => {
    const { client, sockets } = connected();
    const { rerender } = renderHook(({ active }) => useLobbyAnnouncement(client, 'a1', active), { initialProps: { active: true } });
    expect(sockets[0]!.sent).toEqual([{ type: 'lobby_enter', appointment_id: 'a1' }]);
    sockets[0]!.drop(1006);
    client.connect();
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ type: 'lobby_enter', appointment_id: 'a1' }]);
    rerender({ active: false });
    expect(sockets[1]!.sent.at(-1)).toEqual({ type: 'lobby_leave', appointment_id: 'a1' });
    client.disconnect();
  });

  it('the call attaches its socket while in the call and again after every reconnect', () => {
    const { client, sockets } = connected();
    const { rerender } = renderHook(({ active }) => useCallAttachment(client, 'a1', active), { initialProps: { active: false } });
    expect(sockets[0]!.sent).toEqual([]);
    rerender({ active: true });
    expect(sockets[0]!.sent).toEqual([{ type: 'call_attach', appointment_id: 'a1' }]);
    sockets[0]!.drop(1006);
    client.connect();
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ type: 'call_attach', appointment_id: 'a1' }]);
    rerender({ active: false });
    client.disconnect();
  });

  it('says presence again every LOBBY_REFRESH_MS while connected (soft state: a lost or overtaken notice heals), and stops when done', () => {
    vi.useFakeTimers();
    try {
      const { client, sockets } = connected();
      const announce = renderHook(() => useLobbyAnnouncement(client, 'a1', true));
      const watch = renderHook(() => useWaitingInLobby(client, ['a2']));
      const count = (type: string) => sockets[0]!.sent.filter((m) => m.type === type).length;
      expect([count('lobby_enter'), count('lobby_watch')]).toEqual([1, 1]);
      act(() => void vi.advanceTimersByTime(LOBBY_REFRESH_MS));
      expect([count('lobby_enter'), count('lobby_watch')]).toEqual([2, 2]);
      announce.unmount();
      watch.unmount();
      act(() => void vi.advanceTimersByTime(3 * LOBBY_REFRESH_MS));
      expect([count('lobby_enter'), count('lobby_watch')]).toEqual([2, 2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
