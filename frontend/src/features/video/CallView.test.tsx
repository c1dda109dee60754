import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CallView, type CallViewProps } from './CallView';

afterEach(cleanup);
// jsdom has no media playback; the tile's <video> asks to play its stream.
beforeAll(() => {
  HTMLMediaElement.prototype.play = () => Promise.resolve();
});

/** Stands in for a MediaStream: the tile only hands it to the <video>. */
const stream = {} as MediaStream;

const view = (over: Partial<CallViewProps> = {}) => (
  <CallView
    status="connected"
    clock={{ elapsed: 120, remaining: 1680, nearLimit: false, over: false }}
    showWarning={false}
    onDismissWarning={() => {}}
    localName="Dr. Ananya Sharma"
    localStream={stream}
    microphone
    camera
    audioOnly={false}
    remoteName="Priya Patel"
    waitingFor="Priya Patel"
    remotePresent
    remote={{ stream, audio: true, video: true }}
    poorQuality={false}
    onToggleMicrophone={() => {}}
    onToggleCamera={() => {}}
    onToggleAudioOnly={() => {}}
    onSettings={() => {}}
    onEnd={() => {}}
    ending={false}
    chat={null}
    {...over}
  />
);

const remoteVideoShown = () => (screen.getByTestId('remote-tile-video') as HTMLVideoElement).style.opacity === '1';

describe('the call view', () => {
  it('shows the other side’s video while connected', () => {
    render(view());
    expect(remoteVideoShown()).toBe(true);
    expect(screen.queryByTestId('remote-reconnecting')).toBeNull();
    expect(screen.getByTestId('participant-count').textContent).toBe('2 participants');
  });

  it('while the connection is interrupted, hides the frozen last frame behind their initials and says it is reconnecting', () => {
    render(view({ status: 'reconnecting' }));
    expect(remoteVideoShown()).toBe(false);
    expect(screen.getByTestId('remote-reconnecting').textContent).toBe('The connection to Priya Patel was interrupted. Reconnecting...');
    expect(screen.getByTestId('remote-tile').textContent).toContain('PP');
    expect(screen.queryByTestId('remote-tile-video-off')).toBeNull(); // not "video off": their camera may well be on
    expect(screen.getByTestId('call-status').textContent).toBe('Reconnecting...');
  });

  it('once the other side is recorded as gone, shows only this side, waiting for them', () => {
    render(view({ remotePresent: false, remote: { stream: null, audio: true, video: true } }));
    expect(screen.queryByTestId('remote-tile')).toBeNull();
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Waiting for Priya Patel to join…');
    expect(screen.getByTestId('waiting-state').textContent).toContain('You are in the consultation. The call connects as soon as they join.');
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
  });

  it('says the other side left, rather than that they have yet to join, once they were in the call', () => {
    render(view({ remotePresent: false, remoteLeft: true, remote: { stream: null, audio: true, video: true } }));
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Priya Patel left the call. Waiting for them to join again');
  });

  it('offers Audio only when the measured connection is poor, and not once it is audio only', async () => {
    const onToggleAudioOnly = vi.fn();
    const { rerender } = render(view({ poorQuality: true, onToggleAudioOnly }));
    expect(screen.getByText('The connection is weak. Audio only keeps the conversation going.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to audio only' }));
    expect(onToggleAudioOnly).toHaveBeenCalledTimes(1);
    rerender(view({ poorQuality: true, audioOnly: true, onToggleAudioOnly }));
    expect(screen.queryByRole('button', { name: 'Switch to audio only' })).toBeNull();
    expect((screen.getByLabelText('Audio only') as HTMLInputElement).checked).toBe(true);
    rerender(view({ poorQuality: false }));
    expect(screen.queryByText('The connection is weak. Audio only keeps the conversation going.')).toBeNull();
  });
});

/**
 * The browser's autoplay policy as a page reloaded into a call meets it: an element with sound may play only once the
 * user has clicked on the page (muted ones always). play() is refused with a NotAllowedError before.
 */
function autoplayPolicy() {
  let activated = false;
  const onClick = () => (activated = true);
  document.addEventListener('click', onClick, true);
  const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    return this.muted || activated ? Promise.resolve() : Promise.reject(new DOMException('play() failed because the user didn’t interact with the document first.', 'NotAllowedError'));
  });
  return {
    play,
    restore() {
      document.removeEventListener('click', onClick, true);
      play.mockRestore();
    },
  };
}

