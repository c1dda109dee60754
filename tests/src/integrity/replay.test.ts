import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GenerationalReadStore, SqliteReadStore, physicalName } from '@telemed/platform';
import { allProjections } from '@telemed/query';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort, runNpm } from '../support/processes';

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
      // The slot releaser has acted on the rejection and the cancellation, and the projections hold it all.
      await t.settle();
      assert.equal((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth).expect(200)).body.slots.length, 3);

      const live = await t.http.get('/api/v1/admin/projections?checksum=true').set(admin.auth).expect(200);
      const count = (live.body as unknown[]).length;
      assert.equal(String(live.headers['content-range']), `projections 0-${count - 1}/${count}`);
      await t.http.get('/api/v1/admin/projections').set(doctor.auth).expect(403);
      // A checksum reads every document of the read models: the list digests them only when asked (the console's page
      // asks with its filter), never for the polls that follow a rebuild.
      const plain = (await t.http.get('/api/v1/admin/projections').set(admin.auth).expect(200)).body as Array<{ checksum: string | null }>;
      assert.ok(plain.every((r) => r.checksum === null), `no checksum unless asked: ${JSON.stringify(plain.map((r) => r.checksum))}`);
      const asConsole = (await t.http.get(`/api/v1/admin/projections?filter=${encodeURIComponent('{"checksum":true}')}`).set(admin.auth).expect(200)).body as Array<{ checksum: string }>;
      assert.deepEqual(asConsole.map((r) => r.checksum), (live.body as Array<{ checksum: string }>).map((r) => r.checksum), "the console's filter asks for them");

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
      assert.match(run.stderr, /replay appointments \[.*\| \d+ events/, 'a progress bar on stderr, per projection');
      assert.equal(JSON.parse(run.stdout.trim().split('\n').at(-1)!).mode, 'generations', 'beside the live read models by default');

      // An operator rebuilds one projection in place: it comes back identical, the others untouched.
      const before = new Map((live.body as Array<{ name: string; checksum: string }>).map((r) => [r.name, r.checksum]));
      await t.http.post('/api/v1/admin/projections/appointments/rebuild').set(doctor.auth).expect(403);
      await t.http.post('/api/v1/admin/projections/nothing/rebuild').set(admin.auth).expect(404);
      const started = await t.http.post('/api/v1/admin/projections/appointments/rebuild').set(admin.auth).expect(202);
      assert.deepEqual(started.body, { status: 'rebuilding', name: 'appointments' });
      await t.settle();
      const after = await t.http.get('/api/v1/admin/projections?checksum=true').set(admin.auth).expect(200);
      for (const row of after.body as Array<{ name: string; checksum: string; lag: number }>) {
        assert.equal(row.lag, 0, row.name);
        assert.equal(row.checksum, before.get(row.name), `${row.name} is the same after the rebuild`);
      }
    } finally {
      await t.close();
    }
  });
});

/**
 * `npm run replay` without downtime (issue 15): by default it builds each read model's next generation beside the live
 * one and switches over (readers in other processes keep answering from the live one meanwhile); while a server writes
 * the read models it is the server that rebuilds them (`--server`), and the replay follows it; `--in-place` is the old way.
 */
