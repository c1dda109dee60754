import {
  API_TEXTS,
  CLINICAL_RECORDS_RETENTION_YEARS,
  ERASURE_TEXTS,
  erasureLegalHold,
  type ErasureResult,
} from '@telemed/contracts';
import { HttpError, keyRingOf, policies, type ApiRouter, type EventStore } from '@telemed/platform';
import type { CommandContext } from '../decider';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { erasureEvent, handleUserCommand, loadUser } from './load-user';
import { releaseEmailClaim } from './service';
import { releasePhoneClaim } from '../messaging/phone-routes';

/**
 * Erases a person (right to erasure): records PersonalDataErased on their user stream, then destroys their personal data
 * key (their clinical records' key is kept until the retention period ends; see startClinicalRecordsRetention),
 * so every personal field of theirs in the log (and on the bus) reads as erased from then on and the projections
 * blank what they held. Again on an erased person it records nothing new and destroys the key again (a retry after a
 * failure between the two steps completes it). The answer lists what is kept, and why, for this kind of account (a
 * patient's own clinical records; a doctor's issued ones and the professional facts the log holds in clear).
 */
export async function eraseUser(
  eventStore: EventStore,
  userId: string,
  requestedBy: 'self' | 'platform_admin',
  context: CommandContext,
): Promise<ErasureResult & { position: number | null }> {
  const keys = keyRingOf(eventStore);
  // Without a key store the fields could not be shredded: refuse rather than answer an erasure that did not happen.
  if (!keys) throw new HttpError(503, 'Erasure is not available: this process has no key store');
  // The address's claim first, while the address still reads from the account: its key goes, so the claim no longer
  // names the account and the address is free again (identity/email.ts). A retry after a failure below finds it gone.
  const before = await loadUser(eventStore, userId);
  if (before.status === 'registered' && before.email) await releaseEmailClaim(eventStore, before.email, userId);
  // The verified number's claim likewise (messaging/phone-claim.ts): the number is free again.
  await releasePhoneClaim(eventStore, userId);
  const retainedUntil = new Date(context.now);
  retainedUntil.setUTCFullYear(retainedUntil.getUTCFullYear() + CLINICAL_RECORDS_RETENTION_YEARS);
  const result = await handleUserCommand(
    eventStore,
    userId,
    { type: 'EraseUserData', data: { requested_by: requestedBy, clinical_records_retained_until: retainedUntil.toISOString() } },
    context,
  );
  if (result.state.status !== 'erased') throw new HttpError(404, API_TEXTS.userNotFound);
  await keys.destroy(userId);
  const recorded = result.events.find((e) => e.type === 'PersonalDataErased') ?? (await erasureEvent(eventStore, userId));
  const data = recorded?.data as { kept: ErasureResult['kept'] } | undefined;
  const erased_at = (recorded?.metadata as { occurred_at: string } | undefined)?.occurred_at ?? context.now.toISOString();
  return { erased_at, kept: data?.kept ?? [...erasureLegalHold(result.state.account_type)], position: result.position };
}

export function erasureRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.implement('eraseMe', {
    policy: policies.anyUser,
    handler: async ({ auth, req }) => {
      const { position, ...answer } = await eraseUser(deps.eventStore, auth.user_id, 'self', requestContext(req, auth, deps.clock()));
      return { body: answer, headers: positionHeader(position) };
    },
  });

  api.implement('eraseUser', {
    policy: policies.roles('admin'),
    handler: async ({ params, auth, req }) => {
      // An operator erases a patient's or a doctor's data at their request, not an operator's (nor their own, in one
      // call by mistake): an admin who wants it asks for it themself, so no operator can shred the others.
      if (params.user_id === auth.user_id) throw new HttpError(409, ERASURE_TEXTS.ownAccountViaAdmin);
      const target = await loadUser(deps.eventStore, params.user_id);
      if (target.status === 'registered' && target.account_type === 'admin') throw new HttpError(409, ERASURE_TEXTS.adminOnOwnRequest);
      const { position, ...answer } = await eraseUser(deps.eventStore, params.user_id, 'platform_admin', requestContext(req, auth, deps.clock()));
      return { body: answer, headers: positionHeader(position) };
    },
  });
}
