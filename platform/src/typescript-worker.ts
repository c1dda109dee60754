import { Worker, type WorkerOptions } from 'node:worker_threads';
import { threadScript } from './thread-bundle';

/**
 * A worker thread running a TypeScript module. The product runs under tsx's loader (`node --import tsx`), but a
 * worker's entry module is loaded before any `--import` hook of its own takes effect on Node 20: the thread runs the
 * module bundled into one script (thread-bundle.ts), or, where it cannot be bundled, first registers tsx's loader and
 * then imports the module (about 300 ms more before the thread's first message).
 */
export function typescriptWorker(module: URL, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  let source: string;
  try {
    source = threadScript(module);
  } catch {
    const loader = import.meta.resolve('tsx/esm/api');
    source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  }
  return new Worker(source, { ...options, eval: true });
}
