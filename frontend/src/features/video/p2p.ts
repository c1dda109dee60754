/**
 * A peer-to-peer call between the appointment's two participants: one RTCPeerConnection with the join answer's ICE
 * servers, signalled over the notification socket, negotiated with the W3C "perfect negotiation" pattern (the doctor
 * impolite, the patient polite) so that either may join first, both may press at once, and either may reload and
 * join again. The impolite side offers as soon as its connection exists, the polite side only after a moment without
 * the other's offer (see politeFirstOffer); when offers cross all the same, the polite side rolls its own back and
 * answers, and the impolite side ignores the polite one's. A connection is kept for the whole time the other
 * side's session lasts: one replaced while signals are on their way would receive answers and candidates meant for
 * the old one (an answer to an offer it never made, then ten seconds of black video until the watchdog starts over).
 *
 * An offer may go out while the other side is not listening (not in the call yet, or not even on the page): when they
 * join, the impolite side sends its pending offer again, unchanged (same credentials, so an answer to either copy
 * fits), and the polite side's own offer, which the impolite side ignores, is answered by that.
 *
 * A reload makes a new connection with a new certificate: an offer whose DTLS fingerprint differs from the one in
 * use comes from a new session of the other side, and the old connection is replaced before answering it.
 *
 * After a long drop (the server recorded the other side as gone) the connection is torn down at once, so nothing
 * frozen stays on screen, and a new one is negotiated as soon as the other side is back; either side's socket coming
 * back while the media is not flowing starts over too, instead of waiting for the old connection to fail.
 *
 * The other side's media stopping (their page closed or crashed, their network or camera gone) is seen within a few
 * seconds from the bytes received ('Reconnecting...' over their initials, see MediaFlowWatch), well before the
 * connection's own state says so, and clears as soon as media arrives again.
 */
import type { ClientSignal } from '@telemed/contracts';
import type { RelayedSignal } from '../../lib/realtime';
import { parseMediaState, type CallConnection, type ConnectionEvents, type MediaState, type RemoteMedia } from './connection';
import { MEDIA_STALL_AFTER_MS, MediaFlowWatch, inboundBytes } from './mediaFlow';

export interface SignalTransport {
  send(signal: ClientSignal): void;
  /** Delivers the other participant's signals for this appointment (those received before, then new ones). */
  subscribe(handler: (signal: RelayedSignal) => void): () => void;
}

export interface PeerCallOptions {
  appointmentId: string;
  iceServers: RTCIceServer[];
  polite: boolean;
  localStream: MediaStream;
  transport: SignalTransport;
  events: ConnectionEvents;
  /** Initial local state (the lobby's choices). */
  microphone: boolean;
  camera: boolean;
  /** The other participant is in the call already (from the consultation's participants). */
  peerPresent: boolean;
  /** How often the connection's quality is measured (ms). */
  statsIntervalMs?: number;
  /** The impolite side starts over when a present peer has not connected for this long (ms). */
  stuckAfterMs?: number;
  /** How long the polite side waits for the other side's offer before making the first one of a connection (ms). */
  politeOfferDelayMs?: number;
  /** A connection still gathering without a single candidate this long after its description restarts ICE (ms). */
  gatheringStallMs?: number;
  /** The other side's media counts as dropped after this long without a byte received (ms). */
  mediaStallAfterMs?: number;
  /** How often the bytes received are read (ms). */
  mediaCheckIntervalMs?: number;
}


/** See PeerCallOptions.politeOfferDelayMs: the impolite side's offer comes within a round trip or two. */
export const POLITE_OFFER_DELAY_MS = 1500;
/** See PeerCallOptions.gatheringStallMs: host candidates come within a fraction of a second. */
export const GATHERING_STALL_MS = 1500;

