import { useEffect, useMemo, useState, type RefObject } from 'react';
import type { RealtimeClient } from '../../lib/realtime';
import { consultationApi, type ConsultationView } from './api';
import type { CallConnection } from './connection';
import { useCallAttachment, useLobbyAnnouncement, useWaitingInLobby } from './lobbyPresence';
import { recordedAsGone } from './model';
import type { SignalTransport } from './p2p';
import { SignalInbox } from './signalInbox';
import type { CallPhase } from './useCallPhase';
import { messageOf } from './useConsultation';
import type { CallLog } from './useDebugLog';
import type { JoinedCall } from './useCallConnection';

export interface CallSignallingOptions {
  client: RealtimeClient | null;
  appointmentId: string;
  me: { id: string };
  doctor: boolean;
  phase: CallPhase['phase'];
  phaseRef: RefObject<CallPhase['phase']>;
  consultation: ConsultationView | null;
  joined: JoinedCall | null;
  joinedRef: RefObject<JoinedCall | null>;
  connection: RefObject<CallConnection | null>;
  log: CallLog;
  refresh(): Promise<ConsultationView | null>;
  finish(autoEnded: boolean): void;
  loadMessages(): Promise<void>;
  /** This person joined again from another window or device while in the call here (stable). */
  onReplaced(): void;
  /** Joined again after the server had this person as gone, with this connection (stable). */
  onRejoined(connectionId: string): void;
}

/**
 * The page's side of the app's notification socket: call signals in and out (peer to peer), the consultation's news
 * (joins, leaves, chat, its end), lobby presence both ways, and what a reconnect of the socket has to catch up on.
 */
export function useCallSignalling(options: CallSignallingOptions) {
  const { client, appointmentId, me, doctor, phase, phaseRef, consultation, joined, joinedRef, connection, log, refresh, finish, loadMessages, onReplaced, onRejoined } = options;
  const inbox = useMemo(() => new SignalInbox(), [appointmentId]);
  // A patient who went in first is still waiting for the doctor, and the dashboard says so: announced again once the
  // server has seen the join (the join took them out of the lobby: their own 'joined' update comes after that).
  const [joinSeen, setJoinSeen] = useState(false);

  useEffect(() => {
    if (!client) return;
    const offs = [
      client.on('signal', (signal) => {
        if (signal.appointment_id === appointmentId) inbox.deliver(signal);
      }),
      client.on('signalRefused', (id) => {
        if (id === appointmentId && phaseRef.current === 'call') log('warn', 'The server did not relay a signal (the consultation is not open)');
      }),
      client.on('consultationUpdate', (update) => {
        if (update.appointment_id !== appointmentId) return;
        log('info', `Consultation ${update.event}`, { by: update.user_id === me.id ? 'you' : update.user_id ? 'the other participant' : 'the server' });
        if (update.event === 'message') {
          if (phaseRef.current === 'call') void loadMessages();
          return;
        }
        if (update.event === 'ended' || update.event === 'auto_ended') {
          if (phaseRef.current === 'call' || phaseRef.current === 'lobby') finish(update.auto_ended);
          return;
        }
        void refresh();
        const other = update.user_id !== null && update.user_id !== me.id;
        if (update.event === 'joined' && !other) setJoinSeen(true);
        if (update.event === 'joined' && other) connection.current?.peerJoined();
        if (update.event === 'left' && other) connection.current?.peerLeft();
        const mine = joinedRef.current?.connection_id;
        if (update.event === 'joined' && !other && mine && update.replaced_connection_id === mine && phaseRef.current === 'call') onReplaced();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [client, appointmentId, inbox, me.id, log, refresh, finish, loadMessages, onReplaced, phaseRef, joinedRef, connection]);

  // Waiting in the lobby is announced to the other participant (the doctor's dashboard shows the patient waiting).
  useLobbyAnnouncement(client, appointmentId, phase === 'lobby' && consultation?.status !== 'ended');
  const doctorPresent = Boolean(consultation?.participants.some((p) => p.role === 'doctor' && p.present));
  useLobbyAnnouncement(client, appointmentId, !doctor && phase === 'call' && joinSeen && !doctorPresent && consultation?.status !== 'ended');
  // In the lobby, whether the other participant is in theirs too (the server tells this appointment's participants only).
  const otherInLobby = useWaitingInLobby(client, phase === 'lobby' ? [appointmentId] : []).has(appointmentId);
  // In the call, this tab's socket carries it: a drop not followed by a reconnect within the server's grace ends our presence.
  useCallAttachment(client, appointmentId, phase === 'call' && joined !== null);

  // Back from a drop, what was said meanwhile was lost: an end (by the other side, or the limit) is read from the record
  // and shown; chat is read again; a peer connection not carrying media starts over (its signals were lost); and
  // after a drop longer than the server's grace the server has this person as gone: join again, so the other side sees them.
  const provider = joined?.provider;
  useEffect(() => {
    if (!client || phase !== 'call' || !provider) return;
    return client.on('connected', () => {
      if (provider === 'p2p') connection.current?.signallingRestored?.();
      void loadMessages();
      void refresh().then(async (view) => {
        if (phaseRef.current !== 'call' || !view) return;
        if (view.status === 'ended') {
          finish(view.auto_ended);
          return;
        }
        if (provider !== 'p2p' || !recordedAsGone(view, me.id)) return;
        log('warn', 'The server had recorded this connection as gone while the socket was away: joining again');
        try {
          const answer = await consultationApi.join(appointmentId);
          onRejoined(answer.connection_id);
        } catch (error) {
          log('error', 'Could not join again', { error: messageOf(error) });
        }
      });
    });
  }, [client, phase, provider, refresh, finish, loadMessages, me.id, log, appointmentId, phaseRef, connection, onRejoined]);

  const transport = useMemo<SignalTransport | null>(
    () =>
      client && {
        // Not queued while the socket is down: a stale offer or candidate flushed later would only confuse a
        // negotiation that starts over when the socket is back.
        send: (signal) => {
          if (client.state === 'connected') client.send(signal);
        },
        subscribe: (handler) => inbox.subscribe(handler),
      },
    [client, inbox],
  );

  return { transport, otherInLobby, doctorPresent, resetJoinSeen: () => setJoinSeen(false) };
}
