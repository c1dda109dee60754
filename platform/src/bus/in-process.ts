import { type Bus, type BusMessage, type BusSubscription, subjectMatches } from './port';

/** Bus inside one process: delivers to every matching subscriber, in publish order. */
export class InProcessBus implements Bus {
  private readonly subscribers = new Set<{ pattern: string; handler: (message: BusMessage) => Promise<void> }>();
  private readonly onHandlerError: (error: unknown) => void;

  constructor(options: { onHandlerError?: (error: unknown) => void } = {}) {
    this.onHandlerError = options.onHandlerError ?? (() => {});
  }

  async publish(message: BusMessage): Promise<void> {
    for (const subscriber of this.subscribers) {
      if (!subjectMatches(subscriber.pattern, message.subject)) continue;
      try {
        await subscriber.handler(message);
      } catch (error) {
        this.onHandlerError(error);
      }
    }
  }

  async subscribe(pattern: string, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    const subscriber = { pattern, handler };
    this.subscribers.add(subscriber);
    return { unsubscribe: async () => void this.subscribers.delete(subscriber) };
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}
