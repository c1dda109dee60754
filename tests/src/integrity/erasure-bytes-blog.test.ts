import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { allProjections, readModelsChecksum } from '@telemed/query';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { fileBytes, replayedTwice, traces, until } from '../support/file-traces';

const content = (text: string) => ({ time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text } }] });

async function post(t: TestApp, doctor: TestUser, body: Record<string, unknown>): Promise<string> {
  return (await t.http.post('/api/v1/blogs/').set(doctor.auth).send(body).expect(201)).body.id as string;
}

/**
 * The bytes test (issue 12) on a doctor's blog posts (a privacy review found them in clear in the log after the
 * doctor's erasure): what the doctor wrote (title, description, excerpt, tags, content, drafts too) and the slug made
 * from the title are under their key, so after their erasure and a replay from position 0 none of it is in the event
 * store file, the read store file or on the bus. A doctor not erased keeps their public pages.
 */
describe("erasure leaves no bytes of a doctor's blog posts", () => {
  it('not in the event store, the read store (live or rebuilt) or the bus; another doctor’s posts still read', async () => {
    const t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    const onTheBus: string[] = [];
    let stopped = false;
    try {
      await t.app.bus.subscribe('telemed.events.>', async (message) => void onTheBus.push(JSON.stringify(message.payload)));
      const doctor = await t.createUser('doctor', { name: 'Dr. Blogger Erasable' });
      const other = await t.createUser('doctor', { name: 'Dr. Staying Writer' });
      const text = {
        title: 'Quokkafish remedies for monsoon fever',
        description: 'Vexillary description of the remedy',
        excerpt: 'Brindlemoss excerpt for the list',
        tag: 'snorkelwort',
        content: 'Narwhalberry tea twice a day, with rest',
        draftTitle: 'Glimmerpox draft never published',
        draftContent: 'Draftwhisper notes on dosage',
        updated: 'Zephyrquill rewrite of the draft',
      };
      const published = await post(t, doctor, { title: text.title, description: text.description, excerpt: text.excerpt, tags: [text.tag], content: content(text.content) });
      const { slug } = (await t.http.post(`/api/v1/blogs/${published}/publish`).set(doctor.auth).expect(200)).body as { slug: string };
      const draft = await post(t, doctor, { title: text.draftTitle, description: null, content: content(text.draftContent) });
      await t.http.put(`/api/v1/blogs/${draft}`).set(doctor.auth).send({ title: text.draftTitle, description: null, content: content(text.updated) }).expect(200);
      const kept = await post(t, other, { title: 'Handwashing saves lives', description: null, content: content('Soap and water for twenty seconds') });
      const keptSlug = ((await t.http.post(`/api/v1/blogs/${kept}/publish`).set(other.auth).expect(200)).body as { slug: string }).slug;
      await t.settle();
      // The pages read the plain text (the projection decrypts); the log and the bus hold ciphertext already.
      assert.equal((await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200)).body.title, text.title);
      assert.equal((await t.http.get(`/api/v1/blogs/${draft}`).set(doctor.auth).expect(200)).body.content.blocks[0].data.text, text.updated);
      const values = [...Object.values(text), slug.split('-')[0]!];
      await until(() => onTheBus.filter((m) => m.includes('BlogPostPublished')).length === 2);
      assert.ok(onTheBus.some((m) => m.includes('"content":"enc1.')), 'the posts went on the bus, their content as ciphertext');
      assert.deepEqual(traces(values, { bus: Buffer.from(onTheBus.join('\n')), 'the event store file': fileBytes(t.dataDir, 'events.db') }), []);

      const erased = await t.http.post('/api/v1/users/me/erasure').set(doctor.auth).expect(200);
      // Only the posts' facts the log holds in clear (category, dates, cover link) are listed as kept: never their text.
      assert.equal((erased.body.kept as Array<{ what: string }>).some((k) => /blog/i.test(k.what) && /title|text|content/i.test(k.what)), false, 'nothing of the posts\' text is kept');
      await t.settle();
      await until(() => onTheBus.some((m) => m.includes('PersonalDataErased')));
      await t.http.get(`/api/v1/public/blogs/${slug}`).expect(404);
      assert.equal((await t.http.get(`/api/v1/public/blogs/${keptSlug}`).expect(200)).body.title, 'Handwashing saves lives', 'a live doctor’s post still reads');
      const live = await readModelsChecksum(t.app.readStore, allProjections);
      await t.app.stop();
      stopped = true;

      const replays = await replayedTwice(t.dataDir);
      assert.equal(replays[0]!.checksum, replays[1]!.checksum, 'a rebuild done twice gives the same read models');
      assert.equal(replays[0]!.checksum, live, 'a rebuild after the erasure equals the live read models');
      const found = traces(values, {
        'the event store file': fileBytes(t.dataDir, 'events.db'),
        'the read store file': fileBytes(t.dataDir, 'read-models.db'),
        'the bus messages': Buffer.from(onTheBus.join('\n')),
      });
      assert.deepEqual(found, [], "no text of the erased doctor's posts is left");
      // The other doctor's post is in the rebuilt read store: the check would see text that is there.
      assert.notEqual(fileBytes(t.dataDir, 'read-models.db').indexOf('Handwashing saves lives'), -1);
    } finally {
      if (!stopped) await t.app.stop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
