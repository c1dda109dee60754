import { createLogger, installProcessGuards } from '@telemed/platform';

/**
 * A process with the product's guards installed, for tests: each line on stdin is an instruction — `reject` leaves a
 * promise rejection unhandled, `throw` throws from a timer, `ping` answers `pong` on stdout.
 */
const logger = createLogger({ level: 'info', name: 'guarded' });
installProcessGuards(logger, async () => {
  process.stdout.write('cleanup\n');
});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of chunk.split('\n').filter(Boolean)) {
    if (line === 'ping') process.stdout.write('pong\n');
    if (line === 'reject') void Promise.reject(new Error('nobody awaited this'));
    if (line === 'throw') setTimeout(() => {
      throw new Error('escaped everything');
    }, 0);
  }
});
process.stdout.write('ready\n');
