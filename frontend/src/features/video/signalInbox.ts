import type { RelayedSignal } from '../../lib/realtime';

/** Signals kept while no call is listening yet (the other side may offer before this side has joined). */
export const SIGNAL_BUFFER_MAX = 100;

/** Only the signals of the newest offer's session, and what followed it: older ones belong to connections long gone. */
export function fromLastOffer(signals: RelayedSignal[]): RelayedSignal[] {
  for (let i = signals.length - 1; i >= 0; i -= 1) if (signals[i]!.type === 'rtc_offer') return signals.slice(i);
  return signals.filter((s) => s.type === 'rtc_hang_up').slice(-1);
}

/**
 * One appointment's incoming signals on a page: kept from the moment the page listens (in the lobby, the other side
 * may already be in the call and offering), handed to the call when it subscribes, then passed straight through.
 */
export class SignalInbox {
  private buffer: RelayedSignal[] = [];
  private handler: ((signal: RelayedSignal) => void) | null = null;

  deliver(signal: RelayedSignal): void {
    if (this.handler) return this.handler(signal);
    this.buffer.push(signal);
    if (this.buffer.length > SIGNAL_BUFFER_MAX) this.buffer.shift();
  }

  subscribe(handler: (signal: RelayedSignal) => void): () => void {
    const buffered = fromLastOffer(this.buffer.splice(0));
    this.handler = handler;
    for (const signal of buffered) handler(signal);
    return () => {
      if (this.handler === handler) this.handler = null;
    };
  }
}
