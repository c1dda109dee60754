import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApp } from '../support/test-app';
import { runNpm } from '../support/processes';

describe('npm run cli -- user:create', () => {
  it('creates a user and prints a token the API accepts', async () => {
    const t = await startTestApp();
    try {
      const run = await runNpm(
        ['cli', '--', 'user:create', '--email', 'Dr.Sen@Example.in', '--name', 'Dr. Sen', '--account-type', 'doctor', '--phone', '+91 90000 12345', '--specialty', 'Neurology'],
        { DATA_DIR: t.dataDir },
      );
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as { user_id: string; access_token: string };
      assert.deepEqual(Object.keys(printed).sort(), ['access_token', 'user_id']);
      // The running server reads the shared log: settle() waits until its read models hold the CLI's events.
      await t.settle();
      const me = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${printed.access_token}`);
      assert.equal(me.status, 200, 'the running server picks up the new user from the shared log');
      assert.equal(me.body.email, 'dr.sen@example.in');
      assert.equal(me.body.doctor.specialty, 'Neurology');
    } finally {
      await t.close();
    }
  });

  it('refuses bad arguments with exit code 2 and a usage line', async () => {
    const run = await runNpm(['cli', '--', 'user:create', '--email', 'not-an-email', '--name', 'X', '--account-type', 'nurse'], {
      DATA_DIR: '/tmp/telemed-cli-unused',
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--email/);
    assert.match(run.stderr, /--account-type/);
    assert.match(run.stderr, /usage:/);
  });
});
