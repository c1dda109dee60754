import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { envSchema } from './config';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The README's configuration rows, by each variable the row names in its first cell. */
const rows = new Map<string, string>();
for (const line of readme.split('\n')) {
  const first = /^\| ([^|]+) \|/.exec(line)?.[1];
  for (const name of first?.match(/`([A-Z][A-Z0-9_]+)`/g) ?? []) rows.set(name.slice(1, -1), line);
}

/** A number variable's bounds, when it has any. */
function bounds(schema: z.ZodType): { min: number | null; max: number | null } | null {
  const inner = schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (!(inner instanceof z.ZodNumber)) return null;
  const finite = (n: number | null) => (n !== null && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : null);
  return { min: finite(inner.minValue), max: finite(inner.maxValue) };
}

const written = (n: number) => [String(n), n.toLocaleString('en-US')];

describe('the README documents the configuration', () => {
  it('every environment variable has a row in the configuration table', () => {
    const missing = Object.keys(envSchema.shape).filter((name) => !rows.has(name));
    assert.deepEqual(missing, [], `variables without a README row: ${missing.join(', ')}`);
  });

  it("every number's limits are written in its row (a value outside them stops the start)", () => {
    const unsaid: string[] = [];
    for (const [name, schema] of Object.entries(envSchema.shape)) {
      const limits = bounds(schema as z.ZodType);
      const row = rows.get(name);
      if (!limits || !row) continue;
      for (const n of [limits.min, limits.max]) if (n !== null && n !== 0 && !written(n).some((w) => new RegExp(`\\b${w}\\b`).test(row.split('|')[3] ?? ''))) unsaid.push(`${name}: ${n}`);
    }
    assert.deepEqual(unsaid, [], `limits not stated in the meaning column: ${unsaid.join('; ')}`);
  });
});
