import type { Filter } from './port';
import { idDirection } from './sort';

/**
 * Translates the Mongo filters the read models use into SQL over JSON documents (`doc` column, `id` primary key), so
 * SQLite answers them with expression indexes on `json_extract(doc, '$."field"')`.
 *
 * A translation is always a superset of what the filter matches (the caller applies the whole filter with mingo to
 * what SQL returns), and says when it is exact: then SQL alone may count, skip and limit. Exactness depends on the
 * JSON types a field has ever held in the collection (`KindLookup`): a field that held an array is left to mingo
 * (Mongo matches array elements), booleans read back from SQLite as 1/0, objects as JSON text.
 */

export type FieldKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** The JSON types ever seen at a dotted path of a collection's documents (undefined: never present). */
export type KindLookup = (path: string) => ReadonlySet<FieldKind> | undefined;

export type SqlValue = string | number | null;

export interface SqlFilter {
  /** A boolean SQL expression ('1' when nothing could be translated). */
  where: string;
  params: SqlValue[];
  /** True when `where` matches exactly the documents the filter matches. */
  exact: boolean;
}

interface Term {
  sql: string;
  params: SqlValue[];
  exact: boolean;
}

const NONE: ReadonlySet<FieldKind> = new Set();

/** `$."a"."b"` for the dotted field `a.b`; null when a segment cannot be written as a JSON path label. */
export function jsonPath(field: string): string | null {
  const segments = field.split('.');
  if (segments.some((s) => s === '' || s.startsWith('$') || !/^[^"\\]+$/.test(s) || [...s].some((c) => c < ' '))) return null;
  return '$' + segments.map((s) => `."${s}"`).join('');
}

/** The SQL expression of a field: the `id` column for `_id`, else `json_extract` with the path inlined (so it matches an index). */
export function fieldExpression(field: string): string | null {
  if (field === '_id') return 'id';
  const path = jsonPath(field);
  return path === null ? null : `json_extract(doc, '${path.replace(/'/g, "''")}')`;
}

/** The kinds at a path, or null when the path (or a prefix of it) ever held an array: only mingo knows those. */
function kindsAt(field: string, kinds: KindLookup): ReadonlySet<FieldKind> | null {
  if (field === '_id') return new Set<FieldKind>(['string']);
  const segments = field.split('.');
  for (let i = 1; i <= segments.length; i += 1) {
    if (kinds(segments.slice(0, i).join('.'))?.has('array')) return null;
  }
  return kinds(field) ?? NONE;
}

const only = (set: ReadonlySet<FieldKind>, allowed: FieldKind[]) => [...set].every((k) => allowed.includes(k));

type Scalar = { kind: 'string' | 'number' | 'boolean' | 'null'; value: SqlValue };

function scalar(value: unknown): Scalar | null {
  if (value === null) return { kind: 'null', value: null };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'number', value };
  if (typeof value === 'boolean') return { kind: 'boolean', value: value ? 1 : 0 };
  return null;
}

/** Whether `expr = value` is exact given the field's kinds (objects compare as JSON text, booleans as 1/0). */
function equalityExact(s: Scalar, kinds: ReadonlySet<FieldKind>): boolean {
  if (s.kind === 'string') return !kinds.has('object');
  if (s.kind === 'number') return !kinds.has('boolean');
  if (s.kind === 'boolean') return !kinds.has('number');
  return true;
}

function equality(expr: string, s: Scalar, kinds: ReadonlySet<FieldKind>, isId: boolean): Term | null {
  if (isId && s.kind !== 'string') return null; // the id column has TEXT affinity: 5 would match '5'
  if (s.kind === 'null') return { sql: `${expr} IS NULL`, params: [], exact: true };
  return { sql: `${expr} = ?`, params: [s.value], exact: equalityExact(s, kinds) };
}

function membership(expr: string, values: unknown, kinds: ReadonlySet<FieldKind>, isId: boolean): Term | null {
  if (!Array.isArray(values)) return null;
  const scalars = values.map(scalar);
  if (scalars.some((s) => s === null || (isId && s.kind !== 'string' && s.kind !== 'null'))) return null;
  const list = scalars as Scalar[];
  const present = list.filter((s) => s.kind !== 'null');
  const parts: string[] = [];
  if (present.length > 0) parts.push(`${expr} IN (${present.map(() => '?').join(', ')})`);
  if (present.length < list.length) parts.push(`${expr} IS NULL`);
  if (parts.length === 0) return { sql: '0', params: [], exact: true };
  return { sql: parts.join(' OR '), params: present.map((s) => s.value), exact: list.every((s) => equalityExact(s, kinds)) };
}

function inequality(expr: string, s: Scalar, kinds: ReadonlySet<FieldKind>, isId: boolean): Term | null {
  if (s.kind === 'null') return { sql: `${expr} IS NOT NULL`, params: [], exact: true };
  if (isId && s.kind !== 'string') return null;
  // Leaving out a document mingo would keep is not allowed, so only when `<>` cannot confuse kinds.
  if (!equalityExact(s, kinds)) return null;
  return { sql: `(${expr} IS NULL OR ${expr} <> ?)`, params: [s.value], exact: true };
}

const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** Ranges keep to one type in Mongo; in SQLite numbers sort before text, so the translation is a superset. */
function range(expr: string, op: string, s: Scalar, kinds: ReadonlySet<FieldKind>): Term | null {
  if (s.kind !== 'string' && s.kind !== 'number') return null;
  return { sql: `${expr} ${RANGE[op]} ?`, params: [s.value], exact: only(kinds, [s.kind, 'null']) };
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** One field's condition: an equality or an object of operators. Untranslatable parts are dropped (not exact). */
function fieldTerms(field: string, condition: unknown, kinds: KindLookup): Term[] | null {
  const expr = fieldExpression(field);
  const known = kindsAt(field, kinds);
  if (expr === null || known === null) return null;
  const isId = field === '_id';
  if (!isOperatorObject(condition)) {
    const s = scalar(condition);
    const term = s && equality(expr, s, known, isId);
    return term ? [term] : null;
  }
  const terms: Term[] = [];
  let exact = true;
  for (const [op, operand] of Object.entries(condition)) {
    let term: Term | null = null;
    const s = scalar(operand);
    if (op === '$eq') term = s && equality(expr, s, known, isId);
    else if (op === '$ne') term = s && inequality(expr, s, known, isId);
    else if (op === '$in') term = membership(expr, operand, known, isId);
    else if (op in RANGE) term = s && (isId ? (s.kind === 'string' ? { sql: `${expr} ${RANGE[op]} ?`, params: [s.value], exact: true } : null) : range(expr, op, s, known));
    else if (op === '$exists') {
      const path = jsonPath(field);
      const test = isId ? (operand ? '1' : '0') : `json_type(doc, '${path!.replace(/'/g, "''")}') IS ${operand ? 'NOT NULL' : 'NULL'}`;
      term = { sql: test, params: [], exact: true };
    }
    if (term) terms.push(term);
    else exact = false;
  }
  if (!exact) terms.push({ sql: '1', params: [], exact: false });
  return terms;
}

function conjunction(filter: Filter, kinds: KindLookup): Term {
  const terms: Term[] = [];
  let exact = true;
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    let found: Term[] | null = null;
    if (key === '$and' && Array.isArray(condition)) found = (condition as Filter[]).map((f) => conjunction(f, kinds));
    else if (key === '$or' && Array.isArray(condition)) found = disjunction(condition as Filter[], kinds);
    else if (!key.startsWith('$')) found = fieldTerms(key, condition, kinds);
    if (!found) {
      exact = false;
      continue;
    }
    for (const term of found) {
      exact &&= term.exact;
      if (term.sql !== '1') terms.push(term);
    }
  }
  if (terms.length === 0) return { sql: '1', params: [], exact };
  return { sql: terms.map((t) => `(${t.sql})`).join(' AND '), params: terms.flatMap((t) => t.params), exact };
}

/** `$or`: translated only when every branch narrows something (a branch of '1' would match everything anyway). */
function disjunction(branches: Filter[], kinds: KindLookup): Term[] | null {
  if (branches.length === 0) return null;
  const terms = branches.map((b) => conjunction(b, kinds));
  if (terms.some((t) => t.sql === '1')) return null;
  return [{ sql: terms.map((t) => `(${t.sql})`).join(' OR '), params: terms.flatMap((t) => t.params), exact: terms.every((t) => t.exact) }];
}

export function translateFilter(filter: Filter, kinds: KindLookup): SqlFilter {
  const term = conjunction(filter, kinds);
  return { where: term.sql, params: term.params, exact: term.exact };
}

/**
 * ORDER BY for a sort, ending with `id` as every adapter does (in the last key's direction, see idDirection), without
 * the keys the filter fixes; null when SQLite would order differently from the
 * port (a key that held arrays, objects, booleans, or both numbers and strings).
 */
export function translateSort(sort: Record<string, 1 | -1>, kinds: KindLookup, filter: Filter = {}): string | null {
  const keys: string[] = [];
  let hasId = false;
  for (const [field, direction] of Object.entries(sort)) {
    const expr = fieldExpression(field);
    const known = kindsAt(field, kinds);
    if (expr === null || known === null) return null;
    if (!only(known, ['string', 'null']) && !only(known, ['number', 'null'])) return null;
    // A key the filter holds equal to one value (no arrays there) orders nothing: SQLite would sort every match by it
    // rather than read an index that leaves it out.
    if (field !== '_id' && Object.hasOwn(filter, field) && ['string', 'number'].includes(typeof filter[field])) continue;
    hasId ||= field === '_id';
    keys.push(`${expr} ${direction === -1 ? 'DESC' : 'ASC'}`);
  }
  if (!hasId) keys.push(`id ${idDirection(sort) === -1 ? 'DESC' : 'ASC'}`);
  return keys.join(', ');
}
