import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

const post = (title: string, text: string) => ({ title, description: null, content: { time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text } }] } });

describe("counting a post's view (public) does not read every saved version of the post", () => {
  let t: TestApp;
  let author: TestUser;

  before(async () => {
    t = await startTestApp();
    author = await t.createUser('doctor');
  });
  after(() => t.close());

  it('reads only what the post wrote since the last view; an archived post has no readers', async () => {
    const id = (await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Monsoon fevers', 'v0')).expect(201)).body.id as string;
    for (let i = 1; i <= 30; i += 1) await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Monsoon fevers', `Rest and fluids, version ${i}.`)).expect(200);
    await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200);

    const stream = streams.blogPost(id);
    const reads = eventsReadFrom(t.app.eventStore, stream);
    const read = reads.counts;
    const view = (n: number) => t.http.post(`/api/v1/blogs/${id}/views`).send({ reader_session: `session-${String(n).padStart(16, '0')}` });
    try {
      for (let n = 0; n < 10; n += 1) assert.equal((await view(n).expect(200)).body.counted, true, `reader ${n} counted`);
      const late = read.slice(1);
      assert.ok(late.length > 0 && late.every((n) => n === 0), `after the first, views read none of the post's 32 events again (read: ${read.join(', ')})`);
      await t.http.post(`/api/v1/blogs/${id}/archive`).set(author.auth).expect(200);
      await view(99).expect(404);
    } finally {
      reads.stop();
    }
  });
});
