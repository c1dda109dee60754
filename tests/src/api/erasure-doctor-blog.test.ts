import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ERASURE_LEGAL_HOLD } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A doctor's erasure and their blog posts (issue 12, a privacy review): the posts leave every page, and the answer
 * says truthfully what of them the event log still holds, and why.
 */
describe("erasure of a doctor: the answer says what of their blog posts is kept", () => {
  let t: TestApp;
  let doctor: TestUser;

  before(async () => {
    t = await startTestApp({});
    doctor = await t.createUser('doctor', { name: 'Dr. Blogging Erasable' });
  });
  after(() => t.close());

  it('lists the posts’ text in the log as kept, with the reason, and the posts leave the pages', async () => {
    const title = 'Zebrafish-Quokka remedies for monsoon fever';
    const content = { time: 1, version: '2.31.0', blocks: [{ type: 'paragraph', data: { text: 'Xylophone-Narwhal advice: rest and fluids.' } }] };
    const created = await t.http.post('/api/v1/blogs/').set(doctor.auth).send({ title, description: null, content }).expect(201);
    const published = await t.http.post(`/api/v1/blogs/${created.body.id}/publish`).set(doctor.auth).expect(200);
    await t.settle();
    const slug = published.body.slug as string;
    await t.http.get(`/api/v1/public/blogs/${slug}`).expect(200);
    const answer = await t.http.post('/api/v1/users/me/erasure').set(doctor.auth).expect(200);
    assert.deepEqual(answer.body.kept, ERASURE_LEGAL_HOLD);
    const blog = (answer.body.kept as Array<{ what: string; why: string }>).find((k) => /blog posts/.test(k.what));
    assert.ok(blog, 'the answer lists the blog posts’ text');
    assert.match(blog.what, /drafts included/);
    assert.match(blog.why, /not yet encrypted/, 'and says why the log still holds it');
    await t.settle();
    await t.http.get(`/api/v1/public/blogs/${slug}`).expect(404);
    const listed = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}/blogs`);
    assert.equal(JSON.stringify(listed.body).includes('Zebrafish-Quokka'), false, "the post left the doctor's public list");
  });
});
