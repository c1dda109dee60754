import fc from 'fast-check';
import type { Path } from './zod-arbitrary';

/**
 * What an attacker or a broken client sends instead of a well-formed value: wrong types, huge and control-laden
 * strings, extreme numbers and dates, operator objects, prototype keys and deep nesting. Values are JSON-able,
 * except prototype keys, which are own properties (as JSON.parse makes them) so that JSON.stringify sends them.
 */

const CONTROL_CHARACTERS = ['\u0000', '\u0007', '\u0008', '\u001b[2J', '\u001b]0;owned\u0007', '\u007f', '\u0085', '\u009b', '\u202e', '\u2066', '\r', '\n', '\t', '\ud800', '\udfff'];

export const controlString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...CONTROL_CHARACTERS), fc.string({ maxLength: 10 }))
  .map(([a, c, b]) => `${a}${c}${b}`);

export const hugeString: fc.Arbitrary<string> = fc.constantFrom(10_001, 100_000, 600_000).chain((n) => fc.constantFrom('a', 'é', '😀', '\u0000').map((c) => c.repeat(n)));

export const extremeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.MIN_SAFE_INTEGER, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

export const extremeDateLike: fc.Arbitrary<string> = fc.constantFrom(
  '0000-01-01', '0001-01-01', '1969-12-31', '1970-01-01', '2019-12-31', '2020-01-01', '2020-02-30', '2030-02-29', '2099-12-31', '2100-01-01', '9999-12-31', '275760-09-13', '-271821-04-20',
  '+275760-09-13', '2030-1-1', '2030-01-01T00:00:00Z', '24:00:00', '23:59:60', '99:99:99', '-01:00:00', '06:00', '1e9', 'NaN', 'Infinity',
  'Mars/Olympus', '+05:30', 'UTC+5', 'asia/kolkata', 'Etc/GMT+14', 'Pacific/Kiritimati', '../../etc/localtime', 'Asia/Kolkata\u0000',
);

const operatorObject: fc.Arbitrary<unknown> = fc.constantFrom({ $gt: '' }, { $ne: null }, { $where: 'sleep(1000)' }, { $regex: '.*' }, { toString: 'x' }, { valueOf: 1 }, { length: 1e9 });

/** A JSON text nested `depth` levels deep (built as text: the value itself would be as deep to build). */
export const deepJsonText = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);
/** Stands for a deeply nested array inside a generated value; `toJson` writes it out as text. */
class DeepNesting {
  constructor(readonly depth: number) {}
  toJSON(): string {
    return `@@deep:${this.depth}@@`;
  }
}
export const deepValue: fc.Arbitrary<unknown> = fc.constantFrom(40, 1_000, 50_000).map((depth) => new DeepNesting(depth));

/** JSON text of a generated value (deep nesting written out as text: JSON.stringify would overflow the stack). */
export function toJson(value: unknown): string | undefined {
  return JSON.stringify(value)?.replace(/"@@deep:(\d+)@@"/g, (_m, depth: string) => deepJsonText(Number(depth)));
}

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with an own key named like a prototype property. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** A value of the wrong kind in a place where anything is expected. */
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, '', ' ', '\u00a0', 'null', 'undefined', '[object Object]', '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '%00', '${7*7}'),
  controlString,
  hugeString,
  extremeNumber,
  extremeDateLike,
  operatorObject,
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  deepValue,
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => withOwnKey({}, key, { polluted: true })),
);

/** Every path to a value inside a JSON-like value, the root included. */
export function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

/** A copy of `value` with the value at `path` replaced (the root when the path is empty). */
export function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaceAt(item, rest, replacement) : item));
  if (value !== null && typeof value === 'object') {
    const copy = { ...(value as Record<string, unknown>) };
    copy[head as string] = replaceAt(copy[head as string], rest, replacement);
    return copy;
  }
  return value;
}

/** Near-valid: one leaf of a valid value nudged just past what it allows. */
export function nudge(leaf: unknown): fc.Arbitrary<unknown> {
  if (typeof leaf === 'string') {
    return fc.oneof(
      fc.constant(''),
      fc.constant(leaf.repeat(300).slice(0, 5000) || 'x'.repeat(5000)),
      fc.constantFrom(...CONTROL_CHARACTERS).chain((c) => fc.nat(leaf.length).map((i) => leaf.slice(0, i) + c + leaf.slice(i))),
      fc.constant(` ${leaf} `),
      fc.constant(leaf.toUpperCase()),
    );
  }
  if (typeof leaf === 'number') return fc.constantFrom(leaf + 1, leaf - 1, -leaf, leaf * 1e6, leaf + 0.5, String(leaf));
  if (typeof leaf === 'boolean') return fc.constantFrom(String(leaf), leaf ? 1 : 0);
  return hostileLeaf;
}

/** A valid value with one place replaced: nudged (near-valid) or by a hostile leaf. */
export function mutate(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    const paths = pathsOf(value);
    return fc.constantFrom(...paths).chain((path) => {
      const leaf = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
      return fc.oneof(nudge(leaf), hostileLeaf).map((replacement) => replaceAt(value, path, replacement));
    });
  });
}

/** A valid object with a prototype key added at its root or in a nested object. */
export function withPrototypeKey(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom<unknown>({ polluted: true }, ['read'], 'x', null)).chain(([value, key, payload]) => {
    const objects = pathsOf(value).filter((p) => {
      const v = p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], value);
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    });
    if (objects.length === 0) return fc.constant<unknown>(withOwnKey({}, key, payload));
    return fc.constantFrom(...objects).map((path) => {
      const target = path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], value) as Record<string, unknown>;
      return replaceAt(value, path, withOwnKey(target, key, payload));
    });
  });
}
