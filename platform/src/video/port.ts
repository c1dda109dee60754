import type { VideoProviderKind } from '@telemed/contracts';
import { TRANSIENT_SUBJECT_PREFIX } from '../bus/port';

/** The notifier asks the write side to record a participant whose call socket dropped (never stored on the bus). */
export const PARTICIPANT_DISCONNECTED_SUBJECT = `${TRANSIENT_SUBJECT_PREFIX}consultation.disconnected`;

/** What a participant needs to connect to a consultation's room (the ICE servers are added by the caller). */
export interface VideoConnection {
  provider: VideoProviderKind;
  /** LiveKit: the server's URL. */
  url?: string;
  /** LiveKit: a token for this room and this identity only, expiring no later than the consultation. */
  token?: string;
}

/** A provider's webhook, verified from the raw body before anything in it is trusted. */
export interface VideoWebhook {
  id: string;
  event: string;
  room: string | null;
  participant_identity: string | null;
  /** The provider's id of that participant's session: a rejoin of the same identity gets a new one. */
  participant_sid: string | null;
  /** When the provider says it happened (UTC instant), if it says. */
  created_at: string | null;
}

export class VideoWebhookRejected extends Error {}

/**
 * The Video port: peer to peer (the browsers connect to each other, signalling over the notifier) or a room service
 * (LiveKit). Identity comes from the verified session, never from a request.
 */
export interface VideoProvider {
  readonly kind: VideoProviderKind;
  connect(input: { room: string; identity: string; name: string; now: Date; expiresAt: Date }): Promise<VideoConnection>;
  /** The consultation ended: nobody may stay in its room. */
  closeRoom(room: string): Promise<void>;
  /** Verifies a webhook from its raw body and Authorization header; throws VideoWebhookRejected when it is not genuine. */
  receiveWebhook?(rawBody: string, authorization: string | undefined): Promise<VideoWebhook>;
}
