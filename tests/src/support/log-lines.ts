import { Writable } from 'node:stream';

/** A log destination that keeps every line written to it, for a test to search. */
export function logLines(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, destination };
}
