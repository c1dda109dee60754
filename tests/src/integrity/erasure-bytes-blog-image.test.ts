import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ERASED_VALUE, streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext } from '@telemed/platform';
import { startTestApp } from '../support/test-app';
import { fileBytes, traces, until } from '../support/file-traces';
import { binaryBody } from '../support/binary-body';
import { realPng } from '../support/images';

const PNG = await realPng('#8a5c3e');

/**
 * A doctor's uploaded picture (a portrait, their clinic) is shredded with their key, but its SHA-256 digest stayed in
 * clear in the log (BlogImageStored): after their erasure anyone holding the picture could still match it to their
 * account id. The digest is under the author's key like what they wrote, as a record file's digest is under the
 * patient's: ciphertext in the log and on the bus, and gone once the key is destroyed.
 */
describe("a doctor's picture's digest in the log", () => {
  it('is ciphertext in the log and on the bus, and after the erasure is nowhere in the event store file', async () => {
    const t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    const onTheBus: string[] = [];
    try {
      await t.app.bus.subscribe('telemed.events.>', async (message) => void onTheBus.push(JSON.stringify(message.payload)));
      const doctor = await t.createUser('doctor', { name: 'Dr. Pictured Person' });
      const up = await t.http.post('/api/v1/blogs/images').set(doctor.auth).attach('image', PNG, { filename: 'me.png' }).expect(201);
      const imageId = /\/api\/v1\/blogs\/images\/([0-9a-f-]{36})/.exec(up.body.file.url as string)![1]!;
      await t.settle();
      // The digest of the picture as stored (re-encoded without its metadata).
      const served = (await t.http.get(up.body.file.url as string).buffer(true).parse(binaryBody).expect(200)).body as Buffer;
      const digest = createHash('sha256').update(served).digest('hex');

      const [stored] = await ciphertextLog(t.app.eventStore).readStream(streams.blogImage(imageId));
      assert.equal(stored!.type, 'BlogImageStored');
      assert.ok(isCiphertext((stored!.data as { sha256: string }).sha256), 'the digest is ciphertext in the log');
      const [read] = await t.app.eventStore.readStream(streams.blogImage(imageId));
      assert.equal((read!.data as { sha256: string }).sha256, digest, 'and reads back as the digest while the key exists');
      await until(() => onTheBus.some((m) => m.includes('BlogImageStored')));
      assert.deepEqual(traces([digest], { 'the bus messages': Buffer.from(onTheBus.join('\n')), 'the event store file': fileBytes(t.dataDir, 'events.db') }), []);

      await t.http.post('/api/v1/users/me/erasure').set(doctor.auth).expect(200);
      await t.settle();
      const [after] = await t.app.eventStore.readStream(streams.blogImage(imageId));
      assert.equal((after!.data as { sha256: string }).sha256, ERASED_VALUE, 'once the key is destroyed it reads as erased');
      assert.equal((after!.data as { content_type: string }).content_type, 'image/png', 'the type stays (it says nothing of the person)');
    } finally {
      await t.close();
    }
  });
});
