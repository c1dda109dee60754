import type { Config } from '../config';
import { LiveKitVideo } from './livekit';
import { PeerToPeerVideo } from './p2p';
import type { VideoProvider } from './port';

export * from './port';
export { PeerToPeerVideo } from './p2p';
export { LiveKitVideo, roomServiceHost, type LiveKitOptions } from './livekit';
export { iceServersFor, parseIceServers, turnCredentials } from './ice';

/** LiveKit when its URL and keys are set, else peer to peer. */
export function videoFromConfig(config: Config): VideoProvider {
  const { LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET } = config;
  if (LIVEKIT_URL && LIVEKIT_API_KEY && LIVEKIT_API_SECRET) return new LiveKitVideo({ url: LIVEKIT_URL, apiKey: LIVEKIT_API_KEY, apiSecret: LIVEKIT_API_SECRET });
  return new PeerToPeerVideo();
}

/** What the consultation rules take from the configuration. */
export function consultationSettingsFromConfig(config: Config) {
  return {
    maxMinutes: config.CONSULTATION_MAX_MINUTES,
    earlyJoinMinutes: config.CONSULTATION_EARLY_JOIN_MINUTES,
    iceServers: config.iceServers,
    turnSecret: config.TURN_SECRET,
  };
}
export type ConsultationSettings = ReturnType<typeof consultationSettingsFromConfig>;
