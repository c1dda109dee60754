import { AckPolicy, DeliverPolicy, JSONCodec, connect, headers, type ConsumerMessages, type JetStreamClient, type NatsConnection } from 'nats';
import type { Bus, BusMessage, BusSubscription } from './port';

const codec = JSONCodec<BusMessage['payload']>();

export interface NatsBusOptions {
  servers: string;
  /** The JetStream stream that captures the product's subjects. */
  stream?: string;
  subjects?: string[];
  /** How long JetStream remembers message ids to drop duplicates. */
  duplicateWindowMs?: number;
  onHandlerError?: (error: unknown) => void;
}

/**
 * Bus on NATS JetStream: a stream captures `telemed.events.>`; each publish carries `Nats-Msg-Id` = event id so a
 * republish after a crash is dropped by the server; durable consumers resume from their last ack after a restart,
 * and a message whose handler throws is redelivered.
 */
export class NatsBus implements Bus {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly options: Required<Omit<NatsBusOptions, 'onHandlerError'>> & Pick<NatsBusOptions, 'onHandlerError'>,
  ) {}

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const resolved = {
      stream: options.stream ?? 'TELEMED',
      subjects: options.subjects ?? ['telemed.events.>'],
      duplicateWindowMs: options.duplicateWindowMs ?? 2 * 60_000,
      servers: options.servers,
      onHandlerError: options.onHandlerError,
    };
    const nc = await connect({ servers: resolved.servers.split(','), name: 'telemed' });
    const jsm = await nc.jetstreamManager();
    // The bus carries notifications, not the record: a week of retention is plenty for consumers to catch up.
    const config = {
      name: resolved.stream,
      subjects: resolved.subjects,
      duplicate_window: resolved.duplicateWindowMs * 1_000_000,
      max_age: 7 * 24 * 3600 * 1_000_000_000,
    };
    try {
      await jsm.streams.info(resolved.stream);
      await jsm.streams.update(resolved.stream, config);
    } catch {
      await jsm.streams.add(config);
    }
    return new NatsBus(nc, nc.jetstream(), resolved);
  }

  async publish(message: BusMessage): Promise<void> {
    const h = headers();
    h.set('Nats-Msg-Id', message.id);
    await this.js.publish(message.subject, codec.encode(message.payload), { headers: h, msgID: message.id });
  }

  async subscribe(
    subject: string,
    handler: (message: BusMessage) => Promise<void>,
    options: { durableName?: string } = {},
  ): Promise<BusSubscription> {
    const jsm = await this.nc.jetstreamManager();
    const consumerConfig = {
      ack_policy: AckPolicy.Explicit,
      filter_subject: subject,
      ack_wait: 30_000_000_000,
      max_deliver: -1,
      ...(options.durableName
        ? // A replica that is gone for a day is forgotten; one that comes back sooner resumes from its last ack.
          { durable_name: options.durableName, deliver_policy: DeliverPolicy.New, inactive_threshold: 24 * 3600 * 1_000_000_000 }
        : { deliver_policy: DeliverPolicy.New, inactive_threshold: 60_000_000_000 }),
    };
    const info = await jsm.consumers.add(this.options.stream, consumerConfig);
    const consumer = await this.js.consumers.get(this.options.stream, info.name);
    const messages: ConsumerMessages = await consumer.consume({ max_messages: 256 });
    const done = (async () => {
      for await (const m of messages) {
        const id = m.headers?.get('Nats-Msg-Id') ?? `${m.info.stream}:${m.seq}`;
        try {
          await handler({ subject: m.subject, id, payload: codec.decode(m.data) });
          m.ack();
        } catch (error) {
          this.options.onHandlerError?.(error);
          m.nak(1000);
        }
      }
    })();
    return {
      unsubscribe: async () => {
        messages.stop();
        await done;
        if (!options.durableName) await jsm.consumers.delete(this.options.stream, info.name).catch(() => {});
      },
    };
  }

  /** Core NATS publish: not captured by the stream (its subjects are `telemed.events.>`), so never stored. */
  async publishTransient(subject: string, payload: unknown): Promise<void> {
    this.nc.publish(subject, codec.encode(payload));
  }

  async subscribeTransient(subject: string, handler: (subject: string, payload: unknown) => void): Promise<BusSubscription> {
    const subscription = this.nc.subscribe(subject, {
      callback: (error, message) => {
        if (error) return this.options.onHandlerError?.(error);
        try {
          handler(message.subject, codec.decode(message.data));
        } catch (handlerError) {
          this.options.onHandlerError?.(handlerError);
        }
      },
    });
    // Subscribed means the server has it: a publish from another connection after this returns is heard (the SUB is
    // otherwise still in this client's buffer, and a message that beats it to the server is lost to this subscriber).
    await this.nc.flush();
    return { unsubscribe: async () => subscription.unsubscribe() };
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}
