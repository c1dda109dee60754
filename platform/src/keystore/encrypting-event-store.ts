import { clinicalRecordsSubject, isEventType, personalFieldRules, type EventType } from '@telemed/contracts';
import type { AppendOptions, AppendResult, EventStore, NewEvent, StoredEvent, SubscribeOptions, Subscription } from '../event-store/port';
import { decryptEventData, encryptEventData } from './event-envelope';
import type { KeyRing } from './key-ring';

/** Whether events of this type hold personal fields (contracts' PERSONAL_FIELDS). */
const personal = (type: string): type is EventType => isEventType(type) && personalFieldRules(type).length > 0;

/**
 * The event store as the product uses it: personal fields (contracts' PERSONAL_FIELDS) are encrypted under their
 * person's data key on append and decrypted on every read, so deciders, process managers and projections see plain
 * values while the log, and the bus that copies it, hold only ciphertext. A field whose key was destroyed reads as
 * ERASED_VALUE; a plain value written before encryption existed reads as it is. `log` is the store underneath, for
 * the one reader that must keep the ciphertext: the bus relay.
 */
export class EncryptingEventStore implements EventStore {
  constructor(
    readonly log: EventStore,
    readonly keys: KeyRing,
  ) {}

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    const sealed: NewEvent[] = [];
    for (const event of events) {
      sealed.push(
        personal(event.type)
          ? { ...event, data: await encryptEventData(event.type, event.data as object, this.keys.keyFor, options.parties ?? {}) }
          : event,
      );
    }
    return this.log.appendToStream(stream, sealed, options);
  }

  async readStream(stream: string): Promise<StoredEvent[]> {
    return this.open(await this.log.readStream(stream));
  }

  async readAll(options: { fromPosition: number; limit: number }): Promise<StoredEvent[]> {
    return this.open(await this.log.readAll(options));
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.log.subscribeToAll({ ...options, onEvents: async (events) => options.onEvents(await this.open(events)) });
  }

  headPosition(): Promise<number> {
    return this.log.headPosition();
  }

  async close(): Promise<void> {
    await this.log.close();
    await this.keys.close();
  }

  /** The events with their personal fields in clear; the array is reused when nothing needed decrypting. */
  private async open(events: StoredEvent[]): Promise<StoredEvent[]> {
    let out: StoredEvent[] | null = null;
    for (let i = 0; i < events.length; i += 1) {
      const event = events[i]!;
      // Another process erased this person: their key is gone, and so must be this process's copy.
      if (event.type === 'PersonalDataErased') this.keys.forget((event.data as { user_id: string }).user_id);
      if (event.type === 'ClinicalRecordsDestroyed') this.keys.forget(clinicalRecordsSubject((event.data as { user_id: string }).user_id));
      if (!personal(event.type)) continue;
      const { data } = await decryptEventData(event.type, event.data as object, this.keys.keyById, this.keys.cachedKeyById);
      if (data === event.data) continue;
      out ??= events.slice();
      out[i] = { ...event, data };
    }
    return out ?? events;
  }
}

/** The store underneath the encryption, holding ciphertext: what the relay publishes. */
export function ciphertextLog(store: EventStore): EventStore {
  return store instanceof EncryptingEventStore ? store.log : store;
}

/** The key ring behind an encrypting store (to destroy a person's key), or null for a store without encryption. */
export function keyRingOf(store: EventStore): KeyRing | null {
  return store instanceof EncryptingEventStore ? store.keys : null;
}
