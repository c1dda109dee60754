import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import {
  PRIVACY_TEXTS,
  eventDataSchemas,
  streams,
  type AccessPurpose,
  type AccessResource,
  type EventData,
  type EventMetadata,
} from '@telemed/contracts';
import { HttpError } from '../http/errors';
import { Lru } from '../lru';
import type { AccessClaims } from '../auth/tokens';
import type { EventStore } from '../event-store/port';
import type { Logger } from '../logger';

/** What one request showed of other people: their ids and, for each, the items of theirs it showed. */
export class Subjects {
  private readonly items = new Map<string, Set<string>>();

  add(userId: string | null | undefined, item: string): this {
    if (!userId) return this;
    let set = this.items.get(userId);
    if (!set) this.items.set(userId, (set = new Set()));
    set.add(item);
    return this;
  }

  /** Everyone but the reader: reading one's own data is not audited. */
  others(readerId: string): Array<{ user_id: string; items: string[] }> {
    return [...this.items].filter(([id]) => id !== readerId).map(([user_id, items]) => ({ user_id, items: [...items] }));
  }
}

export interface AccessRecord {
  purpose: AccessPurpose;
  resource: AccessResource;
  /** The route's template, e.g. `GET /api/v1/appointments/:id/history`. */
  route: string;
  /** The institution read through, and the reader's role there. */
  institution?: { id: string; role: string | null } | null;
  subjects: Subjects;
}

/**
 * Access audit: every read of other people's personal or health data is a PersonalDataAccessed event on the
 * reader's access_audit stream, appended before the answer leaves. One event per request, listing its subjects. If
 * the event cannot be written, the read is refused (503): health data is never shown off the record.
 */
export class AccessAudit {
  constructor(
    private readonly deps: { eventStore: EventStore; clock: () => Date; logger: Logger },
  ) {}

  /** When a read recorded with `oncePer` was last recorded, by reader, route and subjects. */
  private readonly lastRecorded = new Lru<string, number>(10_000);

  /**
   * `oncePer` (milliseconds): a read the page repeats on a timer (a consultation's state, polled every few seconds) is
   * recorded once per that time for the same reader, route and people, not once per poll.
   */
  record(auth: AccessClaims, req: Request, access: AccessRecord, options: { oncePer?: number } = {}): Promise<void> {
    return this.recordFor(auth, req.get('X-Correlation-Id') ?? randomUUID(), access, options);
  }

  /** The same for what is shown off an HTTP request (a message pushed over the reader's socket). */
  async recordFor(auth: Pick<AccessClaims, 'user_id' | 'account_type'>, correlationId: string, access: AccessRecord, options: { oncePer?: number } = {}): Promise<void> {
    const subjects = access.subjects.others(auth.user_id);
    if (subjects.length === 0) return;
    const now = this.deps.clock().getTime();
    const { oncePer } = options;
    const repeat = oncePer === undefined ? null : JSON.stringify([auth.user_id, access.route, access.institution?.id ?? null, subjects]);
    if (repeat !== null && oncePer !== undefined) {
      const last = this.lastRecorded.get(repeat);
      if (last !== undefined && now - last < oncePer) return;
    }
    const data: EventData<'PersonalDataAccessed'> = eventDataSchemas.PersonalDataAccessed.parse({
      access_id: randomUUID(),
      accessor_id: auth.user_id,
      accessor_role: auth.account_type,
      institution_id: access.institution?.id ?? null,
      institution_role: access.institution?.role ?? null,
      purpose: access.purpose,
      resource: access.resource,
      route: access.route,
      subjects,
    });
    const metadata: EventMetadata = {
      actor: { user_id: auth.user_id, role: auth.account_type },
      correlation_id: correlationId,
      causation_id: null,
      occurred_at: this.deps.clock().toISOString(),
    };
    try {
      await this.deps.eventStore.appendToStream(
        streams.accessAudit(auth.user_id),
        [{ event_id: randomUUID(), type: 'PersonalDataAccessed', data, metadata }],
        { expectedRevision: 'any' },
      );
    } catch (error) {
      // Ids and the route only: never the data that was about to be shown. The error itself: the logger keeps its kind,
      // code and scrubbed message (a string here was logged as a thrown non-error, its reason lost).
      this.deps.logger.error({ err: error, route: access.route, resource: access.resource }, 'access audit not written; read refused');
      throw new HttpError(503, PRIVACY_TEXTS.auditUnavailable);
    }
    if (repeat !== null) this.lastRecorded.set(repeat, now);
  }
}
