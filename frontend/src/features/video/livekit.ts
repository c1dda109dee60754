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
  const refresh = () => events.remote(remoteOf([...room.remoteParticipants.values()][0]));

  room
    .on(RoomEvent.ConnectionStateChanged, (state: ConnectionState) => {
      events.log('info', `LiveKit ${state}`);
      events.status(STATUS[state]);
    })
    .on(RoomEvent.ParticipantConnected, (p: RemoteParticipant) => {
      events.log('info', 'Participant connected', { identity: p.identity });
      refresh();
    })
    .on(RoomEvent.ParticipantDisconnected, () => {
      events.log('info', 'Participant disconnected');
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
    })
    .on(RoomEvent.Disconnected, () => events.status('disconnected'));

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
      void room.disconnect(false);
    },
  };
}
