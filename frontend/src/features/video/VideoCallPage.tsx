import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Box } from '@mui/material';
import { ApiError } from '../../lib/api';
import { isDoctor, useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { browserZone } from '../../lib/time';
import { useRealtime } from '../../app/RealtimeProvider';
import { consultationApi, leaveOnUnload, type ChatMessage, type ConsultationView, type JoinConsultationResponse } from './api';
import { CallView, type CallViewProps } from './CallView';
import { Chat } from './Chat';
import type { CallConnection, RemoteMedia } from './connection';
import { DebugConsole } from './DebugConsole';
import { Lobby } from './Lobby';
import {
  CONSULTATION_SUMMARY_DELAY_MS,
  VIDEO_TEXTS,
  appendLog,
  buildSummary,
  callClock,
  clockOffset,
  inLocalTime,
  recordedAsGone,
  roleDisplayName,
  type CallStatus,
  type CallSummary,
  type DebugEntry,
  type LogLevel,
} from './model';
import { PeerCall, type SignalTransport } from './p2p';
import { SignalInbox } from './signalInbox';
import { Summary } from './Summary';
import { useLocalMedia } from './useLocalMedia';
import { useCallAttachment, useLobbyAnnouncement, useWaitingInLobby } from './lobbyPresence';
import { useAppointmentContext } from './appointmentContext';
import { useLeaveCallGuard } from './LeaveCallGuard';
// Types only: the LiveKit code (livekit-client, components-react) is in a chunk loaded for LiveKit calls alone.
import type { LiveKitCall, LiveKitCallView } from './livekit';

type Phase = 'lobby' | 'call' | 'leaving' | 'summary';
const NO_REMOTE: RemoteMedia = { stream: null, audio: true, video: true };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * `/video-call?appointment_id=…` (seed 001 §2, issue 13): the lobby, the call and the summary of one appointment's
 * consultation, with the server deciding who may join, when it started and when it ends.
 */
export function VideoCallPage() {
  const [params] = useSearchParams();
  const appointmentId = params.get('appointment_id') ?? '';
  const session = useSession();
  const user = session?.user;
  const me = useMemo(() => ({ id: user?.user_id ?? user?.id ?? '', name: user?.name ?? 'You', role: user?.account_type === 'doctor' ? 'DOCTOR' : 'USER' }), [user]);
  const doctor = isDoctor(user);
  const { client, state: socketState } = useRealtime();
  const navigate = useNavigate();
  const toasts = useToasts();

  const [logs, setLogs] = useState<DebugEntry[]>([]);
  const log = useCallback((level: LogLevel, message: string, data?: Record<string, unknown>) => setLogs((all) => appendLog(all, level, message, data)), []);
  const media = useLocalMedia(log);
  // The media object is new at every render; what ends the call reads it through a ref so it stays stable.
  const mediaRef = useRef(media);
  mediaRef.current = media;

  const [phase, setPhase] = useState<Phase>('lobby');
  const [pageError, setPageError] = useState<string | null>(null);
  const [lobbyError, setLobbyError] = useState<string | null>(null);
  const [joining, setJoining] = useState(false);
  const [debugOpen, setDebugOpen] = useState(false);
  const [consultation, setConsultation] = useState<ConsultationView | null>(null);
  const [joined, setJoined] = useState<(JoinConsultationResponse & { offset: number }) | null>(null);
  const [status, setStatus] = useState<CallStatus>('connecting');
  const [remote, setRemote] = useState<RemoteMedia>(NO_REMOTE);
  const [microphone, setMicrophone] = useState(true);
  const [camera, setCamera] = useState(true);
  const [audioOnly, setAudioOnly] = useState(false);
  const [poorQuality, setPoorQuality] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  // Seed 001 §4: the warning shows once; its dismissal outlives a reload of the page.
  const warningKey = `consultation-warning-dismissed:${appointmentId}`;
  const [warningDismissed, setWarningDismissedState] = useState(() => sessionStorage.getItem(warningKey) === '1');
  const setWarningDismissed = (dismissed: boolean) => {
    setWarningDismissedState(dismissed);
    if (dismissed) sessionStorage.setItem(warningKey, '1');
  };
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [summary, setSummary] = useState<CallSummary | null>(null);
  const [ending, setEnding] = useState(false);
  /** A LiveKit call's room and its view (from the lazily loaded chunk); null for peer to peer. */
  const [liveKit, setLiveKit] = useState<{ room: LiveKitCall['room']; View: typeof LiveKitCallView } | null>(null);

  const connection = useRef<CallConnection | null>(null);
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  const joinedRef = useRef(joined);
  joinedRef.current = joined;
  const inbox = useMemo(() => new SignalInbox(), [appointmentId]);
  const finishing = useRef(false);
  const pageRef = useRef<HTMLDivElement>(null);
  // In a call, the app's own navigation asks before it leaves the consultation.
  useLeaveCallGuard(phase === 'call', pageRef);
  // With whom and when: the lobby says it, and the call names the other side before they have joined.
  const appointment = useAppointmentContext(appointmentId);

  /** A critical error: said, then back to the appointments (seed 001 §8). */
  const critical = useCallback(
    (message: string) => {
      toasts.show({ type: 'error', title: VIDEO_TEXTS.pageError(message), duration: 8000 });
      navigate('/my-appointments', { replace: true });
    },
    [navigate, toasts],
  );

  const refresh = useCallback(async () => {
    try {
      const view = await consultationApi.get(appointmentId);
      setConsultation(view);
      return view;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) critical(error.detail);
      else log('warn', 'Could not read the consultation', { error: messageOf(error) });
      return null;
    }
  }, [appointmentId, critical, log]);

  // The consultation as it stands when the page opens: an ended one goes straight to its summary.
  useEffect(() => {
    if (!appointmentId) {
      critical('No appointment was given');
      return;
    }
    log('info', 'Video call page opened', { provider_check: 'pending' });
    void refresh().then((view) => {
      if (view?.status === 'ended') {
        setPhase('summary');
        setSummary(buildSummary({ record: view, me, autoEnded: view.auto_ended, timeZone: browserZone() }));
      }
    });
    // Runs once per appointment (`me` and the callbacks do not change the answer).
  }, [appointmentId]);

  const loadMessages = useCallback(async () => {
    try {
      const { messages: next } = await consultationApi.messages(appointmentId, messagesRef.current.at(-1)?.message_id);
      if (next.length > 0) setMessages((all) => [...all, ...next.filter((m) => !all.some((x) => x.message_id === m.message_id))]);
    } catch (error) {
      log('warn', 'Could not load chat messages', { error: messageOf(error) });
    }
  }, [appointmentId, log]);

  const finish = useCallback(
    (autoEnded: boolean) => {
      if (finishing.current) return;
      finishing.current = true;
      connection.current?.close();
      connection.current = null;
      mediaRef.current.stop();
      setStatus('disconnected');
      setRemote(NO_REMOTE);
      setPhase('leaving');
      log('info', autoEnded ? 'The consultation ended at its time limit' : 'The consultation ended');
      const record = refresh();
      setTimeout(() => {
        setPhase('summary');
        void record.then((view) => setSummary(buildSummary({ record: view, me, autoEnded, timeZone: browserZone() })));
      }, CONSULTATION_SUMMARY_DELAY_MS);
    },
    [log, me, refresh],
  );

  // Signals and consultation news over the app's notification socket.
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
        if (update.event === 'joined' && !other && mine && update.replaced_connection_id === mine && phaseRef.current === 'call') {
          // This person joined again elsewhere: this window steps back to the lobby.
          connection.current?.close();
          connection.current = null;
          setLiveKit(null);
          setJoined(null);
          setPhase('lobby');
          setLobbyError('You joined this consultation from another window or device, so this one has left the call.');
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [client, appointmentId, inbox, me.id, log, refresh, finish, loadMessages]);

  // Waiting in the lobby is announced to the other participant (the doctor's dashboard shows the patient waiting).
  useLobbyAnnouncement(client, appointmentId, phase === 'lobby' && consultation?.status !== 'ended');
  // A patient who went in first is still waiting for the doctor, and the dashboard says so: announced again once the
  // server has seen the join (the join took them out of the lobby: their own 'joined' update comes after that).
  const [joinSeen, setJoinSeen] = useState(false);
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
          setJoined((current) => current && { ...current, connection_id: answer.connection_id });
        } catch (error) {
          log('error', 'Could not join again', { error: messageOf(error) });
        }
      });
    });
  }, [client, phase, provider, refresh, finish, loadMessages, me.id, log, appointmentId]);

  // While the patient waits for the doctor, or the socket is down, the state is read again now and then.
  const waitingForDoctor = !doctor && !doctorPresent && consultation?.status !== 'ended';
  useEffect(() => {
    if (phase !== 'lobby' || !waitingForDoctor) return;
    const timer = setInterval(() => void refresh(), socketState === 'connected' ? 15_000 : 5000);
    return () => clearInterval(timer);
  }, [phase, waitingForDoctor, socketState, refresh]);

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

  const start = async () => {
    if (!media.stream || !media.cameraReady || !media.microphoneReady) {
      setLobbyError(VIDEO_TEXTS.permissionsNeeded);
      return;
    }
    setJoining(true);
    setJoinSeen(false);
    setLiveKit(null);
    setLobbyError(null);
    setStatus('connecting');
    const sentAt = Date.now();
    let answer: JoinConsultationResponse;
    try {
      answer = await consultationApi.join(appointmentId);
    } catch (error) {
      setJoining(false);
      if (error instanceof ApiError && error.status === 404) return critical(error.detail);
      // The server's own words for a window not open yet or an ended call (409), its times in the person's own.
      setLobbyError(error instanceof ApiError && error.status === 409 ? inLocalTime(error.detail) : VIDEO_TEXTS.joinFailure(messageOf(error)));
      log('error', 'Join refused', { status: error instanceof ApiError ? error.status : null });
      return;
    }
    const offset = clockOffset(answer.server_time, sentAt, Date.now());
    // Connection facts only: never the token or the TURN credentials.
    log('info', 'Joined the consultation', { provider: answer.provider, room: answer.room, started_at: answer.started_at, ends_at: answer.ends_at, ice_servers: answer.ice_servers.length, clock_offset_ms: Math.round(offset) });
    finishing.current = false;
    setJoined({ ...answer, offset });
    setNow(Date.now());
    const view = await refresh();
    const otherPresent = Boolean(view?.participants.some((p) => p.user_id !== me.id && p.present));
    const events = {
      status: setStatus,
      remote: setRemote,
      log,
      quality: setPoorQuality,
    };
    try {
      if (answer.provider === 'livekit') {
        if (!answer.url || !answer.token) throw new Error('the server did not say where to connect');
        const { connectLiveKit, LiveKitCallView: View } = await import('./livekit');
        const call = await connectLiveKit({ url: answer.url, token: answer.token, localStream: media.stream, log, microphone, camera });
        connection.current = call;
        setLiveKit({ room: call.room, View });
      } else {
        if (!transport) throw new Error('the notification connection is not open');
        const call = new PeerCall({
          appointmentId,
          iceServers: answer.ice_servers,
          polite: !doctor,
          localStream: media.stream,
          transport,
          events,
          microphone,
          camera,
          peerPresent: otherPresent,
        });
        call.start();
        connection.current = call;
        setStatus(otherPresent ? 'connecting' : 'connected');
      }
      setPhase('call');
      void loadMessages();
    } catch (error) {
      setStatus('disconnected');
      setPageError(VIDEO_TEXTS.roomError(messageOf(error)));
      log('error', 'Could not connect the call', { error: messageOf(error) });
    } finally {
      setJoining(false);
    }
  };

  // The once-per-second clock of the call, from the server's start and limit.
  useEffect(() => {
    if (phase !== 'call') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [phase]);
  const clock = joined ? callClock(joined.started_at, joined.ends_at, joined.offset, now) : null;

  // Past the limit the server ends the call and says so; if that word is missed, its record is read.
  const over = Boolean(clock?.over) && phase === 'call';
  useEffect(() => {
    if (!over) return;
    const timer = setInterval(() => {
      void refresh().then((view) => {
        if (view?.status === 'ended') finish(view.auto_ended);
      });
    }, 4000);
    return () => clearInterval(timer);
  }, [over, refresh, finish]);

  // Chat: pushed by the server as consultation updates; read now and then only while the socket is down.
  useEffect(() => {
    if (phase !== 'call' || socketState === 'connected') return;
    const timer = setInterval(() => void loadMessages(), 10_000);
    return () => clearInterval(timer);
  }, [phase, socketState, loadMessages]);

  // Leaving the page during a call leaves the consultation (this connection only).
  useEffect(() => {
    if (phase !== 'call' || !joined || !session) return;
    const onHide = () => leaveOnUnload(appointmentId, joined.connection_id, session.token);
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [phase, joined, session, appointmentId]);
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

  const endCall = async () => {
    setEnding(true);
    try {
      await consultationApi.end(appointmentId);
    } catch (error) {
      // Already ended (by the other side or the limit): the summary says how.
      log('warn', 'End Call answered', { error: messageOf(error) });
    } finally {
      setEnding(false);
    }
    finish(false);
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
      const text = kind === 'microphone' ? VIDEO_TEXTS.toggleMicrophone : VIDEO_TEXTS.toggleCamera;
      setPageError(text);
      log('error', text, { error: messageOf(error) });
    }
  };

  const other = consultation?.participants.find((p) => p.user_id !== me.id);
  const remotePresent = Boolean(other?.present);
  const tokenWellFormed = (session?.token.split('.').length ?? 0) === 3;
  // What the call view shows whichever provider carries the call; the provider's own view adds its connection's state and media.
  const callView: Omit<CallViewProps, 'status' | 'localStream' | 'remote' | 'poorQuality'> = {
    clock,
    showWarning: Boolean(clock?.nearLimit) && !warningDismissed && phase === 'call',
    onDismissWarning: () => setWarningDismissed(true),
    localName: me.name,
    microphone,
    camera,
    audioOnly,
    remoteName: other?.name ?? appointment?.otherName ?? 'Participant',
    waitingFor: other?.name ?? appointment?.otherName ?? (doctor ? 'the patient' : 'the doctor'),
    remotePresent,
    remoteLeft: other !== undefined && !other.present,
    onToggleMicrophone: () => toggle('microphone'),
    onToggleCamera: () => toggle('camera'),
    onToggleAudioOnly: () => toggle('audioOnly'),
    onSettings: () => setDebugOpen(true),
    onEnd: () => void endCall(),
    ending: ending || phase === 'leaving',
    chat: (
      <Chat
        messages={messages}
        meId={me.id}
        disabled={phase !== 'call'}
        onSend={async (text) => {
          await consultationApi.send(appointmentId, text);
          await loadMessages();
        }}
      />
    ),
  };

  return (
    <Box ref={pageRef}>
      {pageError && (
        <Alert severity="error" onClose={() => setPageError(null)} sx={{ mb: 2 }} data-testid="video-call-error">
          {VIDEO_TEXTS.pageError(pageError)}
        </Alert>
      )}
      {phase === 'lobby' && (
        <Lobby
          name={me.name}
          roleDisplayName={roleDisplayName(me.role)}
          media={media}
          joining={joining}
          waitingForDoctor={waitingForDoctor && consultation !== null}
          otherInLobby={otherInLobby ? (me.role === 'DOCTOR' ? VIDEO_TEXTS.patientInLobby : VIDEO_TEXTS.doctorInLobby) : null}
          otherInCall={remotePresent && consultation?.status !== 'ended' ? (other?.name ?? appointment?.otherName ?? null) : null}
          error={lobbyError}
          onClearError={() => setLobbyError(null)}
          onStart={() => void start()}
          onDebug={() => setDebugOpen(true)}
          appointment={appointment}
          diagnostics={{
            secureContext: window.isSecureContext,
            mediaDevices: Boolean(navigator.mediaDevices?.getUserMedia),
            peerConnection: typeof RTCPeerConnection !== 'undefined',
            socket: socketState,
            tokenWellFormed,
          }}
        />
      )}
      {(phase === 'call' || phase === 'leaving') &&
        (liveKit ? <liveKit.View {...callView} room={liveKit.room} log={log} /> : <CallView {...callView} status={status} localStream={media.stream} remote={remote} poorQuality={poorQuality} />)}
      {phase === 'summary' && <Summary summary={summary} doctor={doctor} onHome={() => navigate(doctor ? '/doctor-home' : '/home')} />}
      <DebugConsole
        open={debugOpen}
        entries={logs}
        onClear={() => setLogs([])}
        onClose={() => setDebugOpen(false)}
        onCopied={(ok) => toasts.show({ type: ok ? 'success' : 'error', title: ok ? 'Log copied' : 'Could not copy the log', duration: 3000 })}
      />
    </Box>
  );
}
