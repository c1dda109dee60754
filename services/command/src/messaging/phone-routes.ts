import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { API_TEXTS, MESSAGING_TEXTS, PHONE_SIGN_IN, streams, type MessageChannel } from '@telemed/contracts';
import { AddressBudget, HttpError, addressKey, keyRingOf, pageLanguage, policies, privateDigest, type ApiRouter, type EventStore, type TokenService } from '@telemed/platform';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { handleCommand, readStream, systemContext } from '../decider';
import { positionHeader, requestContext, systemRequestContext } from '../context';
import { registerUser, loadUser } from '../users/service';
import { accountStatus } from '../users/account-standing';
import { sessionUser } from '../identity/routes';
import { startSession } from '../identity/sessions';
import { phoneCodeDecider } from './phone-code';
import { phoneClaimDecider } from './phone-claim';
import { contactDecider } from './contact';
import { normalisePhoneNumber, phoneDigest } from './phone-number';
import { loadContact } from './dispatch';
import { renderMessage } from './render';
import { sendNow } from './send-now';
import type { MessagingDeps } from './dispatch';

export interface PhoneRouteDeps extends MessagingDeps {
  tokens: TokenService;
  /** The countries (ISO 3166 codes) whose numbers may sign in and be sent codes (PHONE_COUNTRIES; India unless told). */
  phoneCountries?: readonly string[];
}

/** Codes go to a phone: by SMS first, WhatsApp where SMS is not configured or fails. */
const CODE_CHANNELS: readonly MessageChannel[] = ['sms', 'whatsapp'];

const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The keyed digest of the client's address as budgets count it (an IPv6 address by its /64). */
async function addressDigest(deps: PhoneRouteDeps, req: Request): Promise<string> {
  const address = addressKey(clientAddress(req));
  return (await privateDigest(deps.eventStore, 'client address', address)) ?? createHash('sha256').update(`client address:${address}`).digest('hex');
}

/** A code's keyed hash: the log never holds a code, and a code of one number says nothing of another's. */
async function codeHash(deps: PhoneRouteDeps, e164: string, code: string): Promise<string> {
  return phoneDigest(deps.eventStore, 'phone code', `${e164}:${code}`);
}

/**
 * Who holds a verified number, read from the write side (no read-model lag); null when no registered account does, or
 * when the account has verified another number since (its number changed: the old one signs nobody in).
 */
export async function findUserIdByPhone(deps: Pick<PhoneRouteDeps, 'eventStore'>, e164: string): Promise<string | null> {
  const { state } = await readStream(deps.eventStore, streams.phone(await phoneDigest(deps.eventStore, 'phone claim', e164)), phoneClaimDecider);
  if (!state.user_id) return null;
  if ((await accountStatus(deps.eventStore, state.user_id)).status !== 'registered') return null;
  return (await loadContact(deps.eventStore, state.user_id)).verified_phone === e164 ? state.user_id : null;
}

/** Frees a number an account held (its claim's key destroyed, as an erasure does): for a number replaced by another. */
async function releaseClaimOf(eventStore: EventStore, e164: string, userId: string): Promise<void> {
  const keys = keyRingOf(eventStore);
  const { state } = await readStream(eventStore, streams.phone(await phoneDigest(eventStore, 'phone claim', e164)), phoneClaimDecider);
  if (keys && state.user_id === userId && state.claim_id) await keys.destroy(state.claim_id);
}

/**
 * Records the number as the account's: its claim first (refused when another account holds it), then the account's
 * contact; the number it replaces is freed (a number passed on by its carrier must not sign into this account).
 */
