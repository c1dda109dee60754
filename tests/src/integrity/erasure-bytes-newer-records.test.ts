import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections, readModelsChecksum } from '@telemed/query';
import { indiaDate, startTestApp } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** The bytes of files as they sit on disk (each with its write-ahead log). */
function bytesOf(dir: string, names: string[]): Buffer {
  return Buffer.concat(names.flatMap((n) => [n, `${n}-wal`]).map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f)));
}

/**
 * The bytes test (issue 12) on what later issues added: a consultation's chat (13) and a patient's uploaded report
 * with its file (14). After the patient's erasure none of their values is in the event store, the blob files, the
 * live SQLite read store or on the bus, and a rebuild from position 0 gives the live read models' checksum.
 */
describe('erasure leaves no bytes of the chat and the uploaded reports', () => {
  it('not in the event store, the blobs, the live read store or the bus; a rebuild equals the live read models', async () => {
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { READ_STORE: 'sqlite', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    const onTheBus: string[] = [];
    try {
      await t.app.bus.subscribe('telemed.events.>', async (message) => void onTheBus.push(JSON.stringify(message.payload)));
      const doctor = await t.createUser('doctor', { name: 'Dr. Bytes Kulkarni' });
      const person = {
        name: 'Tanvi Bytes Deshmukh',
        phone: '+91 93456 78012',
        notes: 'Blurred vision since the fever',
        chat: 'My left eye waters all day',
        doctorChat: 'Since when exactly?',
        summary: 'Retina scan shows early changes',
        facility: 'Sunrise Eye Diagnostics',
        fileName: 'tanvi-retina-scan.pdf',
      };
      const patient = await t.createUser('patient', { name: person.name, phone_number: person.phone });
      const email = (await t.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.email as string;
      const id = await heldAppointment(t, { doctor, patient, hour: 12, setNow: (d) => (now = d), notes: person.notes });
      await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
      await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: person.chat }).expect(201);
      await t.http.post(`/api/v1/consultations/${id}/messages`).set(doctor.auth).send({ text: person.doctorChat }).expect(201);
      await t.http
        .post('/api/v1/records/reports')
        .set(patient.auth)
        .field('report_type', 'lab')
        .field('report_date', indiaDate(0))
        .field('report_summary', person.summary)
        .field('medical_facility', person.facility)
        .field('appointment_id', id)
        .attach('files', Buffer.concat([PDF, Buffer.from(`% ${person.summary}\n`)]), person.fileName)
        .expect(201);
      await t.settle();
      const values = Object.values(person).concat(email);
      assert.ok(bytesOf(t.dataDir, ['read-models.db']).indexOf(person.name) !== -1, 'before the erasure the read store holds the name (the check can see it)');
      // The chat is kept sealed in the read models (contracts' sealedInReadModels) and opened as it is served.
      assert.equal(bytesOf(t.dataDir, ['read-models.db']).indexOf(person.chat), -1, 'the read store holds the chat sealed');
      const chat = (await t.http.get(`/api/v1/consultations/${id}/messages`).set(doctor.auth).expect(200)).body as { messages: Array<{ text: string }> };
      assert.deepEqual(chat.messages.map((m) => m.text), [person.chat, person.doctorChat]);

      await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await t.settle();
      const blobs = join(t.dataDir, 'blobs');
      const blobFiles = existsSync(blobs) ? readdirSync(blobs, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => readFileSync(join(d.parentPath, d.name))) : [];
      const places: Record<string, Buffer> = {
        'the event store file': bytesOf(t.dataDir, ['events.db']),
        'the live read store file': bytesOf(t.dataDir, ['read-models.db']),
        'the blob files': Buffer.concat(blobFiles),
        'the bus messages': Buffer.from(onTheBus.join('\n')),
      };
      const found = values.flatMap((value) => Object.entries(places).filter(([, bytes]) => bytes.indexOf(value) !== -1).map(([place]) => `"${value}" in ${place}`));
      assert.deepEqual(found, [], 'no value of the erased person is left');

      const rebuilt = new MemoryReadStore();
      await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
      assert.equal(await readModelsChecksum(rebuilt, allProjections), await readModelsChecksum(t.app.readStore, allProjections), 'a rebuild from position 0 equals the live read models');
    } finally {
      await t.close();
    }
  });
});
