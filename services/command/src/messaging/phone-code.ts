import { match } from 'ts-pattern';
import { MESSAGING_TEXTS, PHONE_SIGN_IN, type DomainEventOf } from '@telemed/contracts';
import { HttpError } from '@telemed/platform';
import type { Decider } from '../decider';

/**
 * The sign-in codes sent to one number (`phone_code-<keyed digest>`), as events: only each code's keyed hash, when it
 * ends, and who asked (the keyed digest of the client's address). The state keeps the last hour of requests and the
 * latest code's tries, so a look at a number that has had codes for years reads what a kept fold has not yet seen.
 */
export type PhoneCodeEvent = DomainEventOf<'PhoneSignInCodeIssued' | 'PhoneSignInCodeTried'>;

interface Issued {
  at: number;
  address: string;
}

export interface PhoneCodeState {
  /** Requests within the last hour (older ones are dropped as new ones come). */
  recent: Issued[];
  latest: {
    code_id: string;
    code_hash: string;
    expires_at: number;
    issued_at: number;
    /** Wrong tries by address, and in all. */
    wrong: Record<string, number>;
    wrong_total: number;
    used: boolean;
  } | null;
}

export type PhoneCodeCommand =
  | { type: 'IssueCode'; data: { code_id: string; code_hash: string; address: string; now: Date } }
  | { type: 'TryCode'; data: { code_hash: string; address: string; now: Date } };

const HOUR_MS = 3_600_000;


/** Why a try cannot be made on the latest code (none, used, expired, or its tries spent from this address or in all). */
function tryRefusal(state: PhoneCodeState, address: string, now: number): HttpError | null {
  const code = state.latest;
  if (!code || code.used || code.expires_at <= now) return new HttpError(401, MESSAGING_TEXTS.phoneCodeExpired);
  if ((code.wrong[address] ?? 0) >= PHONE_SIGN_IN.triesPerAddress || code.wrong_total >= PHONE_SIGN_IN.maxTriesAllAddresses) {
    return new HttpError(429, MESSAGING_TEXTS.phoneCodeTries);
  }
  return null;
}

export const phoneCodeDecider: Decider<PhoneCodeState, PhoneCodeCommand, PhoneCodeEvent> = {
  initialState: () => ({ recent: [], latest: null }),
  evolve: (state, event) =>
    match(event)
      .with({ type: 'PhoneSignInCodeIssued' }, ({ data }): PhoneCodeState => {
        const expiresAt = new Date(data.expires_at).getTime();
        const at = expiresAt - PHONE_SIGN_IN.codeTtlSeconds * 1000;
        return {
          recent: [...state.recent.filter((r) => r.at > at - HOUR_MS), { at, address: data.address }],
          latest: { code_id: data.code_id, code_hash: data.code_hash, expires_at: expiresAt, issued_at: at, wrong: {}, wrong_total: 0, used: false },
        };
      })
      .with({ type: 'PhoneSignInCodeTried' }, ({ data }): PhoneCodeState => {
        const latest = state.latest;
        if (!latest || latest.code_id !== data.code_id) return state;
        if (data.matched) return { ...state, latest: { ...latest, used: true } };
        return { ...state, latest: { ...latest, wrong: { ...latest.wrong, [data.address]: (latest.wrong[data.address] ?? 0) + 1 }, wrong_total: latest.wrong_total + 1 } };
      })
      .exhaustive(),
  decide: (command, state) =>
    match(command)
      .with({ type: 'IssueCode' }, ({ data }): PhoneCodeEvent[] => {
        const now = data.now.getTime();
        const latest = state.latest;
        // A new code may be asked for 30 s after the last, unless the last can no longer be used (its tries spent).
        const spent = latest !== null && (latest.used || latest.wrong_total >= PHONE_SIGN_IN.maxTriesAllAddresses || (latest.wrong[data.address] ?? 0) >= PHONE_SIGN_IN.triesPerAddress);
        const wait = latest && !spent ? Math.ceil((latest.issued_at + PHONE_SIGN_IN.resendAfterSeconds * 1000 - now) / 1000) : 0;
        if (wait > 0) throw new HttpError(429, MESSAGING_TEXTS.phoneResendWait(wait), { 'Retry-After': String(wait) });
        // Per number and asking address: someone asking for codes to another's number cannot use up the owner's.
        const fromHere = state.recent.filter((r) => r.address === data.address && r.at > now - HOUR_MS).length;
        if (fromHere >= PHONE_SIGN_IN.codesPerNumberAndAddressPerHour) throw new HttpError(429, MESSAGING_TEXTS.phoneRateLimited);
        return [
          {
            type: 'PhoneSignInCodeIssued',
            data: { code_id: data.code_id, code_hash: data.code_hash, expires_at: new Date(now + PHONE_SIGN_IN.codeTtlSeconds * 1000).toISOString(), address: data.address },
          },
        ];
      })
      .with({ type: 'TryCode' }, ({ data }): PhoneCodeEvent[] => {
        const refusal = tryRefusal(state, data.address, data.now.getTime());
        if (refusal) throw refusal;
        const code = state.latest!;
        return [{ type: 'PhoneSignInCodeTried', data: { code_id: code.code_id, matched: code.code_hash === data.code_hash, address: data.address } }];
      })
      .exhaustive(),
};