export async function claimPhone(deps: Pick<PhoneRouteDeps, 'eventStore' | 'clock'>, e164: string, userId: string) {
  const now = deps.clock();
  const replaced = (await loadContact(deps.eventStore, userId)).verified_phone;
  const stream = streams.phone(await phoneDigest(deps.eventStore, 'phone claim', e164));
  const claim = await readStream(deps.eventStore, stream, phoneClaimDecider);
  const previousOwner = claim.state.user_id === null ? 'unregistered' : (await accountStatus(deps.eventStore, claim.state.user_id)).status;
  await handleCommand(deps.eventStore, stream, phoneClaimDecider, { type: 'ClaimPhone', data: { phone_number: e164, user_id: userId, claim_id: `claim-${randomUUID()}`, previous_owner: previousOwner, now } }, systemContext(now, null), claim);
  const verified = await handleCommand(deps.eventStore, streams.contact(userId), contactDecider, { type: 'VerifyPhone', data: { user_id: userId, phone_number: e164 } }, systemContext(now, null));
  if (replaced && replaced !== e164) await releaseClaimOf(deps.eventStore, replaced, userId);
  return verified;
}

/**
 * An erasure's part in the person's verified number: the claim's key is destroyed, so the claim no longer names them and
 * the number is free again. Run before the person's own key goes (the number is read from their contact). Idempotent.
 */
export async function releasePhoneClaim(eventStore: EventStore, userId: string): Promise<void> {
  const phone = (await loadContact(eventStore, userId)).verified_phone;
  if (phone) await releaseClaimOf(eventStore, phone, userId);
}

/**
 * What a code was sent for: signing in, or adding the number to one account. Its challenge is hashed with it, so a code
 * works only where it was asked for: a code to add a number signs nobody in, and a sign-in code adds the number to no
 * account (a stranger who talked its holder out of one could otherwise take the account, or give them theirs).
 */
type CodePurpose = 'sign_in' | `add:${string}`;
const codePurpose = (kind: 'sign_in_code' | 'phone_verification_code', recipientId: string | null): CodePurpose =>
  kind === 'sign_in_code' ? 'sign_in' : `add:${recipientId}`;
const challengeFor = (purpose: CodePurpose, challenge: string) => `challenge:${purpose}:${challenge}`;

