import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { typescriptWorker } from './typescript-worker';

const workerModule = new URL('./typescript-worker.ts', import.meta.url).href;

/** The first message of a thread started on `entry` by a fresh process (so nothing is remembered in memory). */
function firstMessageInNewProcess(entry: URL): string {
  const script = `import { typescriptWorker } from ${JSON.stringify(workerModule)};
const worker = typescriptWorker(new URL(${JSON.stringify(entry.href)}));
worker.once('message', (m) => { console.log(m); void worker.terminate(); });`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

describe('worker threads on bundled TypeScript', () => {
  it('run the module with what it imports, and a change to an imported file is picked up by the next process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-bundle-'));
    try {
      const value = join(dir, 'value.ts');
      writeFileSync(value, `export const value: string = 'first';\n`);
      writeFileSync(join(dir, 'thread.ts'), `import { parentPort } from 'node:worker_threads';\nimport { value } from './value';\nparentPort!.postMessage(value);\n`);
      const entry = pathToFileURL(join(dir, 'thread.ts'));
      const worker = typescriptWorker(entry);
      const first = await new Promise<string>((resolve) => worker.once('message', resolve));
      await worker.terminate();
      assert.equal(first, 'first');
      writeFileSync(value, `export const value: string = 'second';\n`);
      const later = new Date(Date.now() + 5000);
      utimesSync(value, later, later);
      assert.equal(firstMessageInNewProcess(entry), 'second', 'the kept bundle was built again from the changed import');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
