import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOCTOR_ERASURE_LEGAL_HOLD, ERASED_VALUE, streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext } from '@telemed/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * A doctor's erasure and their blog posts (issue 12, a privacy review found their text in clear in the log after it):
 * what the doctor wrote is ciphertext under their key, so the erasure shreds it; read back, a post's text is erased
 * (its content and tags empty, of their shape), and the answer keeps nothing of the posts.
 */
describe("erasure of a doctor: their blog posts' text goes with them", () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp({});
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('is ciphertext in the log, reads as erased after the erasure, and the answer lists nothing of it as kept', async () => {
    const doctor = await spec.given.doctor({ name: 'Dr. Blogging Erasable' });
    const title = 'Zebrafish-Quokka remedies for monsoon fever';
    const content = { time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text: 'Xylophone-Narwhal advice: rest and fluids.' } }] };
    const created = await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title, description: 'Why rest helps', tags: ['fever'], content }).expect(201);
    const published = await t.http.post(`/api/v1/blogs/${created.body.id}/publish`).set(doctor.auth).expect(200);
    const slug = published.body.slug as string;
    assert.equal((await spec.read((http) => http.get(`/api/v1/public/blogs/${slug}`).expect(200))).body.content.blocks[0].data.text, content.blocks[0]!.data.text, 'the page reads it in clear');
    const stream = streams.blogPost(created.body.id as string);
    const sealed = await ciphertextLog(t.app.eventStore).readStream(stream);
    const saved = sealed[0]!.data as Record<string, unknown>;
    for (const field of ['title', 'description', 'tags', 'content']) assert.ok(isCiphertext(saved[field]), `${field} is ciphertext in the log`);
    assert.ok(isCiphertext((sealed[1]!.data as { slug: unknown }).slug), 'the slug (made from the title) too');

    const answer = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(doctor.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(doctor.user_id), type: 'PersonalDataErased', data: { requested_by: 'self' } }])
      .expectReactions([]);
    assert.deepEqual(answer.body.kept, DOCTOR_ERASURE_LEGAL_HOLD);
    // Of the posts, only the facts the log holds in clear (category, dates, cover link) are listed as kept: never their words.
    const posts = (answer.body.kept as Array<{ what: string }>).filter((k) => /blog/i.test(k.what));
    assert.equal(posts.some((k) => /title|text|content/i.test(k.what)), false, "nothing of the posts' text is kept");
    await spec.read((http) => http.get(`/api/v1/public/blogs/${slug}`).expect(404));
    const [read, publishing] = await t.app.eventStore.readStream(stream);
    assert.deepEqual(
      { title: (read!.data as { title: string }).title, tags: (read!.data as { tags: string[] }).tags, content: (read!.data as { content: unknown }).content },
      { title: ERASED_VALUE, tags: [], content: { blocks: [] } },
      'read back, the text is erased, each field of its shape',
    );
    assert.equal((publishing!.data as { slug: string }).slug, ERASED_VALUE);
  });
});
