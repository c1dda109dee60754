import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';

const repoRoot = resolve(import.meta.dirname, '../../..');
/** Relative imports and re-exports, type-only ones too: a circle of types still ties two modules into one. */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** The import circles among the source files (Tarjan's strongly connected components of more than one module, or a module importing itself). */
function importCircles(files: string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, (match[1] ?? match[2])!);
      if (target) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) circles.push(component.map((f) => relative(repoRoot, f)).sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

describe('modules import no circle', () => {
  it('in the contracts, platform, services and frontend sources', async () => {
    const files = (await glob(['contracts/src/**/*.ts', 'platform/src/**/*.ts', 'services/*/src/**/*.ts', 'frontend/src/**/*.{ts,tsx}'], { cwd: repoRoot, absolute: true, ignore: ['**/node_modules/**'] })).filter(
      (f) => !/\.test\.tsx?$/.test(f),
    );
    assert.ok(files.length > 300, `found ${files.length} source files`);
    assert.deepEqual(importCircles(files), [], 'each circle: the modules that import one another');
  });

  it('finds a circle when there is one, type-only imports too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-circle-'));
    writeFileSync(join(dir, 'dialog.tsx'), "import type { Options } from './provider';\nexport const dialog = (o: Options) => o;\n");
    writeFileSync(join(dir, 'provider.tsx'), "export interface Options { title: string }\nexport const load = () => import('./dialog');\n");
    writeFileSync(join(dir, 'alone.ts'), "export const x = 1;\n");
    const circles = importCircles(['dialog.tsx', 'provider.tsx', 'alone.ts'].map((f) => join(dir, f)));
    assert.equal(circles.length, 1);
    assert.deepEqual(circles[0]!.map((f) => f.split('/').pop()), ['dialog.tsx', 'provider.tsx']);
  });
});
