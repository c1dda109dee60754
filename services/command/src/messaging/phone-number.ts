import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { MESSAGING_TEXTS } from '@telemed/contracts';
import { HttpError, privateDigest, type EventStore } from '@telemed/platform';

/**
 * A mobile number as people type it (98765 43210, +91 98765-43210, 0091…), in E.164; India when no country is given.
 * Only numbers of `countries` are taken (codes to other countries are toll fraud's way in).
 */
export function normalisePhoneNumber(input: string, countries: readonly string[] = ['IN']): string {
  const parsed = parsePhoneNumberFromString(input.trim(), 'IN');
  const type = parsed?.getType();
  if (parsed && (!parsed.country || !countries.includes(parsed.country))) throw new HttpError(422, MESSAGING_TEXTS.phoneInvalid);
  // Codes go by SMS or WhatsApp: a landline cannot receive them (a number whose kind is not known is let through).
  if (!parsed || !parsed.isValid() || (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE')) {
    throw new HttpError(422, MESSAGING_TEXTS.phoneInvalid);
  }
  return parsed.number;
}

/** The keyed digest that names a number's streams (its claim, its codes): the log alone neither shows nor tests a number. */
export async function phoneDigest(eventStore: EventStore, purpose: 'phone claim' | 'phone code', e164: string): Promise<string> {
  return (await privateDigest(eventStore, purpose, e164)) ?? createHash('sha256').update(`${purpose}:${e164}`).digest('hex');
}
