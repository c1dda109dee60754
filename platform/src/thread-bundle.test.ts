import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { typescriptWorker } from './typescript-worker';

const workerModule = new URL('./typescript-worker.ts', import.meta.url).href;

/**
 * The first message of a thread started on `entry` by a fresh process (so nothing is remembered in memory), then that
 * of a thread started from script text; `flags` go to the process's node.
 */
function firstMessagesInNewProcess(entry: URL, flags: string[] = []): string {
  const script = `import { commonJsWorker, typescriptWorker } from ${JSON.stringify(workerModule)};
const worker = typescriptWorker(new URL(${JSON.stringify(entry.href)}));
worker.once('message', (m) => {
  void worker.terminate();
  const scripted = commonJsWorker("require('node:worker_threads').parentPort.postMessage(typeof module)");
  scripted.once('message', (kind) => { console.log(m + ' ' + kind); void scripted.terminate(); });
});`;
  return execFileSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

function threadModule(dir: string, value: string): URL {
  writeFileSync(join(dir, 'value.ts'), `export const value: string = '${value}';\n`);
  writeFileSync(join(dir, 'thread.ts'), `import { parentPort } from 'node:worker_threads';\nimport { value } from './value';\nparentPort!.postMessage(value);\n`);
  return pathToFileURL(join(dir, 'thread.ts'));
}

describe('worker threads on bundled TypeScript', () => {
  it('run the module with what it imports, and a change to an imported file is picked up by the next process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-bundle-'));
    try {
      const value = join(dir, 'value.ts');
      const entry = threadModule(dir, 'first');
      const worker = typescriptWorker(entry);
      const first = await new Promise<string>((resolve) => worker.once('message', resolve));
      await worker.terminate();
      assert.equal(first, 'first');
      writeFileSync(value, `export const value: string = 'second';\n`);
      const later = new Date(Date.now() + 5000);
      utimesSync(value, later, later);
      assert.equal(firstMessagesInNewProcess(entry), 'second object', 'the kept bundle was built again from the changed import');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('start in a process run with V8 and process flags, which a thread refuses (node --max-old-space-size=…)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-flags-'));
    try {
      const entry = threadModule(dir, 'started');
      const flags = ['--max-old-space-size=512', '--max-semi-space-size=16', '--title=telemed-test'];
      assert.equal(firstMessagesInNewProcess(entry, flags), 'started object', 'both kinds of thread started and ran their script as CommonJS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
