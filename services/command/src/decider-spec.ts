import assert from 'node:assert/strict';
import { DomainError, type DomainErrorKind, type DomainEvent, type ErrorCode } from '@telemed/contracts';
import type { Decider } from './decider';

/** Given these events, when this command, then these events (or this error): Emmett's shape, for node:test. */
export function deciderSpec<S, C, E extends DomainEvent>(decider: Decider<S, C, E>) {
  return (given: E[]) => ({
    when: (command: C) => {
      const run = () => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: E[]) => assert.deepEqual(run(), expected),
        /** `code`: the stable code the answer carries (ERROR_CODES), when the rule gives one. */
        thenThrows: (kind: DomainErrorKind, message?: string | RegExp, code?: ErrorCode) =>
          assert.throws(run, (error: unknown) => {
            assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
            assert.equal(error.kind, kind);
            if (typeof message === 'string') assert.equal(error.message, message);
            else if (message) assert.match(error.message, message);
            if (code) assert.equal(error.code, code);
            return true;
          }),
      };
    },
  });
}
