import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { publishScheduledPosts } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

const post = (title: string, text: string) => ({ title, description: null, content: { time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text } }] } });
const textOf = (body: { content: { blocks: { data: { text?: string } }[] } }) => body.content.blocks[0]?.data.text;

describe('saving a post does not read every saved version of it', () => {
  let t: TestApp;
  let author: TestUser;

  before(async () => {
    t = await startTestApp();
    author = await t.createUser('doctor');
  });
  after(() => t.close());

  it('a save, a publishing and an archiving after 40 versions read the events since the last look and the version they change', async () => {
    const id = (await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Monsoon fevers', 'v0')).expect(201)).body.id as string;
    for (let i = 1; i <= 40; i += 1) await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Monsoon fevers', `Rest and fluids, version ${i}.`)).expect(200);

    const reads = eventsReadFrom(t.app.eventStore, streams.blogPost(id));
    const read = reads.counts;
    try {
      const saved = await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Monsoon fevers', 'Rest and fluids, version 41.')).expect(200);
      assert.equal(textOf(saved.body), 'Rest and fluids, version 41.', 'the save answers the post as saved');
      const unchanged = await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Monsoon fevers', 'Rest and fluids, version 41.')).expect(200);
      assert.equal(unchanged.headers['x-event-position'], undefined, 'saving the same fields again writes nothing');
      const published = await t.http.post(`/api/v1/blogs/${id}/publish`).set(author.auth).expect(200);
      assert.equal(published.body.status, 'published', 'published');
      assert.equal(published.body.slug, `monsoon-fevers-${id.slice(0, 8)}`, 'the slug comes from the latest title');
      assert.equal(textOf(published.body), 'Rest and fluids, version 41.', 'publishing answers the latest version');
      await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Monsoon fevers', '')).expect(422);
      const renamed = await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Fevers in the monsoon', 'Rest and fluids, version 42.')).expect(200);
      assert.equal(renamed.body.slug, published.body.slug, 'a published post keeps its first slug');
      const archived = await t.http.post(`/api/v1/blogs/${id}/archive`).set(author.auth).expect(200);
      assert.equal(archived.body.status, 'archived', 'archived');
      assert.equal(archived.body.title, 'Fevers in the monsoon', 'archiving answers the latest version');
      assert.equal(textOf(archived.body), 'Rest and fluids, version 42.', 'with its latest content');
      const other = await t.createUser('doctor');
      await t.http.post(`/api/v1/blogs/${id}/publish`).set(other.auth).expect(404);
    } finally {
      reads.stop();
    }
    assert.ok(read.length > 0, 'the commands read the post');
    assert.ok(read.every((n) => n <= 2), `each read of the post (over 40 events) returns at most the new ones and the saved version (read: ${read.join(', ')})`);
  });

  it('the scheduler publishes a post of 40 versions reading the events since the last look and the version it publishes', async () => {
    const id = (await t.http.post('/api/v1/blogs/').set(author.auth).send(post('Heat stroke', 'v0')).expect(201)).body.id as string;
    for (let i = 1; i <= 40; i += 1) await t.http.put(`/api/v1/blogs/${id}`).set(author.auth).send(post('Heat stroke', `Shade and water, version ${i}.`)).expect(200);
    const publish_at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await t.http.post(`/api/v1/blogs/${id}/schedule`).set(author.auth).send({ publish_at }).expect(200);

    const reads = eventsReadFrom(t.app.eventStore, streams.blogPost(id));
    let published: number;
    try {
      const lookups = {
        scheduledPostsDueBefore: async (_now: Date, page: { after: unknown }) => (page.after ? [] : [{ post_id: id, publish_at }]),
        nextScheduledPublish: async () => publish_at,
      };
      published = await publishScheduledPosts({ eventStore: t.app.eventStore, lookups, clock: () => new Date(Date.now() + 7_200_000) });
    } finally {
      reads.stop();
    }
    assert.equal(published, 1, 'the due post is published');
    const events = await t.app.eventStore.readStream(streams.blogPost(id));
    assert.equal(events.at(-1)?.type, 'BlogPostPublished', 'its last event publishes it');
    assert.ok(reads.counts.every((n) => n <= 2), `each read of the post (over 40 events) returns at most the new ones and the saved version (read: ${reads.counts.join(', ')})`);
  });
});
