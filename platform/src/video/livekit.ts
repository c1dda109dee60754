import { AccessToken, RoomServiceClient, TwirpError, WebhookReceiver } from 'livekit-server-sdk';
import type { VideoConnection, VideoProvider, VideoWebhook } from './port';
import { VideoWebhookRejected } from './port';

export interface LiveKitOptions {
  /** Where browsers connect (`wss://…`); the room service is reached at the same host over HTTP(S). */
  url: string;
  apiKey: string;
  apiSecret: string;
}

/** The room service speaks HTTP at the address the clients reach over WebSocket. */
export function roomServiceHost(url: string): string {
  return url.replace(/^ws:/, 'http:').replace(/^wss:/, 'https:');
}

/**
 * LiveKit: a token per participant and room (identity from the verified session, `roomJoin` for that room only,
 * ttl no longer than the time left), the room deleted at the end, webhooks verified with WebhookReceiver.
 */
export class LiveKitVideo implements VideoProvider {
  readonly kind = 'livekit' as const;
  private readonly rooms: RoomServiceClient;
  private readonly receiver: WebhookReceiver;

  constructor(private readonly options: LiveKitOptions) {
    this.rooms = new RoomServiceClient(roomServiceHost(options.url), options.apiKey, options.apiSecret);
    this.receiver = new WebhookReceiver(options.apiKey, options.apiSecret);
  }

  async connect(input: { room: string; identity: string; name: string; now: Date; expiresAt: Date }): Promise<VideoConnection> {
    const ttlSeconds = Math.floor((input.expiresAt.getTime() - input.now.getTime()) / 1000);
    if (ttlSeconds <= 0) throw new Error('No time left in this consultation for a token');
    const token = new AccessToken(this.options.apiKey, this.options.apiSecret, { identity: input.identity, name: input.name, ttl: ttlSeconds });
    token.addGrant({ room: input.room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    return { provider: this.kind, url: this.options.url, token: await token.toJwt() };
  }

  async closeRoom(room: string): Promise<void> {
    try {
      await this.rooms.deleteRoom(room);
    } catch (error) {
      // A room nobody entered (or already deleted) is not there: that is the wanted end state.
      if (error instanceof TwirpError && error.status === 404) return;
      throw error;
    }
  }

  async receiveWebhook(rawBody: string, authorization: string | undefined): Promise<VideoWebhook> {
    if (!authorization) throw new VideoWebhookRejected('No Authorization header');
    let event;
    try {
      event = await this.receiver.receive(rawBody, authorization);
    } catch (error) {
      throw new VideoWebhookRejected((error as Error).message);
    }
    const createdAt = Number(event.createdAt ?? 0n);
    return {
      id: event.id,
      event: event.event,
      room: event.room?.name || null,
      participant_identity: event.participant?.identity || null,
      participant_sid: event.participant?.sid || null,
      created_at: createdAt > 0 ? new Date(createdAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : null,
    };
  }
}
