import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { MongoServerError } from 'mongodb';
import { createLogger } from './logger';

function loggedLines(log: (logger: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  log(createLogger({ level: 'info', destination }));
  return lines.join('');
}

describe('errors in logs', () => {
  it("keep a driver error's kind and code, never the values it copied (a MongoDB duplicate key names the e-mail address)", () => {
    const duplicate = new MongoServerError({
      message: 'E11000 duplicate key error collection: telemed.email_claims index: email_1 dup key: { email: "asha.verma@example.in" }',
      errmsg: 'E11000 duplicate key error collection: telemed.email_claims index: email_1 dup key: { email: "asha.verma@example.in" }',
      code: 11000,
      keyPattern: { email: 1 },
      keyValue: { email: 'asha.verma@example.in' },
    });
    const text = loggedLines((logger) => logger.error({ err: duplicate }, 'unhandled error'));
    assert.ok(!text.includes('asha.verma'), `the address is not logged: ${text}`);
    const line = JSON.parse(text) as { err: { type: string; code: number; message: string } };
    assert.equal(line.err.type, 'MongoServerError');
    assert.equal(line.err.code, 11000);
    assert.match(line.err.message, /E11000 duplicate key error .* dup key: \[redacted\]/, 'what failed and where stays readable');
  });

  it('drop what an error carries besides its message, and scrub phone numbers, addresses, ciphertexts and credentials from messages', () => {
    const error = Object.assign(new Error('request for +91 98765 43210 (ravi@example.in) failed with Bearer eyJhbGciOi.abc.def on enc1.dk-1.AAAA.BBBB.CCCC'), {
      body: { notes: 'chest pain' },
      response: { data: 'patient Ravi Kumar' },
      cause: new TypeError('lookup of meera@example.in failed'),
    });
    const text = loggedLines((logger) => logger.warn({ err: error }, 'failed'));
    for (const secret of ['98765', 'ravi@example.in', 'eyJhbGciOi', 'enc1.', 'chest pain', 'Ravi Kumar', 'meera@example.in']) {
      assert.ok(!text.includes(secret), `${secret} is not logged: ${text}`);
    }
    const line = JSON.parse(text) as { err: { message: string; cause: { type: string } } };
    assert.match(line.err.message, /^request for \[number\] \(\[email\]\) failed with Bearer \[redacted\] on \[ciphertext\]$/);
    assert.equal(line.err.cause.type, 'TypeError', 'the cause is kept, scrubbed the same way');
  });

  it("never take an error's unscrubbed message as the line's message (an error logged without one of its own)", () => {
    const error = new Error('no account for asha.verma@example.in');
    const ways: Array<(logger: ReturnType<typeof createLogger>) => void> = [
      (logger) => logger.error(error),
      (logger) => logger.error({ err: error }),
      (logger) => logger.error(error, undefined),
      (logger) => logger.warn({ err: error, route: '/x' }, undefined),
    ];
    for (const log of ways) {
      const text = loggedLines(log);
      assert.ok(!text.includes('asha.verma'), `the address is not logged: ${text}`);
      const line = JSON.parse(text) as { msg: string; err: { message: string } };
      assert.equal(line.msg, 'no account for [email]', 'the line says what failed, scrubbed');
      assert.equal(line.err.message, 'no account for [email]');
    }
  });

  it('keep only the kind of a thrown value that is not an Error', () => {
    const text = loggedLines((logger) => logger.error({ err: 'patient meera@example.in' }, 'unhandled promise rejection (contained)'));
    assert.ok(!text.includes('meera'), `a thrown string is not logged: ${text}`);
  });
});
