/**
 * What the page needs of a connection, whichever provider carries it (peer to peer or LiveKit). The events are peer to
 * peer's: a LiveKit call's view reads its room through `@livekit/components-react` instead (LiveKitCallView).
 */
import type { CallStatus, LogLevel } from './model';

export interface RemoteMedia {
  /** The other participant's media, or null while nobody is connected. */
  stream: MediaStream | null;
  /** Their microphone is on. */
  audio: boolean;
  /** Their camera is on (and they are not in audio-only mode). */
  video: boolean;
}

export interface ConnectionEvents {
  status(status: CallStatus): void;
  remote(remote: RemoteMedia): void;
  log(level: LogLevel, message: string, data?: Record<string, unknown>): void;
  /** The measured connection is poor (the page then offers Audio only). */
  quality(poor: boolean): void;
}

export interface CallConnection {
  setMicrophone(on: boolean): void;
  setCamera(on: boolean): void;
  /** Stops sending video (weak networks) or starts again. */
  setAudioOnly(on: boolean): void;
  /** The other participant joined (again): a connection that is not up starts over. */
  peerJoined(): void;
  /** The other participant left (or the server recorded them as gone). */
  peerLeft(): void;
  /** This page's signalling channel (the notification socket) is back after a drop; LiveKit keeps its own. */
  signallingRestored?(): void;
  close(): void;
}

/** A local state message over the data channel (peer to peer; LiveKit carries it as its tracks' mute state). */
export interface MediaState {
  type: 'media';
  audio: boolean;
  video: boolean;
}

export function parseMediaState(raw: unknown): MediaState | null {
  if (typeof raw !== 'string' || raw.length > 256) return null;
  try {
    const value = JSON.parse(raw) as Partial<MediaState>;
    if (value.type === 'media' && typeof value.audio === 'boolean' && typeof value.video === 'boolean') return { type: 'media', audio: value.audio, video: value.video };
  } catch {
    // not ours: ignored
  }
  return null;
}
