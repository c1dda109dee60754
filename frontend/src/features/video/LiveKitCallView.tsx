/**
 * The call view of a LiveKit call, composed from `@livekit/components-react` (issue 13): the room in its context, the
 * other side's sound from RoomAudioRenderer, the tiles' pictures from VideoTrack, who is there from useParticipants
 * and useTracks, the connection's state from useConnectionState and its quality from useConnectionQualityIndicator,
 * whether the browser lets the sound play (autoplay policy) from useAudioPlayback.
 * The seeds' screen itself (header, tiles, banners, controls, chat) is the same CallView peer-to-peer calls show.
 * Part of the lazily loaded LiveKit chunk (imported through ./livekit only).
 */
import { useEffect, useState } from 'react';
import { RoomAudioRenderer, RoomContext, VideoTrack, useAudioPlayback, useConnectionQualityIndicator, useConnectionState, useParticipants, useTracks, type TrackReference } from '@livekit/components-react';
import { ConnectionQuality, ConnectionState, Track, type Participant, type RemoteParticipant, type Room } from 'livekit-client';
import { CallView, type CallViewProps, type VideoSlot } from './CallView';
import type { RemoteMedia } from './connection';
import { videoStyle } from './MediaVideo';
import { MEDIA_STALL_AFTER_MS, MediaFlowWatch, inboundBytes } from './mediaFlow';
import type { CallStatus, LogLevel } from './model';

type Log = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

export type LiveKitCallViewProps = Omit<CallViewProps, 'status' | 'remote' | 'poorQuality' | 'videos' | 'localStream' | 'audioPlayback'> & {
  room: Room;
  log: Log;
};

const STATUS: Record<ConnectionState, CallStatus> = {
  [ConnectionState.Connecting]: 'connecting',
  [ConnectionState.Connected]: 'connected',
  [ConnectionState.Reconnecting]: 'reconnecting',
  [ConnectionState.SignalReconnecting]: 'reconnecting',
  [ConnectionState.Disconnected]: 'disconnected',
};

/** Before anyone else is in the room: nothing to say about their microphone or camera. */
const NOBODY: RemoteMedia = { stream: null, audio: true, video: true };

export function LiveKitCallView({ room, ...props }: LiveKitCallViewProps) {
  return (
    <RoomContext.Provider value={room}>
      <RoomAudioRenderer />
      <LiveKitCall room={room} {...props} />
    </RoomContext.Provider>
  );
}

function videoSlot(ref: TrackReference | undefined): VideoSlot {
  return (s) => (ref?.publication.track ? <VideoTrack trackRef={ref} aria-label={s.label} data-testid={s.testId} style={videoStyle(s.mirrored, s.style)} /> : null);
}

function LiveKitCall({ room, log, ...props }: LiveKitCallViewProps) {
  const state = useConnectionState(room);
  const remoteParticipant = useParticipants({ room }).find((p): p is RemoteParticipant => !p.isLocal);
  // Every camera and microphone publication, subscribed or not: a muted or not yet subscribed one still says what the
  // other side has switched off.
  const tracks = useTracks([Track.Source.Camera, Track.Source.Microphone], { room, onlySubscribed: false });
  const trackOf = (participant: Participant | undefined, source: Track.Source) => (participant ? tracks.find((t) => t.participant === participant && t.source === source) : undefined);
  const localCamera = trackOf(room.localParticipant, Track.Source.Camera);
  const remoteCamera = trackOf(remoteParticipant, Track.Source.Camera);
  const remoteMicrophone = trackOf(remoteParticipant, Track.Source.Microphone);
  const remoteArrives = Boolean(remoteCamera?.publication.track || remoteMicrophone?.publication.track);
  const remote: RemoteMedia = remoteParticipant
    ? {
        stream: null,
        audio: Boolean(remoteMicrophone && !remoteMicrophone.publication.isMuted),
        video: Boolean(remoteCamera && !remoteCamera.publication.isMuted && remoteCamera.publication.isSubscribed),
      }
    : NOBODY;

  const stalled = useMediaStall(remoteParticipant, remoteArrives && (remote.audio || remote.video) && state === ConnectionState.Connected, log);
  const status: CallStatus = state === ConnectionState.Connected && stalled ? 'reconnecting' : STATUS[state];
  // This side's own measured connection: a poor one offers Audio only.
  const { quality } = useConnectionQualityIndicator({ participant: room.localParticipant });
  const poorQuality = quality === ConnectionQuality.Poor || quality === ConnectionQuality.Lost;
  // False once an element of RoomAudioRenderer was refused (NotAllowedError); startAudio plays them from a click.
  const { canPlayAudio, startAudio } = useAudioPlayback(room);
  const startSound = () => void startAudio().catch((error: unknown) => log('warn', 'Could not start the call’s sound', { error: error instanceof Error ? error.message : String(error) }));

  return (
    <CallView
      {...props}
      localStream={null}
      status={status}
      remote={remote}
      poorQuality={poorQuality}
      audioPlayback={{ blocked: !canPlayAudio, start: startSound }}
      videos={{ local: localCamera ? videoSlot(localCamera) : null, remote: remoteArrives ? videoSlot(remoteCamera) : null }}
    />
  );
}

/**
 * As peer to peer: the other side's media stopping shows within seconds (Reconnecting), from the bytes their tracks
 * receive, long before the server gives up on them. Only while they send something (`watch`): the server forwards
 * nothing of a muted track.
 */
function useMediaStall(participant: RemoteParticipant | undefined, watch: boolean, log: Log): boolean {
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    setStalled(false);
    if (!participant || !watch) return;
    const flow = new MediaFlowWatch(MEDIA_STALL_AFTER_MS);
    let stopped = false;
    const check = async () => {
      let bytes = 0;
      for (const publication of participant.trackPublications.values()) {
        const report = await publication.track?.getRTCStatsReport().catch(() => undefined);
        if (report) bytes += inboundBytes(report);
      }
      if (stopped) return;
      const change = flow.sample(bytes, Date.now());
      if (change === 'stalled') {
        log('warn', 'No media from the other participant', { for_ms: MEDIA_STALL_AFTER_MS });
        setStalled(true);
      } else if (change === 'flowing') {
        log('info', 'Media from the other participant arrives again');
        setStalled(false);
      }
    };
    const timer = setInterval(() => void check(), 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [participant, watch, log]);
  return stalled;
}
