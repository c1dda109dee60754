import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { AccessClaims, EventStore, Logger } from '@telemed/platform';
import type { CommandContext } from './decider';

export interface CommandDeps {
  eventStore: EventStore;
  logger: Logger;
  clock: () => Date;
  /** Test-only fault injection (refused in production by the config). */
  faults?: { afterSlotReserved?: () => void };
}

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,100}$/;

export function requestContext(req: Request, auth: AccessClaims, now: Date): CommandContext {
  const header = req.get('X-Correlation-Id');
  return {
    actor: { user_id: auth.user_id, role: auth.account_type },
    now,
    correlation_id: header && CORRELATION_ID.test(header) ? header : randomUUID(),
    causation_id: null,
  };
}

export function positionHeader(position: number | null): Record<string, string> {
  return position === null ? {} : { 'X-Event-Position': String(position) };
}
