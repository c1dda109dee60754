import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
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
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Waiting for Priya Patel to join');
    expect(screen.getByTestId('participant-count').textContent).toBe('1 participant');
  });

  it('says the other side left, rather than that they have yet to join, once they were in the call', () => {
    render(view({ remotePresent: false, remoteLeft: true, remote: { stream: null, audio: true, video: true } }));
    expect(screen.getByTestId('waiting-for-other').textContent).toBe('Priya Patel left the call. Waiting for them to join again');
  });
});
