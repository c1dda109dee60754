import { Worker, type WorkerOptions } from 'node:worker_threads';
import { threadScript } from './thread-bundle';

/**
 * A worker thread running a TypeScript module. The product runs under tsx's loader (`node --import tsx`), but a
 * worker's entry module is loaded before any `--import` hook of its own takes effect on Node 20: the thread runs the
 * module bundled into one script (thread-bundle.ts), or, where it cannot be bundled, first registers tsx's loader and
 * then imports the module (about 300 ms more before the thread's first message).
 */
export function typescriptWorker(module: URL, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  let script: string;
  try {
    script = threadScript(module);
  } catch {
    const loader = import.meta.resolve('tsx/esm/api');
    const source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
    return new Worker(source, { ...options, eval: true, execArgv: [] });
  }
  return commonJsWorker(script, options);
}

/**
 * A worker thread running a CommonJS script given as text. It is started with none of the parent's command-line
 * flags: a thread refuses V8 and process flags (`node --max-old-space-size=4096`, common in production, made every
 * thread's start throw), and would read the script as an ES module under an inherited --input-type=module. The
 * script is self-contained and needs no loader.
 */
export function commonJsWorker(script: string, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  return new Worker(script, { ...options, eval: true, execArgv: [] });
}
