import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore, TokenService, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { systemContext } from '../decider';
import { refreshSession, startSession } from './sessions';

describe('session refresh: cost does not grow with how often the session was refreshed', () => {
  it('reads only the events since the last refresh, and an old token still ends the session', async () => {
    const eventStore = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'sessions-')), 'events.db') });
    const tokens = new TokenService({ secret: new Uint8Array(32).fill(3), issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 60 });
    const deps = { eventStore, tokens };
    const user = { user_id: 'u-1', account_type: 'doctor' as const };
    const lookup = async () => ({ ...user, active: true });
    const now = new Date();
    const started = await startSession(deps, user, 'password', systemContext(now, null));
    const session = started.tokens.refresh_token.split('.')[0]!;

    // Events each read of the session's stream returned.
    const read: number[] = [];
    const readStream = eventStore.readStream.bind(eventStore);
    eventStore.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(stream, options);
      if (stream === streams.session(session)) read.push(events.length);
      return events;
    };

    let token = started.tokens.refresh_token;
    const first = token;
    for (let i = 0; i < 60; i += 1) token = (await refreshSession(deps, token, lookup, systemContext(now, null))).tokens.refresh_token;
    assert.equal((await eventStore.readStream(streams.session(session))).length, 61, 'one event per refresh after the start');
    read.pop();
    const late = read.slice(-10);
    assert.ok(
      late.every((n) => n <= 1),
      `each of the last refreshes read at most the one event the refresh before wrote (read: ${late.join(', ')}); reading the whole stream grows with the session's age`,
    );

    // Reuse detection keeps every rotated-away token, however old.
    await assert.rejects(refreshSession(deps, first, lookup, systemContext(now, null)), /Session expired/, 'a reused first token is refused');
    await assert.rejects(refreshSession(deps, token, lookup, systemContext(now, null)), /Session expired/, 'and it ended the session: the current token no longer works');
    const events = await eventStore.readStream(streams.session(session));
    assert.equal(events.at(-1)?.type, 'SessionEnded', 'the reuse ended the session');
    assert.equal((events.at(-1)?.data as { reason?: string }).reason, 'refresh_token_reused', 'ended for the reuse');
    await eventStore.close();
  });
});