describe('npm run replay without downtime', () => {
  let t: TestApp;
  let base: string;
  let operator: TestUser;
  let doctor: TestUser;
  const SLOTS = 48;

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    const port = await freePort();
    await t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    operator = await t.createUser('admin');
    doctor = await t.createUser('doctor', { name: 'Dr. Generations' });
    const times = Array.from({ length: SLOTS }, (_, i) => ({ date: indiaDate(2 + Math.floor(i / 16)), time: `${String(9 + Math.floor((i % 16) / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}` }));
    assert.equal((await t.openSlots(doctor, times)).length, SLOTS);
    await t.settle();
  });
  after(async () => {
    await t?.close();
  });

  const liveRows = async () => (await t.http.get('/api/v1/admin/projections?checksum=true').set(operator.auth).expect(200)).body as Array<{ name: string; checksum: string }>;
  const reportOf = (stdout: string) =>
    JSON.parse(stdout.trim().split('\n').at(-1)!) as { mode: string; events: number; events_per_second: number; checksum: string; projections: Record<string, string> };

  it('beside a running server it refuses to write its read models, and says how to rebuild them', async () => {
    const run = await runNpm(['replay', '--', '--projection', 'slots', '--json'], { DATA_DIR: t.dataDir, READ_STORE: 'sqlite' });
    assert.equal(run.code, 1, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
    assert.match(run.stderr, /running server writes these read models.*--server URL/);
  });

  it('--server: the running product rebuilds beside the live generation while a client keeps querying; same checksum after', async () => {
    const before = (await liveRows()).find((r) => r.name === 'slots')!.checksum;
    let querying = true;
    const answers: Array<{ status: number; count: number }> = [];
    const client = (async () => {
      while (querying) {
        const res = await fetch(`${base}/api/v1/doctors/${doctor.user_id}/available-slots`, { headers: doctor.auth });
        const body = (await res.json()) as { slots?: unknown[] };
        answers.push({ status: res.status, count: body.slots?.length ?? -1 });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const run = await runNpm(['replay', '--', '--projection', 'slots', '--server', base, '--json'], { DATA_DIR: t.dataDir, REPLAY_TOKEN: operator.token });
    querying = false;
    await client;
    assert.equal(run.code, 0, run.stderr);
    const report = reportOf(run.stdout);
    assert.equal(report.mode, 'server');
    assert.equal(report.projections.slots, before, 'the rebuilt read model equals the live one');
    assert.match(run.stderr, /replay slots \[/, 'a progress bar on stderr');
    assert.match(run.stderr, /slots: switched over/);
    assert.ok(answers.length > 0);
    assert.deepEqual(answers.filter((a) => a.status !== 200 || a.count !== SLOTS), [], `${answers.length} answers, none failed or short`);
    const store = t.app.readStore as GenerationalReadStore;
    assert.equal(store.generationOf('slots'), 1, 'a new generation, not the old one emptied');
    // An operator may sign in instead, the password on stdin (as `npm run cli -- admin:create` set it).
    const passphrase = 'a long enough passphrase';
    const created = await runNpm(['cli', '--', 'admin:create', '--email', 'ops@replay.example.in', '--name', 'Ops'], { DATA_DIR: t.dataDir }, `${passphrase}\n`);
    assert.equal(created.code, 0, created.stderr);
    const signedIn = await runNpm(['replay', '--', '--projection', 'users', '--server', base, '--operator', 'ops@replay.example.in', '--json'], { DATA_DIR: t.dataDir }, `${passphrase}\n`);
    assert.equal(signedIn.code, 0, signedIn.stderr);
    assert.equal(reportOf(signedIn.stdout).projections.users, (await liveRows()).find((r) => r.name === 'users')!.checksum);
    const wrong = await runNpm(['replay', '--', '--projection', 'users', '--server', base, '--operator', 'ops@replay.example.in'], { DATA_DIR: t.dataDir }, 'not the passphrase\n');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Signing in as ops@replay\.example\.in failed \(401\)/);
    // Without an operator's token it does nothing.
    const refused = await runNpm(['replay', '--', '--projection', 'slots', '--server', base], { DATA_DIR: t.dataDir, REPLAY_TOKEN: doctor.token });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused \(403\)/);
    // The server drops the retired generations after their grace (before the next test stops it: a drop due after a
    // stop is left to the next start).
    const deadline = Date.now() + 15_000;
    for (const name of ['slots', ...allProjections.find((p) => p.name === 'users')!.collections]) {
      while ((await store.inner.collection(physicalName(name, store.generationOf(name) - 1)).count({})) > 0) {
        assert.ok(Date.now() < deadline, `the retired generation of ${name} is dropped`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });

  it('with no server: the next generation is built beside the live one while a reader on the same file keeps answering; --in-place is the old way', async () => {
    const before = await liveRows();
    const checksum = (name: string) => before.find((r) => r.name === name)!.checksum;
    const dataDir = t.dataDir;
    await t.close({ keepData: true });
    // A reader in this process, the replay in another: as a query replica beside the rebuilding projector.
    const reader = new GenerationalReadStore(new SqliteReadStore({ filename: join(dataDir, 'read-models.db') }), { refreshMs: 50 });
    await reader.load();
    let reading = true;
    const counts: number[] = [];
    const readerLoop = (async () => {
      while (reading) {
        counts.push(await reader.collection('slots').count({ doctor_id: doctor.user_id }));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const run = await runNpm(['replay', '--', '--projection', 'slots', '--json'], { DATA_DIR: dataDir, READ_STORE: 'sqlite' });
    reading = false;
    await readerLoop;
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.trim(), `a report on stdout; stderr: ${run.stderr}`);
    const report = reportOf(run.stdout);
    assert.equal(report.mode, 'generations');
    assert.equal(report.projections.slots, checksum('slots'));
    assert.ok(report.events > 0 && report.events_per_second > 0);
    assert.match(run.stderr, /replay slots \[.*\d+% of the log \| \d+ events/);
    assert.match(run.stderr, /slots: switched over to generation 2/);
    assert.ok(counts.length > 0);
    assert.deepEqual(counts.filter((c) => c !== SLOTS), [], `${counts.length} reads during the replay, none empty or short`);
    await reader.load();
    assert.equal(reader.generationOf('slots'), 2);
    assert.equal(await reader.inner.collection(physicalName('slots', 1)).count({}), 0, 'the retired generation is dropped');

    // The old way, behind its flag: dropped and replayed in place (the same generation), equal again.
    const inPlace = await runNpm(['replay', '--', '--projection', 'appointments', '--in-place', '--json'], { DATA_DIR: dataDir, READ_STORE: 'sqlite' });
    assert.equal(inPlace.code, 0, inPlace.stderr);
    assert.equal(reportOf(inPlace.stdout).mode, 'in-place');
    assert.equal(reportOf(inPlace.stdout).projections.appointments, checksum('appointments'));
    await reader.close();
    t = await startTestApp({ dataDir, env: { READ_STORE: 'sqlite' } });
    const res = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth).expect(200);
    assert.equal((res.body as { slots: unknown[] }).slots.length, SLOTS, 'a restarted server reads the switched generation');
  });
});