describe('the other side’s sound, when the browser will not play it before a click', () => {
  let policy: ReturnType<typeof autoplayPolicy>;
  beforeEach(() => {
    policy = autoplayPolicy();
  });
  afterEach(() => policy.restore());

  it('says so and offers Click to enable audio, which plays their element from the click', async () => {
    render(view());
    const enable = await screen.findByRole('button', { name: 'Click to enable audio' });
    expect(screen.getByTestId('audio-blocked').textContent).toContain('Your browser is not playing the call\'s sound yet.');
    const remote = screen.getByTestId('remote-tile-video') as HTMLVideoElement;
    const local = screen.getByTestId('local-tile-video') as HTMLVideoElement;
    expect(policy.play.mock.contexts).toContain(remote);
    expect(policy.play.mock.contexts).toContain(local); // muted: played, and no reason to ask
    policy.play.mockClear();

    await userEvent.click(enable);
    expect(policy.play.mock.contexts).toEqual([remote]);
    await waitFor(() => expect(screen.queryByTestId('audio-blocked')).toBeNull());
  });

  it('says nothing when the browser plays it, or refuses for another reason than the autoplay policy', async () => {
    policy.play.mockImplementation(() => Promise.reject(new DOMException('The play() request was interrupted by a new load request.', 'AbortError')));
    const { rerender } = render(view());
    await act(async () => {});
    expect(policy.play).toHaveBeenCalled();
    expect(screen.queryByTestId('audio-blocked')).toBeNull();
    policy.play.mockImplementation(() => Promise.resolve());
    rerender(view({ remote: { stream: { id: 'another' } as unknown as MediaStream, audio: true, video: true } }));
    await act(async () => {});
    expect(screen.queryByTestId('audio-blocked')).toBeNull();
  });

  it('takes the offer back when the other side’s element goes (they left the call)', async () => {
    const theirs = { id: 'theirs' } as unknown as MediaStream;
    const { rerender } = render(view({ remote: { stream: theirs, audio: true, video: true } }));
    await screen.findByRole('button', { name: 'Click to enable audio' });
    rerender(view({ remotePresent: false, remote: { stream: null, audio: true, video: true } }));
    expect(screen.queryByTestId('audio-blocked')).toBeNull();
  });
});

describe('the other side’s picture while the call is scrolled out of view', () => {
  /** An IntersectionObserver the test drives: how much of the call's tile shows. */
  let report: ((ratio: number) => void) | null = null;
  // Stubbed for each test: the test setup restores globals after every test.
  beforeEach(() => {
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: (entries: Array<{ intersectionRatio: number }>) => void) {}
        observe() {
          report = (ratio) => this.callback([{ intersectionRatio: ratio }]);
        }
        disconnect() {
          report = null;
        }
      },
    );
  });
  afterEach(() => {
    report = null;
  });

  it('shows them small in a corner (muted: the tile plays their sound) until the call is back in view; a tap scrolls back', async () => {
    const scrollIntoView = vi.fn();
    HTMLElement.prototype.scrollIntoView = scrollIntoView;
    render(view());
    expect(screen.queryByTestId('mini-remote')).toBeNull();
    act(() => report?.(0.1));
    const mini = screen.getByRole('button', { name: 'Back to the call with Priya Patel' });
    expect((screen.getByTestId('mini-remote-video') as HTMLVideoElement).muted).toBe(true);
    await userEvent.click(mini);
    expect(scrollIntoView).toHaveBeenCalled();
    act(() => report?.(0.8));
    expect(screen.queryByTestId('mini-remote')).toBeNull();
  });

  it('not while their camera is off, the connection is interrupted, or nobody is connected', () => {
    const { rerender } = render(view({ remote: { stream, audio: true, video: false } }));
    act(() => report?.(0));
    expect(screen.queryByTestId('mini-remote')).toBeNull();
    rerender(view({ status: 'reconnecting' }));
    expect(screen.queryByTestId('mini-remote')).toBeNull();
    rerender(view());
    expect(screen.getByTestId('mini-remote')).toBeTruthy();
    rerender(view({ remotePresent: false, remote: { stream: null, audio: true, video: true } }));
    expect(screen.queryByTestId('mini-remote')).toBeNull();
  });
});
