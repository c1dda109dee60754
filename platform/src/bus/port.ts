/** The message bus port: subjects as in NATS (`a.b.c`, `*` one token, `>` the rest). At-least-once. */

export interface BusMessage {
  subject: string;
  /** Used for de-duplication (NATS `Nats-Msg-Id`): the event id. */
  id: string;
  payload: unknown;
}

export interface BusSubscription {
  unsubscribe(): Promise<void>;
}

export interface Bus {
  publish(message: BusMessage): Promise<void>;
  /** `durableName` lets a consumer resume from its last ack after a restart where the adapter supports it. */
  subscribe(subject: string, handler: (message: BusMessage) => Promise<void>, options?: { durableName?: string }): Promise<BusSubscription>;
  close(): Promise<void>;
  /**
   * Short-lived messages that are never stored (core NATS, not JetStream): delivered at most once, only to whoever
   * is subscribed at that moment. For peer-to-peer signalling between notifier replicas: stale offers are worse
   * than lost ones. Subjects under `telemed.transient.`.
   */
  publishTransient(subject: string, payload: unknown): Promise<void>;
  subscribeTransient(subject: string, handler: (subject: string, payload: unknown) => void): Promise<BusSubscription>;
}

/** The prefix of transient subjects (outside the JetStream stream's `telemed.events.>`). */
export const TRANSIENT_SUBJECT_PREFIX = 'telemed.transient.';

export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i += 1) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
