import { parentPort } from 'node:worker_threads';
import { indexParts } from './index-parts';

/**
 * The body of the medicine index's worker thread (buildMedicineIndex): the names and their generics in (two strings,
 * NUL between the entries), the index's parts out, its typed arrays moved rather than copied. One build per thread.
 */
parentPort?.once('message', ({ names, generics }: { names: string; generics: string }) => {
  const parts = indexParts(names.split('\0'), generics.split('\0'));
  const arrays = [parts.order, parts.lineStarts, parts.wordStarts, parts.trigramKeys, parts.trigramStarts, parts.trigramPostings, parts.compactOrder];
  for (const p of [parts.generics, parts.ingredients]) arrays.push(p.starts, p.entries);
  parentPort!.postMessage(parts, arrays.map((a) => a.buffer as ArrayBuffer));
});
