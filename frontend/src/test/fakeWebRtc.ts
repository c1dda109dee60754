/**
 * A stand-in for the browser's RTCPeerConnection, for testing negotiation (jsdom has no WebRTC). It keeps JSEP's
 * signalling states (stable, have-local-offer, have-remote-offer, rollback, implicit rollback by a remote offer), fires
 * negotiationneeded as browsers do (once, when stable, after a track is added), gathers one host candidate per
 * connection, and connects two connections only when each holds the other's own credentials (ICE ufrag and DTLS
 * fingerprint, both per connection) and a candidate of the other's. So an answer applied to a connection other than
 * the one that made the offer (a replaced one) leaves both sides connecting for ever, as in a browser.
 */

let nextId = 0;

type Handler<E> = ((event: E) => void) | null;

interface FakeDescription {
  type: 'offer' | 'answer';
  sdp: string;
}

const field = (sdp: string, name: string) => new RegExp(`^a=${name}:(.+)$`, 'm').exec(sdp)?.[1]?.trim() ?? null;
const candidateUfrags = (sdp: string) => [...sdp.matchAll(/^a=candidate:.* ufrag (\S+)$/gm)].map((m) => m[1]!);

class DomError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export class FakeMediaStream {
  private readonly tracks: FakeTrack[] = [];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks.push(...tracks);
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  addTrack(track: FakeTrack) {
    this.tracks.push(track);
  }
}

export class FakeTrack {
  enabled = true;
  onmute: Handler<Event> = null;
  onunmute: Handler<Event> = null;
  constructor(readonly kind: 'audio' | 'video') {}
}

class FakeDataChannel {
  readyState: 'connecting' | 'open' | 'closed' = 'connecting';
  onopen: Handler<Event> = null;
  onmessage: Handler<MessageEvent> = null;
  send(): void {}
}

/** All the fake connections that can reach each other (one per test). */
export class FakeNetwork {
  readonly connections = new Set<FakePeerConnection>();

  /**
   * @param gatheringMs how long a connection takes to gather its candidate after its first description
   * @param rollbackStallsGathering as Chromium: an offer rolled back while its candidates are being gathered leaves the
   *   connection gathering for ever without a candidate, until ICE restarts
   */
  constructor(readonly options: { gatheringMs?: number; rollbackStallsGathering?: boolean } = {}) {}

  /** The class to install as the global RTCPeerConnection. */
  get PeerConnection(): new (config?: RTCConfiguration) => FakePeerConnection {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const network = this;
    return class extends FakePeerConnection {
      constructor() {
        super(network);
      }
    };
  }

  /** Connects every pair that holds each other's credentials and candidates. */
  check(): void {
    for (const a of this.connections) {
      if (a.connectionState === 'new' && a.remoteDescription && a.knowsCandidateOfRemote()) a.changeConnection('connecting');
    }
    for (const a of this.connections) {
      for (const b of this.connections) {
        if (a !== b && a.pairsWith(b) && b.pairsWith(a)) {
          if (a.connectionState !== 'connected') a.changeConnection('connected');
          if (b.connectionState !== 'connected') b.changeConnection('connected');
        }
      }
    }
  }
}

export class FakePeerConnection {
  readonly id = ++nextId;
  readonly fingerprint = `FA:KE:${this.id}`;
  ufrag = `ufrag${this.id}`;
  iceGatheringState: RTCIceGatheringState = 'new';
  private gatheringStalled = false;
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  onnegotiationneeded: Handler<Event> = null;
  onicecandidate: Handler<{ candidate: RTCIceCandidateInit | null }> = null;
  ontrack: Handler<{ track: FakeTrack; streams: FakeMediaStream[] }> = null;
  onconnectionstatechange: Handler<Event> = null;
  oniceconnectionstatechange: Handler<Event> = null;
  private local: FakeDescription | null = null;
  private currentLocal: FakeDescription | null = null;
  private remote: FakeDescription | null = null;
  private currentRemote: FakeDescription | null = null;
  private readonly tracks: FakeTrack[] = [];
  private negotiationNeeded = false;
  private gathered = false;
  private readonly remoteCandidates = new Set<string>();
  private channel: FakeDataChannel | null = null;
  private operations: Promise<unknown> = Promise.resolve();
  private pendingOperations = 0;
  private trackedRemote: string | null = null;
  private version = 0;
  /** Offers applied by setRemoteDescription (each one a renegotiation). */
  remoteOffersApplied = 0;
  closed = false;

