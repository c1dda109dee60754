import { parentPort } from 'node:worker_threads';
import { indexParts } from './index-parts';

/**
 * The body of the medicine index's worker thread (buildMedicineIndex): the names in (one string, NUL between them),
 * the index's parts out, its typed arrays moved rather than copied. One build per thread.
 */
parentPort?.once('message', (names: string) => {
  const parts = indexParts(names.split('\0'));
  const arrays = [parts.order, parts.lineStarts, parts.wordStarts, parts.trigramKeys, parts.trigramStarts, parts.trigramPostings];
  parentPort!.postMessage(parts, arrays.map((a) => a.buffer as ArrayBuffer));
});