export function phoneRoutes(api: ApiRouter, deps: PhoneRouteDeps): void {
  // Codes asked for, and codes checked, by one address in an hour whatever the numbers (per number: the code stream's rules).
  const perAddress = new AddressBudget({ points: PHONE_SIGN_IN.codesPerAddressPerHour, windowSeconds: 3600, name: 'phone-code-address' });
  const triesPerAddress = new AddressBudget({ points: PHONE_SIGN_IN.triesPerAddressPerHour, windowSeconds: 3600, name: 'phone-try-address' });
  const countries = deps.phoneCountries ?? ['IN'];
  const number = (input: string) => normalisePhoneNumber(input, countries);

  const sendCode = async (req: Request, e164: string, recipientId: string | null, kind: 'sign_in_code' | 'phone_verification_code') => {
    if (!(await perAddress.take(clientAddress(req)))) throw new HttpError(429, MESSAGING_TEXTS.phoneRateLimited, { 'Retry-After': '3600' });
    const codeStream = streams.phoneCode(await phoneDigest(deps.eventStore, 'phone code', e164));
    const code = String(randomInt(0, 10 ** PHONE_SIGN_IN.codeLength)).padStart(PHONE_SIGN_IN.codeLength, '0');
    const challenge = randomBytes(24).toString('base64url');
    const codeId = randomUUID();
    const address = await addressDigest(deps, req);
    await handleCommand(
      deps.eventStore,
      codeStream,
      phoneCodeDecider,
      { type: 'IssueCode', data: { code_id: codeId, code_hash: await codeHash(deps, e164, code), challenge_hash: await codeHash(deps, e164, challengeFor(codePurpose(kind, recipientId), challenge)), address, now: deps.clock() } },
      systemRequestContext(req, deps.clock()),
    );
    const recipient = recipientId ? await loadUser(deps.eventStore, recipientId) : null;
    const language = recipient?.status === 'registered' && recipient.language ? recipient.language : pageLanguage(req);
    const rendered = renderMessage(kind, language, { code, minutes: PHONE_SIGN_IN.codeTtlSeconds / 60 });
    const channel = await sendNow(deps, { idempotency_key: `sign_in:${codeId}`, kind, recipient_id: recipientId, language, to: e164, rendered }, CODE_CHANNELS);
    if (!channel) throw new HttpError(503, MESSAGING_TEXTS.messagingUnavailable);
    return {
      body: { status: 'code_sent' as const, phone_number: e164, channel, resend_after_seconds: PHONE_SIGN_IN.resendAfterSeconds, expires_in_seconds: PHONE_SIGN_IN.codeTtlSeconds, challenge },
      headers: { 'Cache-Control': 'no-store' },
    };
  };

  /** Spends one try of the number's latest code (recorded, right or wrong); 401 when it was wrong. */
  const checkCode = async (req: Request, e164: string, code: string, challenge: string, purpose: CodePurpose) => {
    if (!(await triesPerAddress.take(clientAddress(req)))) throw new HttpError(429, MESSAGING_TEXTS.phoneCodeTries, { 'Retry-After': '3600' });
    const codeStream = streams.phoneCode(await phoneDigest(deps.eventStore, 'phone code', e164));
    const result = await handleCommand(
      deps.eventStore,
      codeStream,
      phoneCodeDecider,
      { type: 'TryCode', data: { code_hash: await codeHash(deps, e164, code), challenge_hash: await codeHash(deps, e164, challengeFor(purpose, challenge)), address: await addressDigest(deps, req), now: deps.clock() } },
      systemRequestContext(req, deps.clock()),
    );
    const tried = result.events[0];
    if (!tried || tried.type !== 'PhoneSignInCodeTried' || !tried.data.matched) throw new HttpError(401, MESSAGING_TEXTS.phoneCodeWrong);
  };

  api.implement('startPhoneSignIn', {
    policy: policies.public,
    handler: async ({ body, req }) => {
      const e164 = number(body.phone_number);
      // The same answer whether or not an account holds the number: nothing here tells who is a patient.
      return sendCode(req, e164, await findUserIdByPhone(deps, e164), 'sign_in_code');
    },
  });

  api.implement('verifyPhoneSignIn', {
    policy: policies.public,
    handler: async ({ body, req }) => {
      const e164 = number(body.phone_number);
      await checkCode(req, e164, body.code, body.challenge, 'sign_in');
      let userId = await findUserIdByPhone(deps, e164);
      if (!userId) {
        // A new number is a new patient, named by their number until they give a name (their data, under their key).
        userId = (await registerUser(deps.eventStore, { email: null, name: e164, account_type: 'patient', phone_number: e164 }, systemRequestContext(req, deps.clock()))).user_id;
        await claimPhone(deps, e164, userId);
      }
      const user = await loadUser(deps.eventStore, userId);
      if (user.status !== 'registered' || !user.active) throw new HttpError(403, API_TEXTS.accountDisabled);
      // An operator's console is not one SIM swap away: operators sign in with Google or their password only.
      if (user.account_type === 'admin') throw new HttpError(403, API_TEXTS.forbiddenRole);
      const session = await startSession(deps, user, 'phone', requestContext(req, user, deps.clock()));
      return { body: { status: 'success' as const, ...session.tokens, user: sessionUser(user) }, headers: positionHeader(session.position) };
    },
  });

  api.implement('startPhoneVerification', {
    policy: policies.anyUser,
    handler: async ({ body, req, auth }) => {
      // Whether another account holds the number is said only once the code proved the caller has the phone (verifyPhone):
      // here it would tell anyone signed in who is a patient.
      return sendCode(req, number(body.phone_number), auth.user_id, 'phone_verification_code');
    },
  });

  api.implement('verifyPhone', {
    policy: policies.anyUser,
    handler: async ({ body, req, auth }) => {
      const e164 = number(body.phone_number);
      await checkCode(req, e164, body.code, body.challenge, `add:${auth.user_id}`);
      const result = await claimPhone(deps, e164, auth.user_id);
      return { body: { status: 'success' as const, phone_number: e164 }, headers: positionHeader(result.position) };
    },
  });
}
