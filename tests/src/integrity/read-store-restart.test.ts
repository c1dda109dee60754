import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections, projectionChecksum } from '@telemed/query';
import { indiaDate, startTestApp, tmpDataDir } from '../support/test-app';
import { runNpm } from '../support/processes';

const SQLITE = { READ_STORE: 'sqlite' };

/** npm start's read models on disk: a restart resumes from the stored checkpoints instead of replaying the log. */
describe('SQLite read models across restarts', () => {
  it('a restart reads only what is new, and the read models are there', async () => {
    const dataDir = tmpDataDir();
    try {
      const first = await startTestApp({ dataDir, env: SQLITE });
      const doctor = await first.createUser('doctor', { name: 'Dr. Restart' });
      const patient = await first.createUser('patient', { name: 'Meera Rao' });
      const [slot] = await first.openSlots(doctor, [{ date: indiaDate(3), time: '11:00' }]);
      const booked = await first.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Persisted' }).expect(201);
      await first.settle();
      const head = await first.app.eventStore.headPosition();
      assert.equal(first.app.runner.appliedCount, head, 'the first start built everything from the log');
      await first.close();

      const second = await startTestApp({ dataDir, env: SQLITE });
      try {
        assert.equal(second.app.runner.appliedCount, 0, 'nothing replayed at start');
        assert.equal(second.app.runner.position, head);
        const mine = await second.http.get('/api/v1/appointments/me').set(patient.auth).expect(200);
        assert.deepEqual((mine.body as Array<{ appointment_id: string; notes: string }>).map((a) => [a.appointment_id, a.notes]), [[booked.body.appointment_id, 'Persisted']]);
        await second.http.post(`/api/v1/appointments/${booked.body.appointment_id}/approve`).set(doctor.auth).expect(200);
        await second.settle();
        const now = await second.app.eventStore.headPosition();
        assert.equal(second.app.runner.appliedCount, now - head, 'only the new events');
        const after = await second.http.get('/api/v1/appointments/me').set(patient.auth).expect(200);
        assert.equal((after.body as Array<{ status: string }>)[0]?.status, 'confirmed');

        // An operator's rebuild of one projection works on the stored read models too.
        const admin = await second.createUser('admin');
        const checksums = async () =>
          new Map(((await second.http.get('/api/v1/admin/projections?checksum=true').set(admin.auth).expect(200)).body as Array<{ name: string; checksum: string }>).map((r) => [r.name, r.checksum]));
        const before = await checksums();
        await second.http.post('/api/v1/admin/projections/appointments/rebuild').set(admin.auth).expect(202);
        await second.settle();
        assert.deepEqual(await checksums(), before);
      } finally {
        await second.close();
      }

      // A projection whose version was bumped is rebuilt from 0; the others keep their place.
      const readStore = new SqliteReadStore({ filename: join(dataDir, 'read-models.db') });
      const app = await startTestApp({ dataDir, env: { READ_STORE: 'memory' } });
      try {
        const slots = allProjections.find((p) => p.name === 'slots')!;
        const before = await projectionChecksum(readStore, slots);
        const bumped = allProjections.map((p) => (p === slots ? { ...p, version: p.version + 1 } : p));
        const runner = new ProjectionRunner({ eventStore: app.app.eventStore, readStore, projections: bumped });
        await runner.catchUp();
        assert.deepEqual(await readStore.getCheckpoint('slots'), { name: 'slots', version: slots.version + 1, position: await app.app.eventStore.headPosition() });
        assert.equal(await projectionChecksum(readStore, slots), before, 'rebuilt equal');
        assert.ok((await readStore.collection('slots').count()) > 0);
      } finally {
        await readStore.close();
        await app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('npm run replay rebuilds the stored read models, and refuses while a server writes them', async () => {
    const t = await startTestApp({ env: SQLITE });
    try {
      const doctor = await t.createUser('doctor');
      await t.openSlots(doctor, [{ date: indiaDate(2), time: '10:00' }]);
      const busy = await runNpm(['replay', '--', '--json', '--projection', 'slots'], { DATA_DIR: t.dataDir });
      assert.notEqual(busy.code, 0);
      assert.match(busy.stderr, /A running server writes these read models/);
      const live = await projectionChecksum(t.app.readStore, allProjections.find((p) => p.name === 'slots')!);
      await t.app.stop();
      const run = await runNpm(['replay', '--', '--json', '--projection', 'slots'], { DATA_DIR: t.dataDir });
      assert.equal(run.code, 0, run.stderr);
      const replay = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { events: number; projections: Record<string, string> };
      assert.equal(replay.projections.slots, live);
      const store = new SqliteReadStore({ filename: join(t.dataDir, 'read-models.db') });
      assert.equal((await store.getCheckpoint('slots'))?.position, replay.events);
      await store.close();
    } finally {
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