  constructor(private readonly network: FakeNetwork) {
    network.connections.add(this);
  }

  get localDescription(): FakeDescription | null {
    return this.local && { type: this.local.type, sdp: this.local.sdp + (this.gathered ? `a=candidate:1 1 udp 2122260223 127.0.0.1 ${40000 + this.id} typ host ufrag ${this.ufrag}\n` : '') };
  }

  get remoteDescription(): FakeDescription | null {
    return this.remote;
  }

  addTrack(track: FakeTrack) {
    this.tracks.push(track);
    this.markNegotiationNeeded();
    return { track, replaceTrack: async () => {} };
  }

  createDataChannel() {
    this.channel = new FakeDataChannel();
    return this.channel;
  }

  restartIce(): void {
    this.ufrag = `${this.ufrag}r`;
    this.gathered = false;
    this.gatheringStalled = false;
    this.iceGatheringState = 'new';
    this.markNegotiationNeeded();
  }

  async getStats(): Promise<Map<string, unknown>> {
    return new Map();
  }

  close(): void {
    this.closed = true;
    this.signalingState = 'closed';
    this.connectionState = 'closed';
    this.network.connections.delete(this);
  }

  /** Operations run one at a time, each after a turn of the event loop (as the browser's operations chain). */
  private enqueue<T>(operation: () => T): Promise<T> {
    this.pendingOperations += 1;
    const run = this.operations.then(
      () =>
        new Promise<T>((resolve, reject) =>
          setTimeout(() => {
            try {
              if (this.closed) throw new DomError('InvalidStateError', 'The connection is closed');
              resolve(operation());
            } catch (error) {
              reject(error);
            }
          }, 0),
        ),
    );
    this.operations = run.catch(() => {}).then(() => {
      this.pendingOperations -= 1;
      // As browsers do: negotiationneeded waits for the operations chain to be empty.
      if (this.pendingOperations === 0 && this.negotiationNeeded) this.fireNegotiationNeeded();
    });
    return run;
  }

