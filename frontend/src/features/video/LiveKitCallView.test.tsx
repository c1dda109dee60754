/**
 * The LiveKit call view rendered by the real `@livekit/components-react` around a real livekit-client `Room`. The room
 * is never connected (no LiveKit server runs here): what it would hear from the server is emitted on it, as its own
 * signal handling does.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ConnectionQuality,
  ConnectionState,
  ParticipantEvent,
  RemoteAudioTrack,
  RemoteParticipant,
  RemoteTrackPublication,
  RemoteVideoTrack,
  Room,
  RoomEvent,
  Track,
} from 'livekit-client';
import { LiveKitCallView, type LiveKitCallViewProps } from './LiveKitCallView';
import { liveKitControls } from './livekit';
import { VIDEO_TEXTS } from './model';

afterEach(cleanup);
beforeAll(() => {
  HTMLMediaElement.prototype.play = () => Promise.resolve();
  HTMLMediaElement.prototype.pause = () => {};
});

const props = (room: Room, over: Partial<LiveKitCallViewProps> = {}): LiveKitCallViewProps => ({
  room,
  log: () => {},
  clock: { elapsed: 125, remaining: 1675, nearLimit: false, over: false },
  showWarning: false,
  onDismissWarning: () => {},
  localName: 'Dr. Ananya Sharma',
  microphone: true,
  camera: true,
  audioOnly: false,
  remoteName: 'Priya Patel',
  waitingFor: 'Priya Patel',
  remotePresent: false,
  onToggleMicrophone: () => {},
  onToggleCamera: () => {},
  onToggleAudioOnly: () => {},
  onSettings: () => {},
  onEnd: () => {},
  ending: false,
  chat: <p>the chat</p>,
  ...over,
});

const statusLabel = () => screen.getByTestId('call-status').textContent;

/** jsdom has no MediaStream: livekit-client's track.attach() puts the track in one, as the srcObject of the element. */
class FakeMediaStream {
  readonly tracks: MediaStreamTrack[] = [];
  getAudioTracks = () => this.tracks.filter((t) => t.kind === 'audio');
  getVideoTracks = () => this.tracks.filter((t) => t.kind === 'video');
  getTracks = () => this.tracks;
  addTrack = (t: MediaStreamTrack) => void this.tracks.push(t);
  removeTrack = (t: MediaStreamTrack) => void this.tracks.splice(this.tracks.indexOf(t), 1);
}
const mediaStreamTrack = (kind: 'audio' | 'video') =>
  ({ id: `${kind}-1`, kind, enabled: true, readyState: 'live', addEventListener() {}, removeEventListener() {}, getSettings: () => ({}), stop() {} }) as unknown as MediaStreamTrack;
type TrackInfo = ConstructorParameters<typeof RemoteTrackPublication>[1];
/** The server's participant info, as far as the room reads it when it creates the participant. */
const participantInfo = { sid: 'PA_p1', identity: 'p1', name: 'Priya Patel', metadata: '', attributes: {}, dataTracks: [], tracks: [] } as unknown as Parameters<typeof RemoteParticipant.fromParticipantInfo>[1];

/**
 * The other participant as the room holds them once its server has said they joined and their tracks were
 * subscribed: a real RemoteParticipant with real publications and tracks (over stand-in media tracks).
 */
function joinRemote(room: Room, { throughRoom = false } = {}) {
  const participant = throughRoom
    ? // @ts-expect-error getOrCreateParticipant is private: the room calls it as its server announces the participant, and
      // from then on watches their tracks' playback (whether the browser lets their sound play).
      (room.getOrCreateParticipant('p1', participantInfo) as RemoteParticipant)
    : new RemoteParticipant(room.engine.client, 'PA_p1', 'p1', 'Priya Patel');
  const publish = (kind: 'audio' | 'video') => {
    const sid = `TR_${kind}`;
    // The server's track info, as far as a publication reads it (source 1 is the camera, 2 the microphone).
    const info = { sid, name: kind, source: kind === 'video' ? 1 : 2, muted: false, mimeType: `${kind}/opus`, width: 0, height: 0, simulcast: false } as unknown as TrackInfo;
    const publication = new RemoteTrackPublication(kind === 'video' ? Track.Kind.Video : Track.Kind.Audio, info, true);
    const media = mediaStreamTrack(kind);
    publication.setTrack(kind === 'video' ? new RemoteVideoTrack(media, sid, undefined as unknown as RTCRtpReceiver) : new RemoteAudioTrack(media, sid, undefined as unknown as RTCRtpReceiver));
    // @ts-expect-error addTrackPublication is protected: the room calls it as the server announces the track.
    participant.addTrackPublication(publication);
    // As the participant says once the track arrives (addSubscribedMediaTrack).
    if (throughRoom) participant.emit(ParticipantEvent.TrackSubscribed, publication.track!, publication);
    return { publication, media, info };
  };
  const camera = publish('video');
  const microphone = publish('audio');
  room.remoteParticipants.set(participant.identity, participant);
  act(() => void room.emit(RoomEvent.ParticipantConnected, participant));
  /** A mute or unmute from the server (its new track info), forwarded by the room. */
  const mute = (which: 'camera' | 'microphone', muted: boolean) => {
    const { publication, info } = which === 'camera' ? camera : microphone;
    act(() => {
      publication.updateInfo({ ...info, muted } as TrackInfo);
      room.emit(muted ? RoomEvent.TrackMuted : RoomEvent.TrackUnmuted, publication, participant);
    });
  };
  const leave = () => {
    room.remoteParticipants.delete(participant.identity);
    act(() => void room.emit(RoomEvent.ParticipantDisconnected, participant));
  };
  return { camera, microphone, mute, leave };
}

