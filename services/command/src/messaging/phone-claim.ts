import { match } from 'ts-pattern';
import { ERASED_VALUE, MESSAGING_TEXTS, type DomainEventOf } from '@telemed/contracts';
import { HttpError } from '@telemed/platform';
import type { Decider } from '../decider';

/**
 * A verified mobile number belongs to one account (`phone-<keyed digest>`), as an e-mail address does (identity/email.ts
 * says why the claim is sealed under a key of its own): the owner's id and the number under the claim's random id, whose
 * key an erasure destroys, freeing the number.
 */
export type PhoneClaimEvent = DomainEventOf<'PhoneClaimed'>;
export interface PhoneClaimState {
  user_id: string | null;
  claim_id: string | null;
}
export type PhoneClaimCommand = {
  type: 'ClaimPhone';
  data: { phone_number: string; user_id: string; claim_id: string; previous_owner: 'registered' | 'erased' | 'unregistered'; now: Date };
};

export const phoneClaimDecider: Decider<PhoneClaimState, PhoneClaimCommand, PhoneClaimEvent> = {
  initialState: () => ({ user_id: null, claim_id: null }),
  evolve: (_state, event) =>
    match(event)
      .with({ type: 'PhoneClaimed' }, ({ data }): PhoneClaimState => ({ user_id: data.user_id === ERASED_VALUE ? null : data.user_id, claim_id: data.claim_id }))
      .exhaustive(),
  decide: (command, state) => {
    const { data } = command;
    if (state.user_id === data.user_id) return [];
    if (state.user_id !== null && data.previous_owner === 'registered') {
      throw new HttpError(409, MESSAGING_TEXTS.phoneTaken);
    }
    return [{ type: 'PhoneClaimed', data: { claim_id: data.claim_id, phone_number: data.phone_number, user_id: data.user_id, claimed_at: data.now.toISOString() } }];
  },
};
