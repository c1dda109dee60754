/**
 * The call on LiveKit, when the join answer says so: the lobby's camera and microphone published into the room the
 * server's token admits this person to, the other participant's tracks shown. Loaded only for such calls, so that
 * peer-to-peer users never download livekit-client.
 */
import {
  ConnectionQuality,
  ConnectionState,
  Room,
  RoomEvent,
  Track,
  type LocalTrackPublication,
  type Participant,
  type RemoteParticipant,
  type RemoteTrack,
} from 'livekit-client';
import type { CallConnection, ConnectionEvents, RemoteMedia } from './connection';
import { MEDIA_STALL_AFTER_MS, MediaFlowWatch, inboundBytes } from './mediaFlow';

export interface LiveKitCallOptions {
  url: string;
  token: string;
  localStream: MediaStream;
  events: ConnectionEvents;
  microphone: boolean;
  camera: boolean;
}

const STATUS: Record<ConnectionState, 'connecting' | 'connected' | 'reconnecting' | 'disconnected'> = {
  [ConnectionState.Connecting]: 'connecting',
  [ConnectionState.Connected]: 'connected',
  [ConnectionState.Reconnecting]: 'reconnecting',
  [ConnectionState.SignalReconnecting]: 'reconnecting',
  [ConnectionState.Disconnected]: 'disconnected',
};

export async function connectLiveKit(options: LiveKitCallOptions): Promise<CallConnection> {
  const { events, localStream } = options;
  const room = new Room({ adaptiveStream: true, dynacast: true });
  let audioPublication: LocalTrackPublication | null = null;
  let videoPublication: LocalTrackPublication | null = null;
  let camera = options.camera;
  let audioOnly = false;

  const remoteOf = (participant: RemoteParticipant | undefined): RemoteMedia => {
    if (!participant) return { stream: null, audio: true, video: true };
    const tracks: MediaStreamTrack[] = [];
    let audio = false;
    let video = false;
    for (const publication of participant.trackPublications.values()) {
      const track = publication.track as RemoteTrack | undefined;
      if (track) tracks.push(track.mediaStreamTrack);
      if (publication.kind === Track.Kind.Audio && !publication.isMuted) audio = true;
      if (publication.kind === Track.Kind.Video && !publication.isMuted && publication.isSubscribed) video = true;
    }
    return { stream: tracks.length > 0 ? new MediaStream(tracks) : null, audio, video };
  };
  const remoteParticipant = () => [...room.remoteParticipants.values()][0];
  const refresh = () => events.remote(remoteOf(remoteParticipant()));

  // As peer to peer: the other side's media stopping shows within seconds, from the bytes its tracks receive, long
  // before the server gives up on them. Only while they send something: the server forwards nothing of a muted track.
  const flow = new MediaFlowWatch(MEDIA_STALL_AFTER_MS);
  const checkMediaFlow = async () => {
    const participant = remoteParticipant();
    const media = remoteOf(participant);
    if (!participant || !media.stream || (!media.audio && !media.video) || room.state !== ConnectionState.Connected) {
      flow.reset();
      return;
    }
    let bytes = 0;
    for (const publication of participant.trackPublications.values()) {
      const report = await (publication.track as RemoteTrack | undefined)?.getRTCStatsReport().catch(() => undefined);
      if (report) bytes += inboundBytes(report);
    }
    const change = flow.sample(bytes, Date.now());
    if (change === 'stalled') {
      events.log('warn', 'No media from the other participant', { for_ms: MEDIA_STALL_AFTER_MS });
      events.status('reconnecting');
    } else if (change === 'flowing') {
      events.log('info', 'Media from the other participant arrives again');
      if (room.state === ConnectionState.Connected) events.status('connected');
    }
  };
  const flowTimer = setInterval(() => void checkMediaFlow(), 1000);

  room
    .on(RoomEvent.ConnectionStateChanged, (state: ConnectionState) => {
      events.log('info', `LiveKit ${state}`);
      events.status(STATUS[state]);
    })
    .on(RoomEvent.ParticipantConnected, (p: RemoteParticipant) => {
      events.log('info', 'Participant connected', { identity: p.identity });
      flow.reset();
      refresh();
    })
    .on(RoomEvent.ParticipantDisconnected, () => {
      events.log('info', 'Participant disconnected');
      flow.reset();
      refresh();
    })
    .on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      events.log('info', `Remote ${track.kind} track received`);
      refresh();
    })
    .on(RoomEvent.TrackUnsubscribed, refresh)
    .on(RoomEvent.TrackMuted, refresh)
    .on(RoomEvent.TrackUnmuted, refresh)
    .on(RoomEvent.ConnectionQualityChanged, (quality: ConnectionQuality, participant: Participant) => {
      if (participant.isLocal) events.quality(quality === ConnectionQuality.Poor || quality === ConnectionQuality.Lost);
      else if (quality === ConnectionQuality.Lost) events.log('warn', 'The other participant\'s connection is lost');
    })
    .on(RoomEvent.Disconnected, () => {
      clearInterval(flowTimer);
      events.status('disconnected');
    });

  events.status('connecting');
  await room.connect(options.url, options.token);
  const [audioTrack] = localStream.getAudioTracks();
  const [videoTrack] = localStream.getVideoTracks();
  if (audioTrack) audioPublication = await room.localParticipant.publishTrack(audioTrack, { source: Track.Source.Microphone });
  if (videoTrack) videoPublication = await room.localParticipant.publishTrack(videoTrack, { source: Track.Source.Camera });
  if (!options.microphone) await audioPublication?.mute();
  if (!camera) await videoPublication?.mute();
  refresh();

  const fail = (what: string) => (error: unknown) => events.log('warn', what, { error: error instanceof Error ? error.message : String(error) });
  return {
    setMicrophone(on) {
      void (on ? audioPublication?.unmute() : audioPublication?.mute())?.catch(fail('Could not switch the microphone'));
    },
    setCamera(on) {
      camera = on;
      if (!audioOnly) void (on ? videoPublication?.unmute() : videoPublication?.mute())?.catch(fail('Could not switch the camera'));
    },
    setAudioOnly(on) {
      audioOnly = on;
      void (on || !camera ? videoPublication?.mute() : videoPublication?.unmute())?.catch(fail('Could not switch the video'));
    },
    peerJoined: refresh,
    peerLeft: refresh,
    close() {
      clearInterval(flowTimer);
      void room.disconnect(false);
    },
  };
}