describe('the LiveKit call view (components-react around a real Room)', () => {
  it('shows the seeds’ call view inside the room: status, duration, count, the local tile, controls and chat', () => {
    const room = new Room();
    render(<LiveKitCallView {...props(room)} />);
    // A room that never connected is disconnected, and useConnectionState says so.
    expect(statusLabel()).toBe('Disconnected');
    expect(screen.getByTestId('call-duration').textContent).toBe('02:05');
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
    expect(screen.getByTestId('local-tile').textContent).toContain('Dr. Ananya Sharma (You)');
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Waiting for Priya Patel to join…');
    for (const name of ['Mute', 'Stop Video', 'Settings', 'End Call']) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'End Call' }).getAttribute('title')).toBe(VIDEO_TEXTS.endTitle);
    expect(screen.getByLabelText('Audio only')).toBeTruthy();
    expect(screen.getByText('the chat')).toBeTruthy();
  });

  it('shows the seeds’ four status labels as the room’s connection state changes', () => {
    const room = new Room();
    render(<LiveKitCallView {...props(room)} />);
    const seen: Array<string | null> = [];
    for (const state of [ConnectionState.Connecting, ConnectionState.Connected, ConnectionState.Reconnecting, ConnectionState.SignalReconnecting, ConnectionState.Connected, ConnectionState.Disconnected]) {
      act(() => void room.emit(RoomEvent.ConnectionStateChanged, state));
      seen.push(statusLabel());
    }
    expect(seen).toEqual(['Connecting...', 'Connected', 'Reconnecting...', 'Reconnecting...', 'Connected', 'Disconnected']);
  });

  it('with the other side recorded present but no media of theirs in the room, says it is connecting to them', () => {
    const room = new Room();
    render(<LiveKitCallView {...props(room, { remotePresent: true })} />);
    expect(screen.getByTestId('participant-count').textContent).toBe('2 participants');
    expect(screen.getByTestId('remote-tile').textContent).toContain('PP');
    expect(screen.getByText('Connecting to Priya Patel...')).toBeTruthy();
  });

  it('shows the other side from the room: their camera’s track in their tile (VideoTrack), their sound played apart (RoomAudioRenderer), their mute and video-off as published', () => {
    vi.stubGlobal('MediaStream', FakeMediaStream);
    const room = new Room();
    render(<LiveKitCallView {...props(room, { remotePresent: true })} />);
    expect(screen.getByText('Connecting to Priya Patel...')).toBeTruthy();
    const remote = joinRemote(room);

    const video = screen.getByTestId('remote-tile-video') as HTMLVideoElement;
    expect((video.srcObject as unknown as FakeMediaStream).getVideoTracks()).toEqual([remote.camera.media]);
    expect(video.muted).toBe(true); // the sound is not the tile's
    expect(video.style.opacity).toBe('1');
    expect(screen.queryByText('Connecting to Priya Patel...')).toBeNull();
    const audio = [...document.querySelectorAll('audio')];
    expect(audio.map((a) => (a.srcObject as unknown as FakeMediaStream).getAudioTracks())).toEqual([[remote.microphone.media]]);
    expect(screen.queryByTestId('remote-tile-muted')).toBeNull();

    remote.mute('microphone', true);
    expect(screen.getByRole('img', { name: 'Priya Patel is muted' })).toBeTruthy();
    remote.mute('camera', true);
    expect(video.style.opacity).toBe('0');
    expect(screen.getByTestId('remote-tile-video-off').textContent).toBe('Video off');
    remote.mute('camera', false);
    remote.mute('microphone', false);
    expect(video.style.opacity).toBe('1');
    expect(screen.queryByTestId('remote-tile-muted')).toBeNull();

    // Gone from the room (while the server's record still has them): their tile waits for their media again.
    remote.leave();
    expect(screen.queryByTestId('remote-tile-video')).toBeNull();
    expect(screen.getByText('Connecting to Priya Patel...')).toBeTruthy();
    expect(document.querySelectorAll('audio')).toHaveLength(0);
  });

  it('when the browser will not play their sound before a click (autoplay policy), offers Click to enable audio, which starts the room’s audio from the click', async () => {
    vi.stubGlobal('MediaStream', FakeMediaStream);
    // A page reloaded into the call: an element with sound may play only once the user has clicked on the page.
    let activated = false;
    const onClick = () => (activated = true);
    document.addEventListener('click', onClick, true);
    try {
      const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
        return this.muted || activated ? Promise.resolve() : Promise.reject(new DOMException('play() failed because the user didn’t interact with the document first.', 'NotAllowedError'));
      });
      const room = new Room();
      render(<LiveKitCallView {...props(room, { remotePresent: true })} />);
      expect(room.canPlaybackAudio).toBe(true);
      expect(screen.queryByRole('button', { name: 'Click to enable audio' })).toBeNull();
      joinRemote(room, { throughRoom: true });
      const enable = await screen.findByRole('button', { name: 'Click to enable audio' });
      expect(room.canPlaybackAudio).toBe(false);
      const [audio] = [...document.querySelectorAll('audio')];
      expect(play.mock.contexts).toContain(audio);

      const startAudio = vi.spyOn(room, 'startAudio');
      play.mockClear();
      await userEvent.click(enable);
      expect(startAudio).toHaveBeenCalledTimes(1);
      expect(play.mock.contexts).toContain(audio); // played from inside the click
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Click to enable audio' })).toBeNull());
      expect(room.canPlaybackAudio).toBe(true);
    } finally {
      document.removeEventListener('click', onClick, true);
    }
  });

  it('offers Audio only once this side’s measured connection quality is poor, and not while it is good', async () => {
    const room = new Room();
    const onToggleAudioOnly = vi.fn();
    render(<LiveKitCallView {...props(room, { onToggleAudioOnly })} />);
    const weak = 'The connection is weak. Audio only keeps the conversation going.';
    expect(screen.queryByText(weak)).toBeNull();
    act(() => void room.localParticipant.emit(ParticipantEvent.ConnectionQualityChanged, ConnectionQuality.Poor));
    await userEvent.click(screen.getByRole('button', { name: 'Switch to audio only' }));
    expect(onToggleAudioOnly).toHaveBeenCalledTimes(1);
    act(() => void room.localParticipant.emit(ParticipantEvent.ConnectionQualityChanged, ConnectionQuality.Excellent));
    expect(screen.queryByText(weak)).toBeNull();
  });

  it('shows the time warning and dismisses it', async () => {
    const room = new Room();
    const onDismissWarning = vi.fn();
    render(<LiveKitCallView {...props(room, { showWarning: true, onDismissWarning, clock: { elapsed: 1560, remaining: 240, nearLimit: true, over: false } })} />);
    expect(screen.getByTestId('time-warning').textContent).toContain('Your consultation will end in 4 minutes. Please wrap up your session.');
    expect(screen.getByTestId('call-remaining').textContent).toBe('(04:00 left)');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDismissWarning).toHaveBeenCalledTimes(1);
  });
});

describe('the LiveKit call’s controls', () => {
  it('Mute, Stop Video and Audio only switch the local participant’s published microphone and camera', () => {
    const room = new Room();
    const microphone = vi.spyOn(room.localParticipant, 'setMicrophoneEnabled').mockResolvedValue(undefined);
    const camera = vi.spyOn(room.localParticipant, 'setCameraEnabled').mockResolvedValue(undefined);
    const controls = liveKitControls(room, () => {}, true);
    controls.setMicrophone(false);
    controls.setMicrophone(true);
    expect(microphone.mock.calls).toEqual([[false], [true]]);
    controls.setAudioOnly(true); // the camera goes off
    controls.setCamera(true); // its button is disabled meanwhile; the camera stays off
    controls.setAudioOnly(false); // back on, as its button says
    controls.setCamera(false);
    expect(camera.mock.calls).toEqual([[false], [true], [false]]);
  });

  it('a switch that fails is logged, not thrown', async () => {
    const room = new Room();
    vi.spyOn(room.localParticipant, 'setMicrophoneEnabled').mockRejectedValue(new Error('no device'));
    const log = vi.fn();
    liveKitControls(room, log, true).setMicrophone(true);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('warn', 'Could not switch the microphone', { error: 'no device' }));
  });
});
