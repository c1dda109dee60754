import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { BLOB_CHUNK_BYTES, EncryptingBlobStore, FileBlobStore, KeyRing, MemoryKeyStore, generateMasterKeyText, parseMasterKey, type RawBlobStore } from '@telemed/platform';
import { GridFsBlobStore } from '@telemed/platform/servers';

const masters = { current: parseMasterKey(generateMasterKeyText()), previous: [] };
import { tmpDataDir } from '../support/test-app';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The BlobStore contract, for each raw adapter behind the encryption. */
function contract(name: string, open: () => Promise<RawBlobStore | null>) {
  describe(`blob store: ${name}`, () => {
    it('stores streams encrypted under the owner key, reads them back, and an erased owner no longer reads', async (t) => {
      const raw = await open();
      if (!raw) {
        t.skip('MONGODB_URL is not set: the GridFS adapter was not exercised');
        return;
      }
      const keys = new KeyRing(new MemoryKeyStore(masters));
      const blobs = new EncryptingBlobStore(raw, keys);
      try {
        for (const size of [0, 1, BLOB_CHUNK_BYTES - 1, BLOB_CHUNK_BYTES, 3 * BLOB_CHUNK_BYTES + 17]) {
          const plain = randomBytes(size);
          const stored = await blobs.put(Readable.from([plain.subarray(0, size >> 1), plain.subarray(size >> 1)]), { subject_id: 'patient-1' });
          assert.equal(stored.size, size);
          assert.deepEqual(await bytesOf(await blobs.open(stored.blob_id)), plain);
          const ciphertext = await bytesOf((await raw.read(stored.blob_id))!);
          if (size > 16) assert.ok(!ciphertext.includes(plain.subarray(0, 16)), 'no plain bytes at rest');
        }
        const mine = await blobs.put(Readable.from([Buffer.from('%PDF-1.4 health data')]), { subject_id: 'patient-2' });
        await keys.destroy('patient-2');
        await assert.rejects(() => blobs.open(mine.blob_id), /destroyed/);
        await assert.rejects(() => blobs.open('0'.repeat(32)), /No blob/);
      } finally {
        await blobs.close();
      }
    });
  });
}

contract('files under DATA_DIR/blobs', async () => new FileBlobStore(join(tmpDataDir(), 'blobs')));
contract('MongoDB GridFS', async () => (process.env.MONGODB_URL ? GridFsBlobStore.connect(process.env.MONGODB_URL, `telemed_blob_test_${Date.now()}`) : null));

describe('blob store: files', () => {
  it('detects a changed byte, and leaves no partial blob when the source fails', async () => {
    const dir = join(tmpDataDir(), 'blobs');
    const raw = new FileBlobStore(dir);
    const blobs = new EncryptingBlobStore(raw, new KeyRing(new MemoryKeyStore(masters)));
    const stored = await blobs.put(Readable.from([randomBytes(100_000)]), { subject_id: 'p' });
    const path = join(dir, stored.blob_id.slice(0, 2), stored.blob_id);
    const bytes = readFileSync(path);
    bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 1;
    writeFileSync(path, bytes);
    await assert.rejects(async () => bytesOf(await blobs.open(stored.blob_id)), /authenticate/);
    const failing = new Readable({ read() { this.destroy(new Error('client went away')); } });
    await assert.rejects(() => blobs.put(failing, { subject_id: 'p' }));
    assert.deepEqual(readdirSync(join(dir, 'tmp')), [], 'the temporary file is gone');
  });

  it('removes at start the temporary files of an upload that a crash cut off, and keeps one still being written', async () => {
    const dir = join(tmpDataDir(), 'blobs');
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const abandoned = join(dir, 'tmp', `${'a'.repeat(32)}.0123456789ab.part`);
    const underWay = join(dir, 'tmp', `${'b'.repeat(32)}.ba9876543210.part`);
    writeFileSync(abandoned, randomBytes(1000));
    writeFileSync(underWay, randomBytes(1000));
    const crashTime = new Date(Date.now() - 10 * 60_000);
    utimesSync(abandoned, crashTime, crashTime);
    const raw = new FileBlobStore(dir, 120_000);
    assert.equal(await raw.removeAbandonedUploads(), 1);
    assert.deepEqual(readdirSync(join(dir, 'tmp')), [basename(underWay)], 'only the upload still being written is left');
    assert.equal(await raw.removeAbandonedUploads(Date.now() + 121_000), 1, 'once aged past the idle limit, it is a leftover too');
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
  });
});
