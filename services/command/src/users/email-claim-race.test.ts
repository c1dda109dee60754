import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@telemed/platform';
import { systemContext } from '../decider';
import { findUserIdByEmail, registerUser } from './service';

describe('registrations racing for one e-mail address', () => {
  it('one account gets it; the others are refused, and the address leads to the account that was written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'email-race-'));
    const store = new SqliteEventStore({ filename: join(dir, 'events.db') });
    try {
      const attempts = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => registerUser(store, { email: 'Asha@Example.in', name: `Asha ${i}`, account_type: 'patient' }, systemContext(new Date(), null))),
      );
      const registered = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value.user_id] : []));
      const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason as Error] : []));
      assert.equal(registered.length, 1, `exactly one account registered, got ${registered.length}`);
      for (const error of refused) assert.match(error.message, /already exists/, 'a refusal says why');
      assert.equal(await findUserIdByEmail(store, 'asha@example.in'), registered[0], 'the address leads to the account that was written');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
