import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageQuota, type StoredBytes } from './storage-quota';

describe('StorageQuota', () => {
  it("counts an upload written to the log until the read model has counted it, never twice, and uploads under way against each other", async () => {
    let stored: StoredBytes = { bytes: 600, position: 5 };
    const quota = new StorageQuota(1000, async (patientId) => (patientId === 'p' ? stored : { bytes: 0, position: 0 }));
    const first = await quota.claim('p');
    assert.equal(first.room(), 400);
    assert.ok(first.take(300));
    // A second upload at once sees the first's bytes as they flow.
    const second = await quota.claim('p');
    assert.equal(second.room(), 100);
    assert.equal(second.take(150), false, 'together they pass the limit');
    assert.equal(second.take(1), false, 'refused for good');
    assert.equal(first.room(), 100, 'the refused upload counts no more: the first goes on');
    second.release();
    first.settle(9);
    // The read model has not counted the first yet (position 5 < 9): it is still counted here.
    assert.equal((await quota.claim('p')).room(), 100);
    // Now it has (position 9, 900 bytes): counted once.
    stored = { bytes: 900, position: 9 };
    const third = await quota.claim('p');
    assert.equal(third.room(), 100, 'not 100 - 300');
    third.release();
    assert.equal((await quota.claim('q')).room(), 1000, 'each patient their own');
  });
});
