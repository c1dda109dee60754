import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@telemed/platform';
import { tmpDataDir } from '../support/test-app';
import { eventStoreContract } from './event-store.contract';

const dir = tmpDataDir();
eventStoreContract(
  'SQLite (embedded)',
  async () => new SqliteEventStore({ filename: join(dir, 'events.db'), synchronous: 'NORMAL', pollIntervalMs: 50 }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

describe('EventStore contract: EventStoreDB', () => {
  const url = process.env.EVENTSTORE_URL;
  it('runs when EVENTSTORE_URL is set', { skip: url ? false : 'not run: EVENTSTORE_URL is not set (no EventStoreDB server on this machine); the adapter arrives with issue 5' }, () => {});
});
