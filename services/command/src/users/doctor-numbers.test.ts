import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { systemContext } from '../decider';
import { loadUser, registerUser } from './service';

describe("doctor numbers: a doctor's registration does not read every number handed out before", () => {
  it('reads only the numbers since the last registration and still hands out 1, 2, 3, ... once each', async () => {
    const eventStore = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'doctor-numbers-')), 'events.db') });
    const read: number[] = [];
    const readStream = eventStore.readStream.bind(eventStore);
    eventStore.readStream = async (stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(stream, options);
      if (stream === streams.doctorNumbers()) read.push(events.length);
      return events;
    };
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      ids.push((await registerUser(eventStore, { email: `doctor${i}@numbers.test`, name: `Doctor ${i}`, account_type: 'doctor' }, systemContext(new Date(), null))).user_id);
    }
    const late = read.slice(-10);
    assert.ok(late.every((n) => n <= 1), `each late registration read at most the one number handed out before it (read: ${late.join(', ')})`);
    const numbers = await Promise.all(ids.map(async (id) => {
      const user = await loadUser(eventStore, id);
      return user.status === 'registered' ? user.doctor?.doctor_number : undefined;
    }));
    assert.deepEqual(numbers, Array.from({ length: 30 }, (_, i) => i + 1), 'numbers in order, none twice');
    await eventStore.close();
  });
});
