import fc from 'fast-check';
import type { ZodType } from 'zod';

/**
 * fast-check arbitraries from zod v4 schemas, by walking their definitions (`schema._zod.def`). The values aim at
 * being valid (lengths, bounds, patterns, enums, formats); refinements the walker cannot read (custom checks) are
 * left to chance, which makes some of them near-valid. A zod type the walker does not know is an error, so a new
 * kind of schema on a route fails the coverage test instead of going untested.
 */

export type Path = Array<string | number>;
/**
 * Supplies values for a path (fixture ids, real dates) instead of, or mixed with, the generated ones; undefined
 * to generate. `generated` is the walker's own arbitrary for that path.
 */
export type Hint = (path: Path, generated: () => fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> | undefined;

export class UnsupportedSchemaError extends Error {
  constructor(type: string, path: Path) {
    super(`No generator for zod type "${type}" at ${path.length ? path.join('.') : '(root)'}`);
    this.name = 'UnsupportedSchemaError';
  }
}

// Only the parts of zod's internal definitions the walker reads.
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number | bigint;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  format?: string;
  pattern?: RegExp;
  coerce?: boolean;
  innerType?: ZodType;
  options?: ZodType[];
  element?: ZodType;
  shape?: Record<string, ZodType>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  keyType?: ZodType;
  valueType?: ZodType;
  in?: ZodType;
}

export const defOf = (schema: ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((c) => c._zod.def);

/** Longest string generated where a schema allows more: long enough to matter, short enough to stay quick. */
const MAX_GENERATED_LENGTH = 60;
const MAX_GENERATED_ITEMS = 4;

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const checks = checksOf(def);
  const min = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum ?? 0));
  const max = Math.min(10_000, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum ?? 10_000));
  const pattern = def.pattern ?? checks.find((c) => c.check === 'string_format' && c.pattern)?.pattern;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (pattern) return fc.stringMatching(pattern).filter(fits);
  if (def.format === 'email') return fc.emailAddress().filter(fits);
  const upTo = Math.max(min, Math.min(max, MAX_GENERATED_LENGTH));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: upTo }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: upTo, unit: 'grapheme' }) },
  );
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const checks = checksOf(def);
  const integer = checks.some((c) => c.check === 'number_format' && (c.format === 'safeint' || c.format === 'int32'));
  let min = integer ? Number.MIN_SAFE_INTEGER : -1e12;
  let max = integer ? Number.MAX_SAFE_INTEGER : 1e12;
  for (const c of checks) {
    const value = Number(c.value);
    if (c.check === 'greater_than') min = Math.max(min, c.inclusive ? value : value + (integer ? 1 : Number.EPSILON));
    if (c.check === 'less_than') max = Math.min(max, c.inclusive ? value : value - (integer ? 1 : Number.EPSILON));
  }
  if (integer) {
    const lo = Math.ceil(min);
    const hi = Math.floor(max);
    // Small values are the interesting ones (pages, counts); the whole range still comes up.
    const small = fc.integer({ min: lo, max: Math.min(hi, lo + 1000) });
    return fc.oneof({ weight: 3, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) });
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values meant to satisfy `schema`. */
export function arbitraryFor(schema: ZodType, hint: Hint = () => undefined, path: Path = []): fc.Arbitrary<unknown> {
  const hinted = hint(path, () => walk(schema, hint, path));
  return hinted ?? walk(schema, hint, path);
}

function walk(schema: ZodType, hint: Hint, path: Path): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: ZodType | undefined, at: Path = path) => arbitraryFor(s!, hint, at);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
      return fc.constant(undefined);
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'union':
      return fc.oneof(...def.options!.map((option) => inner(option)));
    case 'array': {
      const checks = checksOf(def);
      const minLength = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum ?? 0));
      const maxLength = Math.max(minLength, Math.min(MAX_GENERATED_ITEMS, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum ?? MAX_GENERATED_ITEMS)));
      return fc.array(inner(def.element, [...path, 0]), { minLength, maxLength });
    }
    case 'object': {
      const entries = Object.entries(def.shape!).map(([key, value]) => [key, arbitraryFor(value, hint, [...path, key])] as const);
      return fc.record(Object.fromEntries(entries)).map(withoutUndefined);
    }
    case 'record': {
      const keyDef = defOf(def.keyType!);
      const value = inner(def.valueType, [...path, '*']);
      if (keyDef.type === 'enum') {
        const keys = Object.values(keyDef.entries!).map(String);
        return fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
      }
      return fc.dictionary(arbitraryFor(def.keyType!, hint, [...path, '*key']) as fc.Arbitrary<string>, value, { maxKeys: MAX_GENERATED_ITEMS });
    }
    default:
      throw new UnsupportedSchemaError(def.type, path);
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}
