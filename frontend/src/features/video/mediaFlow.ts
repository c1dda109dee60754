/** No byte from the other side for 3 s: their media dropped (a muted microphone or a camera turned off still sends). */
export const MEDIA_STALL_AFTER_MS = 3000;

/**
 * Whether the other participant's media is still arriving, from the bytes the peer connection has received (the
 * inbound RTP streams' `bytesReceived`, sampled about once a second).
 *
 * A page that is closed, crashes or loses its network stops sending long before the ICE layer notices (consent
 * checks take 5 s or more to say 'disconnected', and a DTLS close may leave the state unchanged), and a stopped
 * sender track sends nothing while the connection stays 'connected'. A camera turned off or a muted microphone still
 * sends (black frames, silence), and audio only still sends audio: so no bytes at all for a few seconds means the
 * media dropped. Counting starts only once media has flowed on this connection (a new one is 'connecting', not
 * stalled), and a later sample with more bytes means it flows again.
 */

export type MediaFlowChange = 'stalled' | 'flowing' | null;

export class MediaFlowWatch {
  private lastBytes = 0;
  private lastGrowthAt: number | null = null;
  private stalledNow = false;

  constructor(private readonly stallAfterMs: number) {}

  get stalled(): boolean {
    return this.stalledNow;
  }

  /** A new connection: nothing has flowed on it yet. */
  reset(): void {
    this.lastBytes = 0;
    this.lastGrowthAt = null;
    this.stalledNow = false;
  }

  /** The total bytes received so far at `now` (ms); says when the media stops or starts flowing again. */
  sample(bytesReceived: number, now: number): MediaFlowChange {
    if (bytesReceived > this.lastBytes) {
      this.lastBytes = bytesReceived;
      this.lastGrowthAt = now;
      if (!this.stalledNow) return null;
      this.stalledNow = false;
      return 'flowing';
    }
    // Fewer bytes than before: the counters of a replaced transceiver; the next growth counts from here.
    this.lastBytes = bytesReceived;
    if (this.lastGrowthAt === null || this.stalledNow || now - this.lastGrowthAt < this.stallAfterMs) return null;
    this.stalledNow = true;
    return 'stalled';
  }
}

/** The bytes received over every inbound RTP stream of a stats report (audio and video). */
export function inboundBytes(report: RTCStatsReport): number {
  let bytes = 0;
  report.forEach((stat: { type: string; bytesReceived?: number }) => {
    if (stat.type === 'inbound-rtp') bytes += stat.bytesReceived ?? 0;
  });
  return bytes;
}