const fingerprintOf = (sdp: string | undefined): string | null => /^a=fingerprint:(.+)$/m.exec(sdp ?? '')?.[1]?.trim() ?? null;
/** A description's session id and version (its o= line): the same for a description sent again unchanged. */
const originOf = (sdp: string | undefined): string | null => /^o=\S+ (\S+ \S+) /m.exec(sdp ?? '')?.[1] ?? null;

/** Poor: more than 8% of packets lost recently, or a round trip over 600 ms. */
export function isPoorQuality(sample: { lossFraction: number | null; roundTripSeconds: number | null }): boolean {
  return (sample.lossFraction ?? 0) > 0.08 || (sample.roundTripSeconds ?? 0) > 0.6;
}

export class PeerCall implements CallConnection {
  private pc!: RTCPeerConnection;
  private channel: RTCDataChannel | null = null;
  private videoSender: RTCRtpSender | null = null;
  private makingOffer = false;
  private ignoreOffer = false;
  private isSettingRemoteAnswerPending = false;
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  private microphone: boolean;
  private camera: boolean;
  private audioOnly = false;
  private remote: RemoteMedia = { stream: null, audio: true, video: true };
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private lastPackets: { received: number; lost: number } | null = null;
  private poor = false;
  private peerPresent: boolean;
  /** Since when this connection has been waiting for a present peer (the watchdog's start). */
  private waitingSince = 0;
  /** Candidates that arrived before their session description (a new connection's, after a reset on this side). */
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private watchdog: ReturnType<typeof setInterval> | null = null;
  /** Local candidates the current connection has gathered (none for long: its gathering stalled). */
  private localCandidates = 0;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private gatheringWatch: ReturnType<typeof setTimeout> | null = null;
  private readonly flow: MediaFlowWatch;
  private flowTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: PeerCallOptions) {
    this.microphone = options.microphone;
    this.camera = options.camera;
    this.peerPresent = options.peerPresent;
    this.flow = new MediaFlowWatch(options.mediaStallAfterMs ?? MEDIA_STALL_AFTER_MS);
  }

  start(): void {
    this.createConnection();
    this.unsubscribe = this.options.transport.subscribe((signal) => {
      this.chain = this.chain.then(() => this.handle(signal)).catch((error: unknown) => this.log('warn', 'Signal could not be applied', { type: signal.type, error: errorName(error) }));
    });
    this.statsTimer = setInterval(() => void this.measure(), this.options.statsIntervalMs ?? 3000);
    this.flowTimer = setInterval(() => void this.checkMediaFlow(), this.options.mediaCheckIntervalMs ?? 1000);
    // A negotiation can be lost (an offer sent while the other side was not listening, a signal dropped on the way):
    // the impolite side, whose offers always win, starts over when a present peer has not connected in time.
    const stuckAfter = this.options.stuckAfterMs ?? 10_000;
    this.watchdog = setInterval(() => {
      if (this.closed || this.options.polite || !this.peerPresent) return;
      if (this.pc.connectionState !== 'connected' && Date.now() - this.waitingSince > stuckAfter) this.reset('not connected in time');
    }, Math.min(2000, stuckAfter));
  }

  /** The current connection (the e2e test reads its statistics through the page's test hook). */
  get peerConnection(): RTCPeerConnection {
    return this.pc;
  }

  private log(level: 'info' | 'warn' | 'error' | 'debug', message: string, data?: Record<string, unknown>) {
    this.options.events.log(level, message, data);
  }

  private send(signal: ClientSignal) {
    if (!this.closed) this.options.transport.send(signal);
  }

  private createConnection() {
    const { localStream, iceServers, appointmentId } = this.options;
    const pc = new RTCPeerConnection({ iceServers });
    this.pc = pc;
    this.makingOffer = false;
    this.ignoreOffer = false;
    this.isSettingRemoteAnswerPending = false;
    this.lastPackets = null;
    this.videoSender = null;
    this.pendingCandidates = [];
    this.localCandidates = 0;
    this.waitingSince = Date.now();
    this.flow.reset();
    for (const track of localStream.getTracks()) {
      const sender = pc.addTrack(track, localStream);
      if (track.kind === 'video') this.videoSender = sender;
    }
    if (this.audioOnly) void this.videoSender?.replaceTrack(null);
    // Both sides open the same pre-agreed channel: no extra offer for it.
    const channel = pc.createDataChannel('media-state', { negotiated: true, id: 0 });
    this.channel = channel;
    channel.onopen = () => this.sendState();
    channel.onmessage = (event) => {
      const state = parseMediaState(event.data);
      if (state && pc === this.pc) this.setRemote({ ...this.remote, audio: state.audio, video: state.video });
    };

    pc.onnegotiationneeded = () => {
      if (pc !== this.pc || pc.signalingState !== 'stable') return;
      if (this.options.polite && !pc.remoteDescription) this.politeFirstOffer(pc);
      else void this.makeOffer(pc);
    };
    pc.onicecandidate = ({ candidate }) => {
      if (pc !== this.pc || !candidate || !candidate.candidate) return;
      this.localCandidates += 1;
      this.send({
        type: 'rtc_ice_candidate',
        appointment_id: appointmentId,
        candidate: { candidate: candidate.candidate, sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex, usernameFragment: candidate.usernameFragment },
      });
    };
    pc.ontrack = (event) => {
      if (pc !== this.pc) return;
      const stream = event.streams[0] ?? this.remote.stream ?? new MediaStream();
      if (!stream.getTracks().includes(event.track)) stream.addTrack(event.track);
      this.log('info', `Remote ${event.track.kind} track received`);
      // For the debug console only: whether a remote track is muted when its packets stop differs between browsers,
      // so the bytes received decide whether media flows (checkMediaFlow).
      event.track.onmute = () => pc === this.pc && this.log('debug', `Remote ${event.track.kind} track muted`);
      event.track.onunmute = () => pc === this.pc && this.log('debug', `Remote ${event.track.kind} track unmuted`);
      this.setRemote({ ...this.remote, stream });
    };
    pc.onconnectionstatechange = () => {
      if (pc !== this.pc) return;
      const state = pc.connectionState;
      this.log(state === 'failed' ? 'warn' : 'info', `Peer connection ${state}`);
      if (state === 'connected') this.options.events.status(this.flow.stalled ? 'reconnecting' : 'connected');
      else if (state === 'disconnected') this.options.events.status('reconnecting');
      else if (state === 'failed') {
        this.options.events.status('reconnecting');
        pc.restartIce();
      }
    };
    pc.oniceconnectionstatechange = () => {
      if (pc === this.pc) this.log('debug', `ICE ${pc.iceConnectionState}`);
    };
  }

  private later(ms: number, action: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) action();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private async makeOffer(pc: RTCPeerConnection) {
    try {
      this.makingOffer = true;
      await pc.setLocalDescription();
      const description = pc.localDescription;
      if (pc !== this.pc || !description) return;
      // An offer of the other side applied meanwhile makes this an answer (setLocalDescription() answers then).
      if (description.type === 'answer') return this.sendAnswer(pc);
      this.send({ type: 'rtc_offer', appointment_id: this.options.appointmentId, sdp: description.sdp });
      this.log('debug', 'Offer sent', { polite: this.options.polite });
      this.watchGathering(pc);
    } catch (error) {
      this.log('warn', 'Could not make an offer', { error: errorName(error) });
    } finally {
      this.makingOffer = false;
    }
  }

  /**
   * The polite side's first offer of a connection waits a moment for the other side's: the impolite side offers as
   * soon as its connection exists, and when the two cross the polite side rolls its own back, which Chromium does not
   * survive while that offer's candidates are being gathered (the answer then gathers none, and nothing connects until
   * the watchdog starts over). Nothing is offered to an absent peer: the impolite side offers when it joins. An
   * offer is still needed when the other side holds a connection of an earlier session of this side (a reload it
   * did not hear of): it then comes after the wait.
   */
  private politeFirstOffer(pc: RTCPeerConnection) {
    this.later(this.options.politeOfferDelayMs ?? POLITE_OFFER_DELAY_MS, () => {
      if (pc !== this.pc || !this.peerPresent || this.makingOffer || pc.signalingState !== 'stable' || pc.remoteDescription) return;
      void this.makeOffer(pc);
    });
  }

  /**
   * A description was sent: its candidates follow within a fraction of a second. A connection that is still gathering
   * without a single one after a while will not (Chromium, after a rollback at the wrong moment): ICE starts over on it.
   */
  private watchGathering(pc: RTCPeerConnection) {
    // One watch at a time: the newest description's (a restart's own offer is watched in turn).
    if (this.gatheringWatch) {
      clearTimeout(this.gatheringWatch);
      this.timers.delete(this.gatheringWatch);
    }
    this.gatheringWatch = this.later(this.options.gatheringStallMs ?? GATHERING_STALL_MS, () => {
      this.gatheringWatch = null;
      if (pc !== this.pc || this.localCandidates > 0 || pc.iceGatheringState !== 'gathering' || pc.connectionState === 'connected') return;
      if (this.makingOffer || pc.signalingState !== 'stable') return;
      this.log('warn', 'No ICE candidate gathered: restarting ICE');
      pc.restartIce();
    });
  }

  /** Replaces the connection with a new one (the other side started a new session, or ours never connected). */
  private reset(reason: string) {
    this.log('info', 'Starting a new peer connection', { reason });
    const old = this.pc;
    old.onnegotiationneeded = null;
    old.onicecandidate = null;
    old.ontrack = null;
    old.onconnectionstatechange = null;
    old.close();
    this.setRemote({ stream: null, audio: true, video: true });
    this.createConnection();
    if (this.peerPresent) this.options.events.status('connecting');
  }

  private async handle(signal: RelayedSignal): Promise<void> {
    if (this.closed || signal.appointment_id !== this.options.appointmentId) return;
    if (signal.type === 'rtc_hang_up') {
      this.log('info', 'The other participant hung up');
      this.peerPresent = false;
      this.reset('hang-up');
      return;
    }
    if (signal.type === 'rtc_ice_candidate') {
      if (!signal.candidate) return;
      if (!this.pc.remoteDescription) {
        if (this.pendingCandidates.length < 50) this.pendingCandidates.push(signal.candidate);
        return;
      }
      try {
        await this.pc.addIceCandidate(signal.candidate);
      } catch (error) {
        if (!this.ignoreOffer) this.log('debug', 'ICE candidate not applied', { error: errorName(error) });
      }
      return;
    }
    const description: RTCSessionDescriptionInit = { type: signal.type === 'rtc_offer' ? 'offer' : 'answer', sdp: signal.sdp };
    if (description.type === 'offer') {
      const current = fingerprintOf(this.pc.remoteDescription?.sdp);
      if (current && current !== fingerprintOf(description.sdp)) this.reset('the other participant reconnected');
    }
    const pc = this.pc;
    if (description.type === 'offer' && pc.signalingState === 'stable' && pc.remoteDescription?.type === 'offer' && originOf(description.sdp) !== null && originOf(description.sdp) === originOf(pc.remoteDescription.sdp)) {
      // The offer answered already, sent again (see peerJoined): applying it again would renegotiate a connection
      // being set up (its first video frame then came seconds later); the answer is sent again instead.
      this.sendAnswer(pc);
      return;
    }
    // Perfect negotiation: an offer collides with one of ours being made or waiting for its answer (unless that
    // answer is being applied right now). The impolite side ignores the polite one's; the polite side's own is
    // rolled back implicitly by setRemoteDescription.
    const readyForOffer = !this.makingOffer && (pc.signalingState === 'stable' || this.isSettingRemoteAnswerPending);
    const offerCollision = description.type === 'offer' && !readyForOffer;
    this.ignoreOffer = !this.options.polite && offerCollision;
    if (this.ignoreOffer) {
      this.log('debug', 'Ignored a colliding offer (impolite side)');
      return;
    }
    if (description.type === 'answer' && pc.signalingState !== 'have-local-offer') {
      // A second answer to an offer sent twice (see peerJoined), or one to an offer rolled back: nothing to apply.
      this.log('debug', 'Ignored an answer to an offer no longer pending');
      return;
    }
    this.isSettingRemoteAnswerPending = description.type === 'answer';
    try {
      await pc.setRemoteDescription(description);
    } finally {
      this.isSettingRemoteAnswerPending = false;
    }
    if (pc !== this.pc) return;
    this.peerPresent = true;
    for (const candidate of this.pendingCandidates.splice(0)) await pc.addIceCandidate(candidate).catch(() => this.log('debug', 'An early ICE candidate did not apply'));
    if (description.type === 'offer' && pc.signalingState === 'have-remote-offer') {
      await pc.setLocalDescription();
      if (pc === this.pc) this.sendAnswer(pc);
    }
  }

  private sendAnswer(pc: RTCPeerConnection) {
    if (pc.localDescription?.type !== 'answer' || pc.signalingState !== 'stable') return;
    this.send({ type: 'rtc_answer', appointment_id: this.options.appointmentId, sdp: pc.localDescription.sdp });
    this.log('debug', 'Answer sent');
    this.watchGathering(pc);
  }

  private setRemote(remote: RemoteMedia) {
    this.remote = remote;
    this.options.events.remote(remote);
  }

  private sendState() {
    const state: MediaState = { type: 'media', audio: this.microphone, video: this.camera && !this.audioOnly };
    if (this.channel?.readyState === 'open') this.channel.send(JSON.stringify(state));
  }

  setMicrophone(on: boolean): void {
    this.microphone = on;
    for (const track of this.options.localStream.getAudioTracks()) track.enabled = on;
    this.sendState();
  }

  setCamera(on: boolean): void {
    this.camera = on;
    for (const track of this.options.localStream.getVideoTracks()) track.enabled = on;
    this.sendState();
  }

  setAudioOnly(on: boolean): void {
    this.audioOnly = on;
    const track = this.options.localStream.getVideoTracks()[0] ?? null;
    void this.videoSender?.replaceTrack(on ? null : track).catch((error: unknown) => this.log('warn', 'Could not switch the video', { error: errorName(error) }));
    this.log('info', on ? 'Audio only: video is not sent' : 'Video is sent again');
    this.sendState();
  }

  /** Connected, or being connected from a description the other side sent (an answer to their offer is on its way). */
  private get connectingOrConnected(): boolean {
    const state = this.pc.connectionState;
    return state === 'connected' || (state === 'connecting' && this.pc.remoteDescription !== null);
  }

  /**
   * The other side joined (for the first time, or again after leaving: this side's connection was replaced then). The
   * connection is kept: replacing it now is what made the first join of a call wait for the watchdog. An offer of
   * the impolite side still waiting for its answer may have gone out before they listened: it is sent again as it
   * is (with the candidates gathered since). The polite side waits a moment for that offer before making its own.
   */
  peerJoined(): void {
    if (this.closed) return;
    const arrived = !this.peerPresent;
    this.peerPresent = true;
    if (this.connectingOrConnected) return;
    if (arrived) {
      this.waitingSince = Date.now();
      this.options.events.status('connecting');
    }
    if (this.options.polite) {
      const pc = this.pc;
      if (arrived && pc.signalingState === 'stable' && !pc.remoteDescription) this.politeFirstOffer(pc);
      return;
    }
    if (this.makingOffer) return;
    const offer = this.pc.signalingState === 'have-local-offer' ? this.pc.localDescription : null;
    if (offer?.type !== 'offer') return;
    this.send({ type: 'rtc_offer', appointment_id: this.options.appointmentId, sdp: offer.sdp });
    this.log('debug', 'Offer sent again (the other participant joined)');
  }

  /**
   * The other side left, or the server recorded them as gone after their socket stayed away past its grace: their
   * media will not come back on this connection (their page may have been closed, or its network changed), so it is
   * closed now rather than left showing the last frame until it fails, and a fresh one waits for them.
   */
  peerLeft(): void {
    if (this.closed) return;
    this.peerPresent = false;
    this.reset('the other participant left');
    this.options.events.status('connected');
  }

  /**
   * This page's notification socket is back after a drop: signals sent meanwhile were lost, so a connection that is
   * not carrying media starts over (the impolite side's offer wins if both do).
   */
  signallingRestored(): void {
    if (this.closed || !this.peerPresent || this.connectingOrConnected) return;
    this.reset('the notification socket is back');
  }

  /** Hangs up: tells the other side and closes the connection (the local media belongs to the page). */
  close(): void {
    if (this.closed) return;
    this.send({ type: 'rtc_hang_up', appointment_id: this.options.appointmentId });
    this.closed = true;
    this.unsubscribe?.();
    if (this.statsTimer) clearInterval(this.statsTimer);
    if (this.watchdog) clearInterval(this.watchdog);
    if (this.flowTimer) clearInterval(this.flowTimer);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pc.close();
  }

  /** Reads the bytes received: the other side's media stopping or flowing again shows at once on the status. */
  private async checkMediaFlow() {
    const pc = this.pc;
    if (this.closed || !this.remote.stream || pc.connectionState === 'closed') return;
    let report: RTCStatsReport;
    try {
      report = await pc.getStats();
    } catch {
      return; // closed meanwhile
    }
    if (this.closed || pc !== this.pc) return;
    const change = this.flow.sample(inboundBytes(report), Date.now());
    if (change === 'stalled') {
      this.log('warn', 'No media from the other participant', { for_ms: this.options.mediaStallAfterMs ?? MEDIA_STALL_AFTER_MS, connection: pc.connectionState });
      this.options.events.status('reconnecting');
    } else if (change === 'flowing') {
      this.log('info', 'Media from the other participant arrives again');
      if (pc.connectionState === 'connected') this.options.events.status('connected');
    }
  }

  private async measure() {
    if (this.closed || this.pc.connectionState !== 'connected') return;
    let received = 0;
    let lost = 0;
    let roundTrip: number | null = null;
    const report = await this.pc.getStats();
    report.forEach((stat: { type: string; kind?: string; packetsReceived?: number; packetsLost?: number; state?: string; nominated?: boolean; currentRoundTripTime?: number }) => {
      if (stat.type === 'inbound-rtp') {
        received += stat.packetsReceived ?? 0;
        lost += Math.max(0, stat.packetsLost ?? 0);
      } else if (stat.type === 'candidate-pair' && stat.state === 'succeeded' && stat.nominated && stat.currentRoundTripTime !== undefined) {
        roundTrip = stat.currentRoundTripTime;
      }
    });
    const previous = this.lastPackets;
    this.lastPackets = { received, lost };
    if (!previous) return;
    const dReceived = received - previous.received;
    const dLost = lost - previous.lost;
    const lossFraction = dReceived + dLost > 0 ? dLost / (dReceived + dLost) : null;
    const poor = isPoorQuality({ lossFraction, roundTripSeconds: roundTrip });
    if (poor !== this.poor) {
      this.poor = poor;
      this.log(poor ? 'warn' : 'info', poor ? 'Connection quality is poor' : 'Connection quality recovered', { lossFraction, roundTripSeconds: roundTrip });
      this.options.events.quality(poor);
    }
  }
}

function errorName(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 200);
  return String(error).slice(0, 200);
}
