import { useEffect, useRef, type CSSProperties } from 'react';

/** A call's video element's look, whichever element shows it (this one, or LiveKit's VideoTrack). */
export function videoStyle(mirrored: boolean | undefined, style?: CSSProperties): CSSProperties {
  return { width: '100%', height: '100%', objectFit: 'cover', transform: mirrored ? 'scaleX(-1)' : undefined, background: '#0d1716', ...style };
}

/** A <video> showing a MediaStream (srcObject cannot be set as an attribute). */
export function MediaVideo({ stream, muted, mirrored, label, testId, style }: { stream: MediaStream | null; muted: boolean; mirrored?: boolean; label: string; testId?: string; style?: CSSProperties }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    // Autoplay rules: muted local video always plays; remote audio does after the user's click on Start Consultation.
    if (stream) Promise.resolve().then(() => video.play()).catch(() => {});
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
