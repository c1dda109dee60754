import { useEffect, useState } from 'react';
import type { ClientMessage } from '@telemed/contracts';
import type { RealtimeClient } from '../../lib/realtime';

/** What the doctor's dashboard says of a patient waiting in a consultation's lobby. */
export const LOBBY_TEXTS = {
  patientWaiting: (name: string) => `${name} is waiting in the consultation lobby`,
  waitingChip: 'Patient waiting',
  goToCall: 'Go to call',
} as const;

/**
 * Presence is soft state, said again this often while a socket is open: a notice lost between replicas (the transient
 * bus delivers at most once) or overtaken by a join the server recorded late heals within this time.
 */
export const LOBBY_REFRESH_MS = 10_000;

/**
 * Sends now when the socket is open, and again every time it (re)connects: the server forgets a closed socket's
 * presence. With `refreshMs`, also again that often while connected.
 */
function onEveryConnection(client: RealtimeClient, messages: () => ClientMessage[], refreshMs?: number): () => void {
  const sendAll = () => messages().forEach((m) => client.send(m));
  if (client.state === 'connected') sendAll();
  const off = client.on('connected', sendAll);
  const timer = refreshMs === undefined ? null : setInterval(() => client.state === 'connected' && sendAll(), refreshMs);
  return () => {
    off();
    if (timer) clearInterval(timer);
  };
}

/**
 * While `active`, this person is announced in the appointment's lobby (the other participant sees them waiting); it
 * leaves the lobby when no longer active (the call starts, the page closes).
 */
export function useLobbyAnnouncement(client: RealtimeClient | null, appointmentId: string, active: boolean): void {
  useEffect(() => {
    if (!client || !appointmentId || !active) return;
    const off = onEveryConnection(client, () => [{ type: 'lobby_enter', appointment_id: appointmentId }], LOBBY_REFRESH_MS);
    return () => {
      off();
      if (client.state === 'connected') client.send({ type: 'lobby_leave', appointment_id: appointmentId });
    };
  }, [client, appointmentId, active]);
}

/**
 * While in the call, this tab's socket is attached to it, again after every reconnect: in a peer-to-peer call the
 * server records a participant whose socket drops and is not attached again within its grace as gone.
 */
export function useCallAttachment(client: RealtimeClient | null, appointmentId: string, active: boolean): void {
  useEffect(() => {
    if (!client || !appointmentId || !active) return;
    return onEveryConnection(client, () => [{ type: 'call_attach', appointment_id: appointmentId }]);
  }, [client, appointmentId, active]);
}

/** The ids among `appointmentIds` whose other participant is waiting in the lobby now, kept live by the server. */
export function useWaitingInLobby(client: RealtimeClient | null, appointmentIds: string[]): ReadonlySet<string> {
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(new Set());
  const key = appointmentIds.join(',');
  useEffect(() => {
    if (!client || !key) return;
    const ids = key.split(',');
    const offs = [
      client.on('lobbyPresence', ({ appointment_id, present }) => {
        if (!ids.includes(appointment_id)) return;
        setWaiting((current) => {
          if (current.has(appointment_id) === present) return current;
          const next = new Set(current);
          if (present) next.add(appointment_id);
          else next.delete(appointment_id);
          return next;
        });
      }),
      // A socket that dropped lost every notice meanwhile: forget what was known and ask again.
      client.on('disconnected', () => setWaiting(new Set())),
      onEveryConnection(client, () => ids.map((id) => ({ type: 'lobby_watch', appointment_id: id })), LOBBY_REFRESH_MS),
    ];
    return () => offs.forEach((off) => off());
  }, [client, key]);
  return waiting;
}
