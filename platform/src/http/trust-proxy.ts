import { isIP } from 'node:net';

/** What Express's `trust proxy` setting takes from the environment: off, a hop count, or named ranges, addresses and CIDRs. */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (/^\d+$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4; // a netmask such as 255.255.0.0
}

/**
 * Parses TRUST_PROXY: empty, `false`, `off` or `0` trust no proxy (req.ip is the connection's address); a number
 * trusts that many hops; otherwise a comma-separated list of `loopback`, `linklocal`, `uniquelocal`, addresses and
 * CIDRs. `true` (trust every hop, so any client can choose its address) is refused on purpose.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === 'off' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !validEntry(e));
  if (entries.length === 0 || bad.length > 0) {
    throw new Error(`TRUST_PROXY: expected a hop count or loopback, linklocal, uniquelocal, addresses and CIDRs; not ${bad.join(', ') || text}`);
  }
  return entries;
}
