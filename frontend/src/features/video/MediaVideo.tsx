import { useEffect, useRef, type CSSProperties } from 'react';

/**
 * Told whether the browser refused to play an element (autoplay policy: a page reloaded into a call has had no click
 * yet): with a function to call from inside a click to play it, or null once it plays (or is gone).
 */
export type OnPlaybackBlocked = (play: (() => Promise<void>) | null) => void;

/** A call's video element's look, whichever element shows it (this one, or LiveKit's VideoTrack). */
export function videoStyle(mirrored: boolean | undefined, style?: CSSProperties): CSSProperties {
  return { width: '100%', height: '100%', objectFit: 'cover', transform: mirrored ? 'scaleX(-1)' : undefined, background: '#0d1716', ...style };
}

/** A <video> showing a MediaStream (srcObject cannot be set as an attribute). */
export function MediaVideo({ stream, muted, mirrored, label, testId, style, onPlaybackBlocked }: { stream: MediaStream | null; muted: boolean; mirrored?: boolean; label: string; testId?: string; style?: CSSProperties; onPlaybackBlocked?: OnPlaybackBlocked }) {
  const ref = useRef<HTMLVideoElement>(null);
  const onBlocked = useRef(onPlaybackBlocked);
  useEffect(() => {
    onBlocked.current = onPlaybackBlocked;
  });
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (!stream) return;
    // Autoplay rules: muted local video always plays; remote audio does after the user's click on Start Consultation,
    // but not after a reload that rejoins the call without a click: then the browser refuses (NotAllowedError).
    let current = true;
    // Whoever was told it is blocked is told when this element stops showing this stream (it may show another's next).
    let told: OnPlaybackBlocked | undefined;
    Promise.resolve()
      .then(() => video.play())
      .catch((error: unknown) => {
        if (!current || (error as { name?: unknown } | null)?.name !== 'NotAllowedError') return;
        told = onBlocked.current;
        told?.(() => video.play());
      });
    return () => {
      current = false;
      told?.(null);
    };
  }, [stream]);
  return (
    <video
      ref={ref}
      autoPlay
      playsInline
      muted={muted}
      aria-label={label}
      data-testid={testId}
      style={videoStyle(mirrored, style)}
    />
  );
}
