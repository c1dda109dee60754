import { setTimeout as sleep } from 'node:timers/promises';
import { type Bus, type BusMessage, type BusSubscription, subjectMatches } from './port';

const RECENT_IDS = 10_000;
const ATTEMPTS = 5;

/**
 * Bus inside one process, with the same promises as JetStream where they matter: a message id seen recently is
 * dropped, and a handler that throws gets the message again (a few times, with a growing pause).
 */
export class InProcessBus implements Bus {
  private readonly subscribers = new Set<{ pattern: string; handler: (message: BusMessage) => Promise<void>; queue: Promise<void> }>();
  private readonly recent = new Set<string>();
  private readonly onHandlerError: (error: unknown) => void;

  constructor(options: { onHandlerError?: (error: unknown) => void } = {}) {
    this.onHandlerError = options.onHandlerError ?? (() => {});
  }

  async publish(message: BusMessage): Promise<void> {
    if (this.recent.has(message.id)) return;
    this.recent.add(message.id);
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value!);
    for (const subscriber of this.subscribers) {
      // Each subscriber gets its messages one after another, in publish order.
      if (subjectMatches(subscriber.pattern, message.subject)) subscriber.queue = subscriber.queue.then(() => this.deliver(subscriber.handler, message));
    }
  }

  private async deliver(handler: (message: BusMessage) => Promise<void>, message: BusMessage): Promise<void> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      try {
        return await handler(message);
      } catch (error) {
        this.onHandlerError(error);
        if (attempt < ATTEMPTS) await sleep(50 * 2 ** attempt);
      }
    }
  }

  async subscribe(pattern: string, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    const subscriber = { pattern, handler, queue: Promise.resolve() };
    this.subscribers.add(subscriber);
    return { unsubscribe: async () => void this.subscribers.delete(subscriber) };
  }

  private readonly transient = new Set<{ pattern: string; handler: (subject: string, payload: unknown) => void }>();

  async publishTransient(subject: string, payload: unknown): Promise<void> {
    for (const subscriber of [...this.transient]) {
      if (!subjectMatches(subscriber.pattern, subject)) continue;
      // Never stored, never retried: a handler that throws loses that message, as on core NATS.
      try {
        subscriber.handler(subject, payload);
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }

  async subscribeTransient(pattern: string, handler: (subject: string, payload: unknown) => void): Promise<BusSubscription> {
    const subscriber = { pattern, handler };
    this.transient.add(subscriber);
    return { unsubscribe: async () => void this.transient.delete(subscriber) };
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    this.transient.clear();
  }
}
