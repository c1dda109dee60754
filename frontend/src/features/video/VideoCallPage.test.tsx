import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { json, renderAt } from '../../test/render';
import { sessionStore } from '../../lib/session';
import { whenPhrase } from '../../lib/time';
import { VideoCallPage } from './VideoCallPage';
import { inLocalTime } from './model';

/** A camera and a microphone that are live (jsdom has no media devices). */
function fakeStream() {
  const track = (kind: string) => ({ kind, readyState: 'live', enabled: true, stop: vi.fn(), addEventListener: vi.fn(), getSettings: () => ({ width: 1280, height: 720, frameRate: 30 }) });
  const audio = track('audio');
  const video = track('video');
  return { getTracks: () => [audio, video], getAudioTracks: () => [audio], getVideoTracks: () => [video] };
}

const waiting = { appointment_id: 'a1', status: 'waiting', provider: null, room: null, started_at: null, ends_at: null, ended_at: null, ended_by: null, auto_ended: false, duration_seconds: 0, participants: [], server_time: '2026-11-23T10:00:00Z' };

describe('the video call page', () => {
  const calls: string[] = [];
  beforeEach(() => {
    calls.length = 0;
    sessionStore.set({ token: 'a.b.c', refreshToken: null, user: { id: 'd1', user_id: 'd1', name: 'Dr. Ananya Sharma', email: null, account_type: 'doctor' }, authProvider: 'google' });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined); // jsdom plays nothing
    Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: vi.fn().mockResolvedValue(fakeStream()) }, configurable: true });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the server’s 409 detail when the window is not open yet, its time in the person’s own', async () => {
    const detail = 'The consultation opens at 2026-11-24T03:15:00Z, 15 minutes before the appointment starts';
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      if (url.endsWith('/join')) return json(409, { detail });
      return json(200, waiting);
    });
    renderAt('/video-call?appointment_id=a1', <VideoCallPage />);
    expect(await screen.findByText('Healthcare Provider')).toBeTruthy();
    const start = await screen.findByRole('button', { name: 'Start Consultation' });
    await vi.waitFor(() => expect((start as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(start);
    expect(await screen.findByText(inLocalTime(detail))).toBeTruthy();
    expect(inLocalTime(detail)).not.toContain('2026-11-24T03:15:00Z');
    expect(screen.getByText('Connection Issue')).toBeTruthy();
    expect(calls).toContain('POST /api/v1/consultations/a1/join');
  });

  it('a critical error (not your appointment) says so and returns to My Appointments', async () => {
    vi.stubGlobal('fetch', async () => json(404, { detail: 'Appointment not found' }));
    renderAt('/video-call?appointment_id=someone-elses', <VideoCallPage />);
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(screen.getByText('Video call error: Appointment not found')).toBeTruthy();
  });

  it('the lobby says with whom and when, from the caller’s own appointments', async () => {
    const row = { appointment_id: 'a1', patient_id: 'p1', patient_name: 'Priya Patel', notes: 'Fever', status: 'confirmed', status_reason: null, rejection_reason: null, created_at: '2026-11-23T09:00:00Z', consultation_fee: 399, slot: { slot_id: 7, slot_date: '2099-01-01', start_time: '10:00:00', end_time: '10:30:00', start_at: '2099-01-01T04:30:00Z' } };
    const other = { ...row, appointment_id: 'a2', patient_name: 'Rahul Verma' };
    vi.stubGlobal('fetch', async (url: string) => (url.includes('/appointments/me') ? json(200, [other, row]) : json(200, waiting)));
    renderAt('/video-call?appointment_id=a1', <VideoCallPage />);
    const context = await screen.findByTestId('lobby-appointment');
    // In the browser's zone, as every time in the app ('Thursday, 1 January at 10:00 am' in India).
    expect(context.textContent).toBe(`Consultation with Priya Patel · ${whenPhrase(row.slot.start_at)}`);
    expect(whenPhrase(row.slot.start_at, new Date('2098-12-25T00:00:00Z'), 'Asia/Kolkata')).toBe('Thursday, 1 January at 10:00 am');
  });

  it('an ended consultation opens on its summary', async () => {
    vi.stubGlobal('fetch', async () =>
      json(200, {
        ...waiting,
        status: 'ended',
        started_at: '2026-11-23T04:30:00Z',
        ends_at: '2026-11-23T05:00:00Z',
        ended_at: '2026-11-23T05:00:00Z',
        auto_ended: true,
        duration_seconds: 1800,
        participants: [{ user_id: 'd1', name: 'Dr. Ananya Sharma', role: 'doctor', role_display_name: 'Healthcare Provider', present: false, joined_at: null, left_at: null }],
      }),
    );
    renderAt('/video-call?appointment_id=a1', <VideoCallPage />);
    expect(await screen.findByText('Your session ended automatically due to time limit')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Back to Home' })).toBeTruthy();
  });
});
