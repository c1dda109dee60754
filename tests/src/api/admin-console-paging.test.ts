import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * The console's lists page by offset (ra-data-simple-rest's `range`); a page at an offset costs the records before it,
 * so how far back a list may be paged is bounded: the first 10 000 records (what the console's export reads), and a
 * filter for the rest. Deeper offsets are refused with 422 and a message the console shows.
 */
describe('admin console lists: offsets are bounded', () => {
  let t: TestApp;
  let admin: TestUser;

  before(async () => {
    t = await startTestApp();
    admin = await t.createUser('admin');
  });
  after(() => t.close());

  const list = (resource: string, range: string) => t.http.get(`/api/v1/admin/${resource}?range=${encodeURIComponent(range)}`).set(admin.auth);

  it('a page up to the 10 000th record answers; one starting later is 422 naming the filter to use', async () => {
    for (const resource of ['appointments', 'users', 'institutions', 'staff', 'doctors']) {
      const last = await list(resource, '[9900,9999]');
      assert.equal(last.status, 200, `${resource}: the export's last page answers (${JSON.stringify(last.body)})`);
      for (const range of ['[9901,9910]', '[500000,500024]', '[999999,1000000]']) {
        const res = await list(resource, range);
        assert.equal(res.status, 422, `${resource} ${range}: refused, not read through the history`);
        const body = res.body as { detail: unknown; message?: string };
        assert.ok(Array.isArray(body.detail), `${resource} ${range}: detail says where (${JSON.stringify(body)})`);
        assert.match(String(body.message), /narrow the list with a filter/, `${resource} ${range}: the console shows why`);
      }
    }
  });

  it('appointments sort only by what an index orders (start, status, id): others are 422, not a sort of every appointment ever', async () => {
    for (const field of ['start', 'status', 'id']) {
      await t.http.get(`/api/v1/admin/appointments?sort=${encodeURIComponent(JSON.stringify([field, 'DESC']))}`).set(admin.auth).expect(200);
    }
    for (const field of ['created_at', 'updated_at']) {
      const res = await t.http.get(`/api/v1/admin/appointments?sort=${encodeURIComponent(JSON.stringify([field, 'DESC']))}`).set(admin.auth);
      assert.equal(res.status, 422, `sort by ${field} is refused (${JSON.stringify(res.body)})`);
    }
  });
});
