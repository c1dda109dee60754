import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { startTestApp, indiaDate, tmpDataDir, type TestUser } from '../support/test-app';
import { startServerProcess } from '../support/processes';
import { natsReachable, natsUrl } from '../support/nats';

const reachable = await natsReachable();

/** The three services as separate processes (their own main.ts), sharing the event store file and NATS. */
describe('command, query and notifier as separate services', { skip: reachable ? false : `not run: no NATS server at ${natsUrl}` }, () => {
  const dataDir = tmpDataDir();
  const servers: Array<Awaited<ReturnType<typeof startServerProcess>>> = [];
  let doctor: TestUser;
  let patient: TestUser;
  let slotId: number;

  before(async () => {
    const setup = await startTestApp({ dataDir });
    doctor = await setup.createUser('doctor', { name: 'Dr. Split' });
    patient = await setup.createUser('patient', { name: 'Kabir Singh' });
    [slotId] = (await setup.openSlots(doctor, [{ date: indiaDate(2), time: '14:00' }])) as [number];
    await setup.close({ keepData: true });
    const env = { DATA_DIR: dataDir, NATS_URL: natsUrl, NOTIFIER_ID: `split-${randomUUID().slice(0, 8)}` };
    for (const entry of ['services/command/src/main.ts', 'services/query/src/main.ts', 'services/notifier/src/main.ts']) {
      servers.push(await startServerProcess(env, entry));
    }
  });
  after(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('a request through the command service is read through the query service and pushed by the notifier', async () => {
    const [command, query, notifier] = servers.map((s) => s.baseUrl) as [string, string, string];
    const ws = new WebSocket(`${notifier.replace('http', 'ws')}/ws/${doctor.user_id}?token=${doctor.token}`);
    const messages: Array<{ type: string; data?: { patient_name?: string } }> = [];
    ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    const created = await fetch(`${command}/api/v1/appointments`, {
      method: 'POST',
      headers: { ...patient.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ slot_id: slotId, notes: 'Split services' }),
    });
    assert.equal(created.status, 201);
    const position = created.headers.get('x-event-position')!;
    const mine = await fetch(`${query}/api/v1/appointments/me`, { headers: { ...patient.auth, 'X-Min-Position': position } });
    assert.equal(mine.status, 200);
    const list = (await mine.json()) as Array<{ notes: string }>;
    assert.deepEqual(list.map((a) => a.notes), ['Split services']);
    const deadline = Date.now() + 8000;
    while (!messages.some((m) => m.type === 'appointment_request') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(messages.find((m) => m.type === 'appointment_request')?.data?.patient_name, 'Kabir Singh');
    ws.close(1000);
    for (const base of [command, query, notifier]) assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal((await fetch(`${command}/api/v1/doctors/`, { headers: patient.auth })).status, 404, 'reads are the query service’s');
  });

  it('clinical records: a report uploaded through the command service is listed and downloaded through the query service, which also searches medicines', async () => {
    const [command, query] = servers.map((s) => s.baseUrl) as [string, string];
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const form = new FormData();
    form.append('report_type', 'lab');
    form.append('report_date', indiaDate(0));
    form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'cbc.pdf');
    const uploaded = await fetch(`${command}/api/v1/records/reports`, { method: 'POST', headers: patient.auth, body: form });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const position = uploaded.headers.get('x-event-position')!;
    const mine = await fetch(`${query}/api/v1/records/me`, { headers: { ...patient.auth, 'X-Min-Position': position } });
    assert.equal(mine.status, 200);
    const records = (await mine.json()) as { reports: Array<{ files: Array<{ file_id: string }> }> };
    const fileId = records.reports[0]!.files[0]!.file_id;
    const file = await fetch(`${query}/api/v1/records/files/${fileId}`, { headers: patient.auth });
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), pdf, 'the query service opens the blob the command service stored');
    const search = await fetch(`${query}/api/v1/medicines/search?q=paracet&limit=3`, { headers: patient.auth });
    assert.equal(search.status, 200);
    assert.match(((await search.json()) as Array<{ name: string }>)[0]!.name, /paracetamol/i);
  });
});
