import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Lobby, type Diagnostics } from './Lobby';
import { Summary } from './Summary';
import { buildSummary } from './model';
import type { LocalMedia } from './useLocalMedia';
import { renderAt } from '../../test/render';
import { CALL_RECORD } from '../../test/callRecord';

afterEach(cleanup);

const diagnostics: Diagnostics = { secureContext: true, mediaDevices: true, peerConnection: true, socket: 'connected', tokenWellFormed: true };
const media = (over: Partial<LocalMedia> = {}): LocalMedia => ({
  stream: null,
  cameraReady: true,
  microphoneReady: true,
  level: 0.3,
  error: null,
  clearError: vi.fn(),
  requesting: false,
  retry: vi.fn(),
  retryBasic: vi.fn(),
  stop: vi.fn(),
  ...over,
});
const lobby = (props: Partial<Parameters<typeof Lobby>[0]> = {}) => (
  <Lobby name="Priya Patel" roleDisplayName="Patient" media={media()} joining={false} waitingForDoctor={false} otherInLobby={null} error={null} onClearError={() => {}} onStart={() => {}} onDebug={() => {}} diagnostics={diagnostics} {...props} />
);

describe('the lobby', () => {
  it('shows who joins and lets them start once camera and microphone are ready', async () => {
    const onStart = vi.fn();
    render(lobby({ onStart }));
    expect(screen.getByText('PP')).toBeTruthy();
    expect(screen.getByText('Ready to connect')).toBeTruthy();
    expect(screen.getByText('Video Consultation')).toBeTruthy();
    expect(screen.getByText('End-to-End Encrypted')).toBeTruthy();
    expect(screen.getByText('Your consultation will begin with video and audio enabled')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Microphone level' }).getAttribute('aria-valuenow')).toBe('30');
    await userEvent.click(screen.getByRole('button', { name: 'Start Consultation' }));
    expect(onStart).toHaveBeenCalled();
  });

  it('says when the other participant is in their lobby too, and nothing when they are not', () => {
    const { rerender } = render(lobby());
    expect(screen.queryByTestId('other-in-lobby')).toBeNull();
    rerender(lobby({ otherInLobby: 'Your doctor is in the lobby and will start the consultation shortly' }));
    expect(screen.getByRole('status').textContent).toContain('Your doctor is in the lobby');
  });

  it('says with whom and when, and that the other participant is in the call already (rather than in their lobby)', () => {
    const { rerender } = render(lobby({ appointment: { otherName: 'Dr. Kavita Rao', when: 'Today at 7:30 am' } }));
    expect(screen.getByTestId('lobby-appointment').textContent).toBe('Consultation with Dr. Kavita Rao · Today at 7:30 am');
    expect(screen.queryByTestId('other-in-call')).toBeNull();
    rerender(lobby({ otherInCall: 'Dr. Kavita Rao', otherInLobby: 'Your doctor is in the lobby and will start the consultation shortly' }));
    expect(screen.getByTestId('other-in-call').textContent).toBe('Dr. Kavita Rao is in the consultation. Press Start Consultation to join.');
    expect(screen.queryByTestId('other-in-lobby')).toBeNull();
  });

  it('blocks the start while a device is not ready, and offers Retry Permissions and diagnostics', async () => {
    const m = media({ cameraReady: false, error: 'Camera and microphone access required: permission was denied' });
    render(lobby({ media: m }));
    expect((screen.getByRole('button', { name: 'Start Consultation' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Please allow camera and microphone access to join the consultation')).toBeTruthy();
    expect(screen.getByText('Connection Issue')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry Permissions' }));
    expect(m.retry).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Try Basic iPhone Mode' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show Diagnostics' }));
    expect(screen.getByText('Well formed')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(m.clearError).toHaveBeenCalled();
  });

  it('shows the iPhone Chrome steps for that error', () => {
    render(lobby({ media: media({ microphoneReady: false, error: 'Camera and microphone access required: iPhone Chrome permissions blocked' }) }));
    expect(screen.getByText('Open Site Settings.')).toBeTruthy();
    expect(screen.getByText('Or open this page in Safari.')).toBeTruthy();
  });

  it('reads Connecting securely... while joining; a patient whose doctor is not in yet may start and wait inside', () => {
    const { rerender } = render(lobby({ joining: true }));
    const button = screen.getByRole('button', { name: 'Connecting securely...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    // Seed 001 §2: disabled only while joining or while the camera or microphone is not ready (issue 31).
    rerender(lobby({ waitingForDoctor: true }));
    expect(screen.getByTestId('waiting-for-doctor').textContent).toBe('Your doctor has not joined yet. You can start now and wait for them in the consultation.');
    expect((screen.getByRole('button', { name: 'Start Consultation' }) as HTMLButtonElement).disabled).toBe(false);
    rerender(lobby({ waitingForDoctor: true, media: media({ microphoneReady: false }) }));
    expect((screen.getByRole('button', { name: 'Start Consultation' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the summary', () => {
  // React reports invalid markup (a <div> inside a <p>, ...) through console.error; it must say nothing here.
  let consoleError: MockInstance<typeof console.error>;
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    const nesting = consoleError.mock.calls.map((args) => args.map(String).join(' ')).filter((text) => /cannot be a descendant of|cannot contain a nested|validateDOMNesting/.test(text));
    consoleError.mockRestore();
    cleanup();
    expect(nesting).toEqual([]);
  });
  const record = CALL_RECORD;

  it('fades in after 100 ms with the auto-ended subtitle, status and the doctor’s actions', () => {
    vi.useFakeTimers();
    try {
      const summary = buildSummary({ record, me: { id: 'doc', name: 'Dr. Ananya Sharma', role: 'DOCTOR' }, autoEnded: true, timeZone: 'Asia/Kolkata' });
      render(<Summary summary={summary} doctor onHome={() => {}} />);
      act(() => vi.advanceTimersByTime(100));
      expect(screen.getByRole('heading', { name: 'Consultation Complete' })).toBeTruthy();
      expect(screen.getByText('Your session ended automatically due to time limit')).toBeTruthy();
      expect(screen.getByTestId('summary-status').textContent).toBe('Auto-ended');
      expect(screen.getByTestId('summary-duration').textContent).toBe('30:00');
      expect(screen.getByTestId('summary-start-time').textContent).toBe('10:00');
      expect(screen.getByText('Doctor Actions')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Upload Prescription' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Add Notes' })).toBeTruthy();
      expect(screen.getByText('You')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('thanks a patient after an ended call and offers Upload Reports', async () => {
    const summary = buildSummary({ record: { ...record, auto_ended: false }, me: { id: 'pat', name: 'Priya Patel', role: 'USER' }, autoEnded: false, timeZone: 'Asia/Kolkata' });
    // With the app's providers: the patient's upload opens the consent notice, read through the query client.
    renderAt('/summary', <Summary summary={summary} doctor={false} onHome={() => {}} />);
    expect(screen.getByText('Thank you for using Telemed')).toBeTruthy();
    expect(screen.queryByTestId('summary-status')).toBeNull();
    expect(screen.getByText('Patient Actions')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Upload Reports' }, { timeout: 15_000 })).toBeTruthy();
  });
});
