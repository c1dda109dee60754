import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { SqliteEventStore, type AppendOptions, type NewEvent, type ReadStreamOptions, type StoredEvent } from '@telemed/platform';
import { consultationFoldsOf } from '../consultations/service';
import { endConsultationsAtLimit } from './consultation-limit';

const metadata = () => ({ actor: { user_id: 'system', role: 'system' as const }, correlation_id: randomUUID(), causation_id: null, occurred_at: '2026-01-01T10:00:00Z' });
const event = (type: string, data: Record<string, unknown>) => ({ event_id: randomUUID(), type, data, metadata: metadata() });
const message = (n: number) => event('ConsultationMessagePosted', { appointment_id: 'a-1', message_id: `m-${n}`, sender_id: 'patient-1', text: `message ${n}` });

describe("the consultation limit's sweep", () => {
  it('retries after a last chat message by reading that message, not the whole chat', async () => {
    const store = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'consultation-limit-')), 'events.db') });
    const stream = streams.consultation('a-1');
    await store.appendToStream(stream, [
      event('ConsultationStarted', { appointment_id: 'a-1', patient_id: 'patient-1', doctor_id: 'doctor-1', provider: 'p2p', room: 'room-a-1', started_at: '2026-01-01T10:00:00Z', ends_at: '2026-01-01T10:30:00Z' }),
      ...Array.from({ length: 30 }, (_, i) => message(i)),
    ]);
    await consultationFoldsOf(store).current(stream); // the kept fold's first look (the consultation's commands made it)
    const returned: number[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = async (name: string, options?: ReadStreamOptions): Promise<StoredEvent[]> => {
      const events = await readStream(name, options);
      if (name === stream) returned.push(events.length);
      return events;
    };
    // A message lands between the sweep's look and its append: the append's expected revision fails once.
    const appendToStream = store.appendToStream.bind(store);
    let raced = false;
    store.appendToStream = async (name: string, events: NewEvent[], options?: AppendOptions) => {
      if (name === stream && !raced) {
        raced = true;
        await appendToStream(stream, [message(30)]);
      }
      return appendToStream(name, events, options);
    };
    const pages = [[{ appointment_id: 'a-1', ends_at: '2026-01-01T10:30:00Z' }], []];
    const ended = await endConsultationsAtLimit({
      eventStore: store,
      clock: () => new Date('2026-01-01T11:00:00Z'),
      lookups: { openConsultationsEndingBefore: async () => pages.shift() ?? [], nextConsultationEnd: async () => null },
    });
    assert.equal(ended, 1, 'ended at its limit');
    assert.ok(raced, 'the append met a concurrent message');
    const all = await readStream(stream);
    assert.deepEqual(all.slice(-2).map((e) => e.type), ['ConsultationMessagePosted', 'ConsultationAutoEnded'], 'after the message');
    assert.ok(returned.every((n) => n <= 1), `each read returned the events since the last look (read: ${returned.join(', ')})`);
    await store.close();
  });
});
