import { useCallback, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/useT';
import { BASIC_CONSTRAINTS, levelOf, mediaConstraints, mediaErrorReason, type LogLevel } from './model';

export interface LocalMedia {
  stream: MediaStream | null;
  cameraReady: boolean;
  microphoneReady: boolean;
  /** 0..1, from an AnalyserNode on the microphone. */
  level: number;
  error: string | null;
  clearError(): void;
  requesting: boolean;
  /** Asks again with the seeds' constraints. */
  retry(): void;
  /** 'Try Basic iPhone Mode': plain audio and video. */
  retryBasic(): void;
  /** Stops the camera and microphone (after the call). */
  stop(): void;
}

/**
 * The camera and microphone from getUserMedia with the seeds' constraints, their readiness, and the microphone's
 * level for the lobby's meter. The stream is kept for the call.
 */
export function useLocalMedia(log: (level: LogLevel, message: string, data?: Record<string, unknown>) => void): LocalMedia {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [requesting, setRequesting] = useState(false);
  const [level, setLevel] = useState(0);
  const [, setTick] = useState(0);
  const streamRef = useRef<MediaStream | null>(null);
  const logRef = useRef(log);
  logRef.current = log;
  // The failures are said in the language chosen when they happen.
  const t = useT();
  const tRef = useRef(t);
  tRef.current = t;

  const request = useCallback(async (basic: boolean) => {
    const userAgent = navigator.userAgent;
    const t = tRef.current;
    if (!navigator.mediaDevices?.getUserMedia) {
      setError(t('video.permissionFailure', { reason: t('video.mediaUnsupported') }));
      return;
    }
    setRequesting(true);
    try {
      const next = await navigator.mediaDevices.getUserMedia(basic ? BASIC_CONSTRAINTS : mediaConstraints(userAgent));
      streamRef.current?.getTracks().forEach((t) => t.stop());
      streamRef.current = next;
      for (const track of next.getTracks()) track.addEventListener('ended', () => setTick((n) => n + 1));
      setStream(next);
      setError(null);
      const video = next.getVideoTracks()[0]?.getSettings();
      logRef.current('info', 'Camera and microphone ready', { basic, width: video?.width, height: video?.height, frameRate: video?.frameRate });
    } catch (failure) {
      const reason = mediaErrorReason(failure, userAgent, t);
      setError(t(basic ? 'video.basicPermissionFailure' : 'video.permissionFailure', { reason }));
      logRef.current('error', 'getUserMedia failed', { name: (failure as { name?: string } | null)?.name ?? 'unknown', basic });
    } finally {
      setRequesting(false);
    }
  }, []);

  useEffect(() => {
    void request(false);
    return () => {
      streamRef.current?.getTracks().forEach((t) => t.stop());
      streamRef.current = null;
    };
  }, [request]);

  // The microphone level meter (Web Audio AnalyserNode), about 12 times a second.
  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0) return;
    const AudioContextClass = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioContextClass) return;
    const context = new AudioContextClass();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    const source = context.createMediaStreamSource(stream);
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getByteTimeDomainData(samples);
      setLevel(levelOf(samples));
    }, 80);
    return () => {
      clearInterval(timer);
      source.disconnect();
      void context.close().catch(() => {});
    };
  }, [stream]);

  const live = (track: MediaStreamTrack | undefined) => Boolean(track && track.readyState === 'live');
  return {
    stream,
    cameraReady: live(stream?.getVideoTracks()[0]),
    microphoneReady: live(stream?.getAudioTracks()[0]),
    level,
    error,
    clearError: () => setError(null),
    requesting,
    retry: () => void request(false),
    retryBasic: () => void request(true),
    stop: () => {
      streamRef.current?.getTracks().forEach((t) => t.stop());
      setLevel(0);
    },
  };
}
