import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { personalDataExportSchema } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { binaryBody } from '../support/binary-body';
import { realPng } from '../support/images';

const PNG = await realPng();

/** A doctor's uploaded blog pictures are data the product holds about them (issue 12): in their export, and only theirs. */
describe("export: a doctor's uploaded blog images", () => {
  let t: TestApp;
  let doctor: TestUser;
  let other: TestUser;
  let imageId: string;
  /** The picture as stored and served (re-encoded without its metadata). */
  let stored: Buffer;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    other = await t.createUser('doctor');
    const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'clinic.png' }).expect(201);
    imageId = /\/api\/v1\/blogs\/images\/([0-9a-f-]{36})/.exec(up.body.file.url as string)![1]!;
    await t.settle();
    stored = (await t.http.get(up.body.file.url as string).buffer(true).parse(binaryBody).expect(200)).body as Buffer;
  });
  after(() => t.close());

  const zipOf = async (who: TestUser) => {
    const res = await t.http
      .get('/api/v1/users/me/export?format=zip')
      .set(who.auth)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    return unzipSync(new Uint8Array(res.body as Buffer));
  };

  it('the JSON lists the image with its type, size and a way to get the file, which works for its author', async () => {
    const data = personalDataExportSchema.parse((await t.http.get('/api/v1/users/me/export').set(doctor.auth).expect(200)).body);
    assert.deepEqual(data.blog_images.map((i) => [i.image_id, i.content_type, i.size, i.published_in]), [[imageId, 'image/png', stored.length, []]]);
    const grant = await t.http.get(data.blog_images[0]!.grant_url).set(doctor.auth).expect(200);
    await t.http.get(grant.body.url as string).expect(200);
  });

  it("the zip export holds the file's bytes; another doctor's export holds none of it", async () => {
    const entries = await zipOf(doctor);
    const file = entries[`files/blog-images/${imageId}.png`];
    assert.ok(file, `the picture is in the archive: ${Object.keys(entries).join(', ')}`);
    assert.ok(Buffer.from(file).equals(stored), 'its bytes as stored');
    const theirs = await zipOf(other);
    assert.ok(!Object.keys(theirs).some((name) => name.includes(imageId)), "not in another doctor's archive");
    assert.ok(!Buffer.from(theirs['export.json']!).toString('utf8').includes(imageId), "not in another doctor's JSON");
  });
});
