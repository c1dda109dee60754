import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allProjections } from '@telemed/query';
import { indiaDate, startTestApp } from '../support/test-app';
import { runNpm } from '../support/processes';

describe('npm run replay', () => {
  it('rebuilds read models from position 0 whose checksums equal the live ones', async () => {
    const t = await startTestApp();
    try {
      const doctor = await t.createUser('doctor', { name: 'Dr. Replay' });
      const admin = await t.createUser('admin');
      const patients = [await t.createUser('patient'), await t.createUser('patient'), await t.createUser('patient')];
      const slots = await t.openSlots(doctor, ['09:00', '09:30', '10:00', '10:30'].map((time) => ({ date: indiaDate(4), time })));
      const ids: string[] = [];
      for (const [i, p] of patients.entries()) {
        await t.http.post('/api/v1/users/subscribe').set(p.auth).send({ doctor_id: doctor.user_id }).expect(200);
        ids.push((await t.http.post('/api/v1/appointments').set(p.auth).send({ slot_id: slots[i], notes: `n${i}` }).expect(201)).body.appointment_id);
      }
      await t.http.post(`/api/v1/appointments/${ids[0]}/approve`).set(doctor.auth).expect(200);
      await t.http.post(`/api/v1/appointments/${ids[1]}/reject?rejection_reason=busy`).set(doctor.auth).expect(200);
      await t.http.post(`/api/v1/appointments/${ids[2]}/cancel`).set(patients[2]!.auth).expect(200);
      await t.http.put('/api/v1/users/me').set(patients[0]!.auth).send({ name: 'Renamed Patient' }).expect(200);
      // let the slot releaser finish, then the projections
      for (let i = 0; i < 40; i += 1) {
        const free = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth);
        if (free.body.slots.length === 3) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await t.settle();

      const live = await t.http.get('/api/v1/admin/projections').set(admin.auth).expect(200);
      const count = (live.body as unknown[]).length;
      assert.equal(String(live.headers['content-range']), `projections 0-${count - 1}/${count}`);
      await t.http.get('/api/v1/admin/projections').set(doctor.auth).expect(403);

      const run = await runNpm(['replay', '--', '--json'], { DATA_DIR: t.dataDir });
      assert.equal(run.code, 0, run.stderr);
      const replay = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        events: number;
        events_per_second: number;
        checksum: string;
        projections: Record<string, string>;
      };
      assert.equal(replay.events, await t.app.eventStore.headPosition());
      assert.ok(replay.events_per_second > 0);
      assert.deepEqual((live.body as Array<{ name: string }>).map((r) => r.name), allProjections.map((p) => p.name));
      for (const row of live.body as Array<{ name: string; checksum: string; lag: number }>) {
        assert.equal(row.lag, 0);
        assert.equal(replay.projections[row.name], row.checksum, `projection ${row.name} rebuilt equal`);
      }
      assert.match(run.stderr, /replay \[/, 'a progress bar on stderr');

      // An operator rebuilds one projection in place: it comes back identical, the others untouched.
      const before = new Map((live.body as Array<{ name: string; checksum: string }>).map((r) => [r.name, r.checksum]));
      await t.http.post('/api/v1/admin/projections/appointments/rebuild').set(doctor.auth).expect(403);
      await t.http.post('/api/v1/admin/projections/nothing/rebuild').set(admin.auth).expect(404);
      const started = await t.http.post('/api/v1/admin/projections/appointments/rebuild').set(admin.auth).expect(202);
      assert.deepEqual(started.body, { status: 'rebuilding', name: 'appointments' });
      await t.settle();
      const after = await t.http.get('/api/v1/admin/projections').set(admin.auth).expect(200);
      for (const row of after.body as Array<{ name: string; checksum: string; lag: number }>) {
        assert.equal(row.lag, 0, row.name);
        assert.equal(row.checksum, before.get(row.name), `${row.name} is the same after the rebuild`);
      }
    } finally {
      await t.close();
    }
  });
});
