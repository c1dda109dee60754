import { useCallback, useEffect, useRef, useState } from 'react';
import { useT, type MessageId } from '../../i18n/useT';
import { consultationApi, leaveOnUnload, type JoinConsultationResponse } from './api';
import type { CallConnection, RemoteMedia } from './connection';
import { VIDEO_TEXTS, type CallStatus } from './model';
import { PeerCall, type SignalTransport } from './p2p';
import { messageOf } from './useConsultation';
import type { CallLog } from './useDebugLog';
// Types only: the LiveKit code (livekit-client, components-react) is in a chunk loaded for LiveKit calls alone.
import type { LiveKitCall, LiveKitCallView } from './livekit';

/** The server's answer to the join, with how far this browser's clock is behind the server's. */
export type JoinedCall = JoinConsultationResponse & { offset: number };
/** A LiveKit call's room and its view (from the lazily loaded chunk). */
export interface LiveKitRoom {
  room: LiveKitCall['room'];
  View: typeof LiveKitCallView;
}

const NO_REMOTE: RemoteMedia = { stream: null, audio: true, video: true };

/** A call that cannot be connected for a reason of this page's own, said by a message id (its English is the error's message). */
export class CallSetupError extends Error {
  constructor(
    readonly id: MessageId,
    english: string,
  ) {
    super(english);
    this.name = 'CallSetupError';
  }
}

/**
 * The connection that carries the call (peer to peer over the notification socket, or LiveKit), what it reports, and
 * this person's microphone, camera and audio-only switches. Leaving the page leaves the consultation (this connection
 * only): on `pagehide` while `inCall`, and when the page goes.
 */
export function useCallConnection({ appointmentId, doctor, inCall, token, log, onError }: { appointmentId: string; doctor: boolean; inCall: boolean; token: string | null; log: CallLog; onError(text: string): void }) {
  const t = useT();
  const connection = useRef<CallConnection | null>(null);
  const [joined, setJoined] = useState<JoinedCall | null>(null);
  const joinedRef = useRef(joined);
  joinedRef.current = joined;
  const [status, setStatus] = useState<CallStatus>('connecting');
  const [remote, setRemote] = useState<RemoteMedia>(NO_REMOTE);
  const [poorQuality, setPoorQuality] = useState(false);
  /** Null for peer to peer. */
  const [liveKit, setLiveKit] = useState<LiveKitRoom | null>(null);
  const [microphone, setMicrophone] = useState(true);
  const [camera, setCamera] = useState(true);
  const [audioOnly, setAudioOnly] = useState(false);

  const close = useCallback(() => {
    connection.current?.close();
    connection.current = null;
  }, []);
  /** The call is over: nothing is connected any more. */
  const hangUp = useCallback(() => {
    close();
    setStatus('disconnected');
    setRemote(NO_REMOTE);
  }, [close]);
  /** Back to the lobby (this person joined elsewhere): this window's call is forgotten. */
  const stepBack = useCallback(() => {
    close();
    setLiveKit(null);
    setJoined(null);
  }, [close]);
  /** Joined again after the server had this person as gone: their new connection. */
  const rejoined = useCallback((connectionId: string) => setJoined((current) => current && { ...current, connection_id: connectionId }), []);
  /** Before a join: whatever carried an earlier call is forgotten. */
  const prepare = () => {
    setLiveKit(null);
    setStatus('connecting');
  };

  /** Connects the joined call; throws when it cannot. */
  const connect = async ({ answer, localStream, transport, otherPresent }: { answer: JoinedCall; localStream: MediaStream; transport: SignalTransport | null; otherPresent: boolean }) => {
    if (answer.provider === 'livekit') {
      if (!answer.url || !answer.token) throw new CallSetupError('video.noConnectPlace', 'the server did not say where to connect');
      const { connectLiveKit, LiveKitCallView: View } = await import('./livekit');
      const call = await connectLiveKit({ url: answer.url, token: answer.token, localStream, log, microphone, camera });
      connection.current = call;
      setLiveKit({ room: call.room, View });
      return;
    }
    if (!transport) throw new CallSetupError('video.socketNotOpen', 'the notification connection is not open');
    const call = new PeerCall({
      appointmentId,
      iceServers: answer.ice_servers,
      polite: !doctor,
      localStream,
      transport,
      events: { status: setStatus, remote: setRemote, log, quality: setPoorQuality },
      microphone,
      camera,
      peerPresent: otherPresent,
    });
    call.start();
    connection.current = call;
    setStatus(otherPresent ? 'connecting' : 'connected');
  };

  const toggle = (kind: 'microphone' | 'camera' | 'audioOnly') => {
    try {
      if (kind === 'microphone') {
        connection.current?.setMicrophone(!microphone);
        setMicrophone(!microphone);
      } else if (kind === 'camera') {
        connection.current?.setCamera(!camera);
        setCamera(!camera);
      } else {
        connection.current?.setAudioOnly(!audioOnly);
        setAudioOnly(!audioOnly);
      }
    } catch (error) {
      // Said in the chosen language; logged in English, as every line of the debug console.
      onError(t(kind === 'microphone' ? 'video.toggleMicrophone' : 'video.toggleCamera'));
      log('error', kind === 'microphone' ? VIDEO_TEXTS.toggleMicrophone : VIDEO_TEXTS.toggleCamera, { error: messageOf(error) });
    }
  };

  useEffect(() => {
    if (!inCall || !joined || token === null) return;
    const onHide = () => leaveOnUnload(appointmentId, joined.connection_id, token);
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [inCall, joined, token, appointmentId]);
  useEffect(
    () => () => {
      if (connection.current) {
        connection.current.close();
        connection.current = null;
        const id = joinedRef.current?.connection_id;
        if (id) void consultationApi.leave(appointmentId, id).catch(() => {});
      }
    },
    [appointmentId],
  );

  return {
    connection,
    joined,
    joinedRef,
    setJoined,
    status,
    setStatus,
    remote,
    poorQuality,
    liveKit,
    switches: { microphone, camera, audioOnly },
    prepare,
    connect,
    toggle,
    hangUp,
    stepBack,
    rejoined,
  };
}
