import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { AccessClaims, EventStore, Logger } from '@telemed/platform';
import type { CommandContext } from './decider';

export interface CommandDeps {
  eventStore: EventStore;
  logger: Logger;
  clock: () => Date;
  /** What a patient's wallet opens with (STARTING_CREDITS); the product's 100 when not given. */
  startingCredits?: number;
  /** Test-only fault injection (refused in production by the config). */
  faults?: { afterSlotReserved?: () => void; afterMoveHeld?: () => void; afterCaptureVerified?: () => void };
}

/** The command's context from an HTTP request; the correlation id was settled by the request log. */
export function requestContext(req: Request, auth: AccessClaims, now: Date): CommandContext {
  return {
    actor: { user_id: auth.user_id, role: auth.account_type },
    now,
    correlation_id: req.get('X-Correlation-Id') ?? randomUUID(),
    causation_id: null,
  };
}

export function positionHeader(position: number | null): Record<string, string> {
  return position === null ? {} : { 'X-Event-Position': String(position) };
}

/** For commands the system runs on behalf of an HTTP request that has no signed-in caller (token refresh). */
export function systemRequestContext(req: Request, now: Date): CommandContext {
  return { ...requestContext(req, { user_id: 'system', account_type: 'patient' }, now), actor: { user_id: 'system', role: 'system' } };
}
