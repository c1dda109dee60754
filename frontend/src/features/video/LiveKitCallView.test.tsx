/**
 * The LiveKit call view rendered by the real `@livekit/components-react` around a real livekit-client `Room`. The room
 * is never connected (no LiveKit server runs here): what it would hear from the server is emitted on it, as its own
 * signal handling does.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConnectionQuality, ConnectionState, ParticipantEvent, Room, RoomEvent } from 'livekit-client';
import { LiveKitCallView, type LiveKitCallViewProps } from './LiveKitCallView';
import { liveKitControls } from './livekit';
import { VIDEO_TEXTS } from './model';

afterEach(cleanup);
beforeAll(() => {
  HTMLMediaElement.prototype.play = () => Promise.resolve();
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

describe('the LiveKit call view (components-react around a real Room)', () => {
  it('shows the seeds’ call view inside the room: status, duration, count, the local tile, controls and chat', () => {
    const room = new Room();
    render(<LiveKitCallView {...props(room)} />);
    // A room that never connected is disconnected, and useConnectionState says so.
    expect(statusLabel()).toBe('Disconnected');
    expect(screen.getByTestId('call-duration').textContent).toBe('02:05');
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
    expect(screen.getByTestId('local-tile').textContent).toContain('Dr. Ananya Sharma (You)');
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Waiting for Priya Patel to join');
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
