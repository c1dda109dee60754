import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module. The product runs under tsx's loader (`node --import tsx`), but a
 * worker's entry module is loaded before any `--import` hook of its own takes effect on Node 20, so the thread first
 * registers tsx's loader and then imports the module.
 */
export function typescriptWorker(module: URL, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  const loader = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(source, { ...options, eval: true });
}
