import { describe, expect, it } from 'vitest';
import { MediaFlowWatch, inboundBytes } from './mediaFlow';

describe('whether the other side’s media arrives (bytes received)', () => {
  it('is not stalled before anything flowed on the connection (it is still connecting)', () => {
    const watch = new MediaFlowWatch(3000);
    expect([watch.sample(0, 0), watch.sample(0, 5000), watch.sample(0, 60_000)]).toEqual([null, null, null]);
    expect(watch.stalled).toBe(false);
  });

  it('stalls once no byte arrived for the given time, once, and flows again with the next byte', () => {
    const watch = new MediaFlowWatch(3000);
    expect(watch.sample(1000, 0)).toBeNull();
    expect(watch.sample(5000, 1000)).toBeNull();
    expect(watch.sample(5000, 2000)).toBeNull();
    expect(watch.sample(5000, 3999)).toBeNull(); // 2999 ms without a byte
    expect(watch.sample(5000, 4000)).toBe('stalled');
    expect(watch.stalled).toBe(true);
    expect(watch.sample(5000, 9000)).toBeNull(); // said once
    expect(watch.sample(5200, 10_000)).toBe('flowing');
    expect(watch.stalled).toBe(false);
    expect(watch.sample(5300, 11_000)).toBeNull();
  });

  it('a new connection starts over: its first seconds are not a stall, and smaller counters are not an error', () => {
    const watch = new MediaFlowWatch(3000);
    watch.sample(1000, 0);
    watch.sample(1000, 4000);
    expect(watch.stalled).toBe(true);
    watch.reset();
    expect(watch.stalled).toBe(false);
    expect(watch.sample(0, 10_000)).toBeNull();
    expect(watch.sample(0, 20_000)).toBeNull();
    // Counters that went down (a replaced transceiver) count from where they are now.
    const other = new MediaFlowWatch(3000);
    other.sample(9000, 0);
    expect(other.sample(100, 1000)).toBeNull();
    expect(other.sample(200, 2000)).toBeNull();
    expect(other.sample(200, 5100)).toBe('stalled');
  });

  it('adds the bytes of every inbound RTP stream, audio and video, and nothing else', () => {
    const report = new Map<string, { type: string; bytesReceived?: number }>([
      ['a', { type: 'inbound-rtp', bytesReceived: 1200 }],
      ['v', { type: 'inbound-rtp', bytesReceived: 50_000 }],
      ['t', { type: 'transport', bytesReceived: 999_999 }],
      ['o', { type: 'outbound-rtp' }],
    ]);
    expect(inboundBytes(report as unknown as RTCStatsReport)).toBe(51_200);
  });
});
