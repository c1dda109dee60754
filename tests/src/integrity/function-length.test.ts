import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import ts from 'typescript';
import { glob } from 'tinyglobby';

/** Issue 32: no route-registering or component function (nor any other) runs past about 150 lines. */
const MAX_LINES = 150;

it(`no function in the product's code is longer than ${MAX_LINES} lines`, async () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const files = await glob(['contracts/src/**/*.{ts,tsx}', 'platform/src/**/*.ts', 'services/*/src/**/*.ts', 'frontend/src/**/*.{ts,tsx}'], {
    cwd: root,
    ignore: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', '**/node_modules/**', 'frontend/src/test/**'],
  });
  assert.ok(files.length > 100, 'the product is read');
  const long: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (end - start + 1 > MAX_LINES) long.push(`${file}:${start + 1} (${end - start + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});
