import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { allProjections } from '@telemed/query';

/** DESIGN.md §10: one spec per projection. A projection registered without one fails here, by name. */
it('every registered projection has a spec in tests/src/projections', () => {
  const dir = new URL('.', import.meta.url);
  const specified = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts'))) {
    for (const [, name] of readFileSync(new URL(file, dir), 'utf8').matchAll(/projectionSpec\('([a-z_]+)'\)/g)) specified.add(name!);
  }
  assert.deepEqual(
    allProjections.map((p) => p.name).filter((name) => !specified.has(name)),
    [],
  );
  assert.equal(specified.size, allProjections.length, 'no spec names a projection that is not registered');
});
