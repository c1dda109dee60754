import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { streams } from '@telemed/contracts';
import { ciphertextLog } from '@telemed/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

type Row = { name: string; state: string; failure: { event: { position: number; type: string }; error: string } | null };

/**
 * The privacy audit: a projection's failure message can quote the event it stopped on (a name, a reason for a visit).
 * GET /api/v1/admin/projections shows the event's position and type and the error's class and code, never its message
 * (the log keeps it, scrubbed).
 */
describe('GET /api/v1/admin/projections: a failed projection', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("shows where it stopped and the error's kind, not a message that quotes the event's data", async () => {
    const operator = await t.createUser('admin');
    const marker = 'Zubeida Quoted Secret';
    const user_id = randomUUID();
    // A poison event, straight into the log (as a bad deploy or a hand-made import could leave one): its values are
    // the kind a projection's error quotes back.
    const appended = await ciphertextLog(t.app.eventStore).appendToStream(
      streams.user(user_id),
      [
        {
          event_id: randomUUID(),
          type: 'PersonalDataAccessed',
          data: { access_id: marker, accessor_id: marker, accessor_role: 'doctor', institution_id: null, institution_role: null, purpose: marker, resource: marker, route: marker, subjects: { [marker]: marker } },
          metadata: { actor: { user_id: 'system', role: 'system' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const failed = await eventually(async () => {
      const rows = (await t.http.get('/api/v1/admin/projections').set(operator.auth).expect(200)).body as Row[];
      const found = rows.filter((r) => r.state === 'failed');
      assert.ok(found.length > 0, 'a projection stopped on the event');
      return found;
    }, 5000);
    for (const row of failed) {
      assert.ok(row.failure, `${row.name} shows its failure`);
      assert.equal(row.failure.event.type, 'PersonalDataAccessed');
      assert.ok(row.failure.event.position >= 0 && row.failure.event.position <= appended.position);
      assert.match(row.failure.error, /^[A-Za-z_$][\w$]*( \([^()]{1,100}\))?$/, `only the error's class and code: ${row.failure.error}`);
      assert.ok(!JSON.stringify(row).includes('Zubeida'), 'nothing of the event data');
      assert.ok(!/not iterable|Cannot read|undefined/.test(row.failure.error), 'nor the runtime message, which names what it met');
    }
  });
});
