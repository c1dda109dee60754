import { DEFAULT_TIMEZONE, isValidTimezone } from '@telemed/contracts';
import { RequestValidationError } from '@telemed/platform';

/** The caller's IANA zone (`timezone_str`, India's by default), in which the answers render local dates and times. */
export function timezoneOf(query: { timezone_str?: string }): string {
  const zone = query.timezone_str || DEFAULT_TIMEZONE;
  if (!isValidTimezone(zone)) {
    throw new RequestValidationError([{ loc: ['query', 'timezone_str'], msg: 'Unknown IANA time zone', type: 'invalid_timezone' }]);
  }
  return zone;
}
