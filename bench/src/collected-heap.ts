import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The collector of this process, without starting it with --expose-gc (tsx starts the benchmark): the flag set now
// applies to contexts made after it.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * A full collection before a timed run, so that each run (the product's and its ceiling's alike) starts from the heap a
 * fresh process would have, not from the garbage of the runs before it: the rebuilds' rates were bimodal (about 180k
 * and 125k events per second in the same process) depending on whether a major collection of an earlier run's
 * documents fell inside them.
 */
export function fromCollectedHeap(): void {
  collect();
}
