/**
 * The call on LiveKit, when the join answer says so: the lobby's camera and microphone published into the room the
 * server's token admits this person to. The room is shown by LiveKitCallView (composed from
 * `@livekit/components-react`). Loaded only for such calls, so that peer-to-peer users never download livekit-client.
 */
import { ConnectionQuality, Room, RoomEvent, Track, type Participant, type RemoteParticipant, type RemoteTrack } from 'livekit-client';
import type { CallConnection } from './connection';
import type { LogLevel } from './model';

export { LiveKitCallView } from './LiveKitCallView';

type Log = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

export interface LiveKitCallOptions {
  url: string;
  token: string;
  localStream: MediaStream;
  log: Log;
  microphone: boolean;
  camera: boolean;
}

/** A LiveKit call: the page's controls, and the room its view renders. */
export interface LiveKitCall extends CallConnection {
  room: Room;
}

export function createLiveKitRoom(): Room {
  return new Room({ adaptiveStream: true, dynacast: true });
}

/** What the debug console says of the room (the view follows the room itself through its hooks). */
export function logRoomEvents(room: Room, log: Log): void {
  room
    .on(RoomEvent.ConnectionStateChanged, (state) => log('info', `LiveKit ${state}`))
    .on(RoomEvent.ParticipantConnected, (p: RemoteParticipant) => log('info', 'Participant connected', { identity: p.identity }))
    .on(RoomEvent.ParticipantDisconnected, () => log('info', 'Participant disconnected'))
    .on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => log('info', `Remote ${track.kind} track received`))
    .on(RoomEvent.ConnectionQualityChanged, (quality: ConnectionQuality, participant: Participant) => {
      if (!participant.isLocal && quality === ConnectionQuality.Lost) log('warn', 'The other participant\'s connection is lost');
    });
}

/**
 * The controls of a call on `room`, through the local participant: Mute and Stop Video mute the published tracks
 * (the lobby's own tracks are kept, not stopped), and Audio only keeps the camera muted whatever its button says.
 */
export function liveKitControls(room: Room, log: Log, initialCamera: boolean): LiveKitCall {
  let camera = initialCamera;
  let audioOnly = false;
  const fail = (what: string) => (error: unknown) => log('warn', what, { error: error instanceof Error ? error.message : String(error) });
  return {
    room,
    setMicrophone(on) {
      void room.localParticipant.setMicrophoneEnabled(on).catch(fail('Could not switch the microphone'));
    },
    setCamera(on) {
      camera = on;
      if (!audioOnly) void room.localParticipant.setCameraEnabled(on).catch(fail('Could not switch the camera'));
    },
    setAudioOnly(on) {
      audioOnly = on;
      void room.localParticipant.setCameraEnabled(!on && camera).catch(fail('Could not switch the video'));
    },
    // The view follows the room's participants itself.
    peerJoined() {},
    peerLeft() {},
    close() {
      void room.disconnect(false);
    },
  };
}

export async function connectLiveKit(options: LiveKitCallOptions): Promise<LiveKitCall> {
  const { localStream, log } = options;
  const room = createLiveKitRoom();
  logRoomEvents(room, log);
  await room.connect(options.url, options.token);
  const [audioTrack] = localStream.getAudioTracks();
  const [videoTrack] = localStream.getVideoTracks();
  const audio = audioTrack && (await room.localParticipant.publishTrack(audioTrack, { source: Track.Source.Microphone }));
  const video = videoTrack && (await room.localParticipant.publishTrack(videoTrack, { source: Track.Source.Camera }));
  if (!options.microphone) await audio?.mute();
  if (!options.camera) await video?.mute();
  return liveKitControls(room, log, options.camera);
}
