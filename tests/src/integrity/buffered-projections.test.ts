import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BufferedBatch, MemoryReadStore, type BatchStore } from '@telemed/platform';
import { ProjectionRunner, allProjections, readModelsChecksum } from '@telemed/query';
import { indiaDate, startTestApp } from '../support/test-app';

/** A memory store that batches like the MongoDB adapter: writes buffered, committed with the checkpoints at once. */
class BufferingMemoryStore extends MemoryReadStore {
  override beginBatch(): BatchStore {
    return new BufferedBatch(this, async (ops, checkpoints) => {
      for (const op of ops) {
        if (op.kind === 'put') await this.collection(op.collection).put(op.doc);
        else await this.collection(op.collection).delete(op.id);
      }
      for (const c of checkpoints) await this.setCheckpoint(c);
    });
  }
}

describe('projections through buffered batches (the remote read store path)', () => {
  it('build the same read models as the embedded store', async () => {
    const t = await startTestApp();
    try {
      const doctor = await t.createUser('doctor');
      const patients = [await t.createUser('patient'), await t.createUser('patient')];
      const slots = await t.openSlots(doctor, ['09:00', '09:30', '10:00'].map((time) => ({ date: indiaDate(5), time })));
      for (const [i, p] of patients.entries()) {
        const a = await t.http.post('/api/v1/appointments').set(p.auth).send({ slot_id: slots[i], notes: `n${i}` }).expect(201);
        await t.http.post(`/api/v1/appointments/${a.body.appointment_id}/${i ? 'reject' : 'approve'}`).set(doctor.auth).expect(200);
      }
      await t.http.put('/api/v1/users/me').set(patients[0]!.auth).send({ name: 'Renamed' }).expect(200);
      await t.settle();
      const plain = new MemoryReadStore();
      const buffered = new BufferingMemoryStore();
      for (const store of [plain, buffered]) {
        // small pages, so batches split the log in many places
        await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: store, projections: allProjections }).catchUp(undefined, 7);
      }
      assert.equal(await readModelsChecksum(buffered, allProjections), await readModelsChecksum(plain, allProjections));
    } finally {
      await t.close();
    }
  });
});
