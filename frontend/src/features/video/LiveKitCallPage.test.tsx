/**
 * The video call page when the server answers the join with LiveKit: the lazily loaded LiveKit chunk, its view composed
 * from `@livekit/components-react` around the real livekit-client `Room` the page creates, and the page's controls
 * reaching that room's local participant. No LiveKit server runs here (and jsdom has no WebRTC, which `Room.connect`
 * checks first): `connectLiveKit` is the module's own, less the connection and the publishing, so the room stays
 * unconnected and what its server would say is emitted on it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConnectionState, RoomEvent, type Room } from 'livekit-client';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { VideoCallPage } from './VideoCallPage';
import type { LiveKitCallOptions } from './livekit';

const rooms = vi.hoisted(() => [] as Room[]);
vi.mock('./livekit', async (importOriginal) => {
  const real = await importOriginal<typeof import('./livekit')>();
  return {
    ...real,
    connectLiveKit: vi.fn(async (options: LiveKitCallOptions) => {
      const room = real.createLiveKitRoom();
      real.logRoomEvents(room, options.log);
      rooms.push(room);
      return real.liveKitControls(room, options.log, options.camera);
    }),
  };
});

/** A camera and a microphone that are live (jsdom has no media devices). */
function fakeStream() {
  const track = (kind: string) => ({ kind, readyState: 'live', enabled: true, stop: vi.fn(), addEventListener: vi.fn(), getSettings: () => ({ width: 1280, height: 720, frameRate: 30 }) });
  const audio = track('audio');
  const video = track('video');
  return { getTracks: () => [audio, video], getAudioTracks: () => [audio], getVideoTracks: () => [video] };
}

const started = new Date(Date.now() - 60_000).toISOString();
const ends = new Date(Date.now() + 29 * 60_000).toISOString();
const doctor = { user_id: 'd1', name: 'Dr. Ananya Sharma', role: 'doctor', role_display_name: 'Healthcare Provider', present: true, joined_at: started, left_at: null };
const patient = { user_id: 'p1', name: 'Priya Patel', role: 'patient', role_display_name: 'Patient', present: true, joined_at: started, left_at: null };
const active = { appointment_id: 'a1', status: 'active', provider: 'livekit', room: 'consultation-a1', started_at: started, ends_at: ends, ended_at: null, ended_by: null, auto_ended: false, duration_seconds: 60, participants: [doctor, patient], server_time: new Date().toISOString() };
const join = { provider: 'livekit', room: 'consultation-a1', started_at: started, ends_at: ends, ice_servers: [], url: 'wss://livekit.invalid', token: 'a.b.c', connection_id: 'c1', server_time: new Date().toISOString() };

describe('the video call page on LiveKit', () => {
  const calls: string[] = [];
  beforeEach(() => {
    rooms.length = 0;
    calls.length = 0;
    sessionStore.set({ token: 'a.b.c', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Ananya Sharma', email: null, account_type: 'doctor' }, authProvider: 'google' });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined); // jsdom plays nothing
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: vi.fn().mockResolvedValue(fakeStream()) }, configurable: true });
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.endsWith('/join')) return json(200, join);
      if (url.endsWith('/end')) return json(200, { appointment_id: 'a1', status: 'ended', auto_ended: false });
      if (url.includes('/messages')) return json(200, { messages: [] });
      if (url.includes('/appointments/me')) return json(200, []);
      return json(200, active);
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('connects the room with the server’s url and token, shows it through components-react, and its controls reach the room', async () => {
    renderAt('/video-call?appointment_id=a1', <VideoCallPage />);
    const start = await screen.findByRole('button', { name: 'Start Consultation' });
    await vi.waitFor(() => expect((start as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(start);
    await screen.findByTestId('call-view');
    expect(rooms).toHaveLength(1);
    const room = rooms[0]!;
    const { connectLiveKit } = await import('./livekit');
    expect(vi.mocked(connectLiveKit).mock.calls[0]?.[0]).toMatchObject({ url: 'wss://livekit.invalid', token: 'a.b.c', microphone: true, camera: true });

    // The status is the room's, through useConnectionState.
    act(() => void room.emit(RoomEvent.ConnectionStateChanged, ConnectionState.Connected));
    expect(screen.getByTestId('call-status').textContent).toBe('Connected');
    act(() => void room.emit(RoomEvent.ConnectionStateChanged, ConnectionState.Reconnecting));
    expect(screen.getByTestId('call-status').textContent).toBe('Reconnecting...');
    act(() => void room.emit(RoomEvent.ConnectionStateChanged, ConnectionState.Connected));

    // The other side is in the consultation's record but has no media in this room yet.
    expect(screen.getByTestId('participant-count').textContent).toBe('2 participants');
    expect(screen.getByText('Connecting to Priya Patel...')).toBeTruthy();

    const microphone = vi.spyOn(room.localParticipant, 'setMicrophoneEnabled');
    const camera = vi.spyOn(room.localParticipant, 'setCameraEnabled');
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(microphone).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Stop Video' }));
    expect(camera).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('button', { name: 'Start Video' })).toBeTruthy();

    const disconnect = vi.spyOn(room, 'disconnect');
    await userEvent.click(screen.getByRole('button', { name: 'End Call' }));
    expect(calls).toContain('POST /api/v1/consultations/a1/end');
    // The page's own tracks are not the room's to stop.
    expect(disconnect).toHaveBeenCalledWith(false);
    expect(await screen.findByText('Consultation Complete', undefined, { timeout: 3000 })).toBeTruthy();
  });

  it('lets a patient start before the doctor (issue 31) and shows them waiting in the room, not a black tile', async () => {
    sessionStore.set({ token: 'a.b.c', refreshToken: null, user: { id: 'p1', user_id: 'p1', name: 'Priya Patel', email: null, account_type: 'patient' }, authProvider: 'google' });
    let joined = false;
    const waiting = { ...active, status: 'waiting', provider: null, room: null, started_at: null, ends_at: null, participants: [] };
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.endsWith('/join')) {
        joined = true;
        return json(200, { ...join, started_at: new Date().toISOString() });
      }
      if (url.includes('/messages')) return json(200, { messages: [] });
      if (url.includes('/appointments/me')) return json(200, []);
      // The record lists only who has joined: the doctor has not.
      return json(200, joined && init?.method !== 'POST' ? { ...active, participants: [patient] } : waiting);
    });
    renderAt('/video-call?appointment_id=a1', <VideoCallPage />);
    expect((await screen.findByTestId('waiting-for-doctor')).textContent).toBe('Your doctor has not joined yet. You can start now and wait for them in the consultation.');
    const start = screen.getByRole('button', { name: 'Start Consultation' });
    await vi.waitFor(() => expect((start as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(start);
    await screen.findByTestId('call-view');
    expect(rooms).toHaveLength(1);
    // Without the appointment list's name for them, 'the doctor'.
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Waiting for the doctor to join…');
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
    expect(screen.queryByTestId('remote-tile')).toBeNull();
  });
});
