import type { VideoProvider } from './port';

/** Peer to peer: nothing to mint or close on a server; the browsers signal over the notifier's socket. */
export class PeerToPeerVideo implements VideoProvider {
  readonly kind = 'p2p' as const;
  async connect() {
    return { provider: this.kind };
  }
  async closeRoom(): Promise<void> {}
}
