let used = 0;

/**
 * A loopback address no other case of this test file has used (127.0.1.1, 127.0.1.2, ...): a client of its own for
 * limits kept per address. Each test file runs in its own process, so files never share one.
 */
export function freshLoopbackAddress(): string {
  used += 1;
  return `127.0.${1 + Math.floor(used / 250)}.${1 + (used % 250)}`;
}