  setLocalDescription(description?: { type: 'rollback' | 'offer' | 'answer' }): Promise<void> {
    return this.enqueue(() => {
      if (description?.type === 'rollback') {
        if (this.signalingState !== 'have-local-offer' && this.signalingState !== 'have-remote-offer') throw new DomError('InvalidStateError', 'Nothing to roll back');
        this.rollback();
        return;
      }
      const type = description?.type ?? (this.signalingState === 'have-remote-offer' ? 'answer' : 'offer');
      if (type === 'offer') {
        if (this.signalingState !== 'stable' && this.signalingState !== 'have-local-offer') throw new DomError('InvalidStateError', `No offer in ${this.signalingState}`);
        this.local = { type, sdp: this.sdp() };
        this.signalingState = 'have-local-offer';
      } else {
        if (this.signalingState !== 'have-remote-offer') throw new DomError('InvalidStateError', `No answer in ${this.signalingState}`);
        this.local = { type, sdp: this.sdp() };
        this.completed();
      }
      this.gather();
      this.network.check();
    });
  }

  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    return this.enqueue(() => {
      const sdp = description.sdp ?? '';
      if (description.type === 'offer') {
        if (this.signalingState === 'have-local-offer') this.rollback(); // implicit rollback
        if (this.signalingState !== 'stable') throw new DomError('InvalidStateError', `No remote offer in ${this.signalingState}`);
        this.remote = { type: 'offer', sdp };
        this.signalingState = 'have-remote-offer';
        this.remoteOffersApplied += 1;
      } else if (description.type === 'answer') {
        if (this.signalingState !== 'have-local-offer') throw new DomError('InvalidStateError', `Called in wrong state: ${this.signalingState}`);
        this.remote = { type: 'answer', sdp };
        this.completed();
      } else throw new DomError('TypeError', `Unsupported ${String(description.type)}`);
      for (const ufrag of candidateUfrags(sdp)) this.remoteCandidates.add(ufrag);
      const fingerprint = field(sdp, 'fingerprint');
      if (fingerprint !== this.trackedRemote) {
        this.trackedRemote = fingerprint;
        const stream = new FakeMediaStream();
        for (const kind of ['audio', 'video'] as const) {
          const track = new FakeTrack(kind);
          stream.addTrack(track);
          this.ontrack?.({ track, streams: [stream] });
        }
      }
      this.network.check();
    });
  }

  addIceCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    return this.enqueue(() => {
      if (!this.remote) throw new DomError('InvalidStateError', 'The remote description was null');
      if (candidate.usernameFragment !== field(this.remote.sdp, 'ice-ufrag')) throw new DomError('OperationError', 'Error processing ICE candidate');
      this.remoteCandidates.add(candidate.usernameFragment!);
      this.network.check();
    });
  }

  knowsCandidateOfRemote(): boolean {
    const remoteUfrag = this.remote && field(this.remote.sdp, 'ice-ufrag');
    return remoteUfrag !== null && this.remoteCandidates.has(remoteUfrag);
  }

  /** This side holds `other`'s credentials and a candidate of it, and has described itself. */
  pairsWith(other: FakePeerConnection): boolean {
    if (!this.local || !this.remote || !this.knowsCandidateOfRemote()) return false;
    return field(this.remote.sdp, 'ice-ufrag') === other.ufrag && field(this.remote.sdp, 'fingerprint') === other.fingerprint;
  }

  changeConnection(state: RTCPeerConnectionState): void {
    this.connectionState = state;
    this.iceConnectionState = state === 'connected' ? 'connected' : 'checking';
    this.onconnectionstatechange?.(new Event('connectionstatechange'));
    if (state === 'connected' && this.channel && this.channel.readyState !== 'open') {
      this.channel.readyState = 'open';
      this.channel.onopen?.(new Event('open'));
    }
  }

  private sdp(): string {
    this.version += 1;
    return `v=0\no=- ${this.id} ${this.version} IN IP4 127.0.0.1\na=fingerprint:${this.fingerprint}\na=ice-ufrag:${this.ufrag}\na=tracks:${this.tracks.map((t) => t.kind).join(',')}\n`;
  }

  private rollback() {
    if (this.iceGatheringState === 'gathering' && this.network.options.rollbackStallsGathering) this.gatheringStalled = true;
    this.signalingState = 'stable';
    this.local = this.currentLocal;
    this.remote = this.currentRemote;
    if (this.negotiationNeeded) this.fireNegotiationNeeded();
  }

  /** An offer and its answer are both applied: what was to negotiate is. */
  private completed() {
    this.signalingState = 'stable';
    this.currentLocal = this.local;
    this.currentRemote = this.remote;
    this.negotiationNeeded = false;
  }

  private gather() {
    if (this.gathered) return;
    this.iceGatheringState = 'gathering';
    const ufrag = this.ufrag;
    setTimeout(() => {
      if (this.closed || this.gathered || this.gatheringStalled || ufrag !== this.ufrag) return;
      this.gathered = true;
      this.iceGatheringState = 'complete';
      this.onicecandidate?.({ candidate: { candidate: `candidate:1 1 udp 2122260223 127.0.0.1 ${40000 + this.id} typ host ufrag ${this.ufrag}`, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: this.ufrag } });
      this.onicecandidate?.({ candidate: null });
    }, this.network.options.gatheringMs ?? 1);
  }

  private markNegotiationNeeded() {
    if (this.negotiationNeeded) return;
    this.negotiationNeeded = true;
    this.fireNegotiationNeeded();
  }

  private fireNegotiationNeeded() {
    setTimeout(() => {
      if (!this.closed && this.negotiationNeeded && this.pendingOperations === 0 && this.signalingState === 'stable') this.onnegotiationneeded?.(new Event('negotiationneeded'));
    }, 0);
  }
}
