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
    challenge_hash: string;
    expires_at: number;
    issued_at: number;
    /** Wrong tries by address, and in all. */
    wrong: Record<string, number>;
    wrong_total: number;
    used: boolean;
  } | null;
}

export type PhoneCodeCommand =
  | { type: 'IssueCode'; data: { code_id: string; code_hash: string; challenge_hash: string; address: string; now: Date } }
  | { type: 'TryCode'; data: { code_hash: string; challenge_hash: string; address: string; now: Date } };

const HOUR_MS = 3_600_000;


/**
 * Why a try cannot be made on the latest code. A try without the challenge its start answered is no try at all: it is
 * answered as a wrong code whatever the state (so nobody else learns whether a code is live) and counts against nothing.
 * With it: the code used or expired, or its tries spent from this address or in all.
 */
function tryRefusal(state: PhoneCodeState, challengeHash: string, address: string, now: number): HttpError | null {
  const code = state.latest;
  if (!code || code.challenge_hash !== challengeHash) return new HttpError(401, MESSAGING_TEXTS.phoneCodeWrong);
  if (code.used || code.expires_at <= now) return new HttpError(401, MESSAGING_TEXTS.phoneCodeExpired);
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
          latest: { code_id: data.code_id, code_hash: data.code_hash, challenge_hash: data.challenge_hash, expires_at: expiresAt, issued_at: at, wrong: {}, wrong_total: 0, used: false },
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
        const lastHour = state.recent.filter((r) => r.at > now - HOUR_MS);
        // The wait before another code doubles with each code of the last hour (30 s, 60 s, 120 s, ...); a code that
        // was used (a sign-in done) lets the next come at once.
        const latest = state.latest;
        const waitMs = latest && !latest.used ? PHONE_SIGN_IN.resendAfterSeconds * 1000 * 2 ** Math.max(0, lastHour.length - 1) : 0;
        const wait = latest ? Math.ceil((latest.issued_at + waitMs - now) / 1000) : 0;
        if (wait > 0) throw new HttpError(429, MESSAGING_TEXTS.phoneResendWait(wait), { 'Retry-After': String(wait) });
        // Per number and asking address, then per number whoever asks: a flood of codes to one phone is bounded.
        const fromHere = lastHour.filter((r) => r.address === data.address).length;
        if (fromHere >= PHONE_SIGN_IN.codesPerNumberAndAddressPerHour || lastHour.length >= PHONE_SIGN_IN.codesPerNumberPerHour) {
          throw new HttpError(429, MESSAGING_TEXTS.phoneRateLimited, { 'Retry-After': String(Math.ceil((lastHour[0]!.at + HOUR_MS - now) / 1000)) });
        }
        return [
          {
            type: 'PhoneSignInCodeIssued',
            data: {
              code_id: data.code_id,
              code_hash: data.code_hash,
              challenge_hash: data.challenge_hash,
              expires_at: new Date(now + PHONE_SIGN_IN.codeTtlSeconds * 1000).toISOString(),
              address: data.address,
            },
          },
        ];
      })
      .with({ type: 'TryCode' }, ({ data }): PhoneCodeEvent[] => {
        const refusal = tryRefusal(state, data.challenge_hash, data.address, data.now.getTime());
        if (refusal) throw refusal;
        const code = state.latest!;
        return [{ type: 'PhoneSignInCodeTried', data: { code_id: code.code_id, matched: code.code_hash === data.code_hash, address: data.address } }];
      })
      .exhaustive(),
};
