import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { allProjections, readModelsChecksum } from '@telemed/query';
import { indiaDate, startTestApp } from '../support/test-app';
import { fileBytes, replayedTwice, traces, until } from '../support/file-traces';

/**
 * The bytes test (issue 12): after an erasure and a replay from position 0, none of the erased person's values is
 * in the event store file, the SQLite read store file or the bus messages; a rebuild's checksum equals the live one
 * and that of a second rebuild.
 */
describe('erasure leaves no bytes of the person', () => {
  it('not in the event store, the live read store, the read store rebuilt from the log, or on the bus', async () => {
    const t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    const onTheBus: string[] = [];
    let kept = false;
    try {
      await t.app.bus.subscribe('telemed.events.>', async (message) => void onTheBus.push(JSON.stringify(message.payload)));
      const doctor = await t.createUser('doctor', { name: 'Dr. Farhan Qureshi' });
      const slots = await t.openSlots(doctor, ['15:00', '15:30'].map((time) => ({ date: indiaDate(5), time })));
      const person = { name: 'Anaya Bhattacharya', phone: '+91 99887 66554', notes: 'Palpitations since the new medicine', reason: 'Cannot travel on the day' };
      const patient = await t.createUser('patient', { name: person.name, phone_number: person.phone });
      const email = (await t.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.email as string;

      const first = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[0], notes: person.notes }).expect(201);
      await t.http.post(`/api/v1/appointments/${first.body.appointment_id}/approve`).set(doctor.auth).expect(200);
      await t.http.post(`/api/v1/appointments/${first.body.appointment_id}/cancel`).set(patient.auth).send({ reason: person.reason }).expect(200);
      const second = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[1], notes: person.notes }).expect(201);
      await t.http.post(`/api/v1/appointments/${second.body.appointment_id}/reject`).set(doctor.auth).send({ reason: `${person.reason} (doctor)` }).expect(200);
      await t.settle();
      // The bus never carried them, even before the erasure: the relay publishes ciphertext.
      const values = [person.name, person.phone, email, person.notes, person.reason];
      await until(() => onTheBus.some((m) => m.includes('AppointmentRejected')));
      assert.deepEqual(traces(values, { bus: Buffer.from(onTheBus.join('\n')) }), []);
      assert.ok(onTheBus.some((m) => m.includes('"notes":"enc1.')), 'the request went on the bus, its notes as ciphertext');

      const erased = await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await t.settle();
      await until(() => onTheBus.some((m) => m.includes('PersonalDataErased')));
      const live = await readModelsChecksum(t.app.readStore, allProjections);
      assert.ok(erased.body.kept.length > 0);
      // Live, before any replay: the blanked documents left no freed copy in the read store's file or its log.
      assert.deepEqual(traces(values, { 'the live read store file': fileBytes(t.dataDir, 'read-models.db') }), []);
      await t.app.stop();
      kept = true;

      const replays = await replayedTwice(t.dataDir);
      assert.ok(replays[0]!.events > 10);
      assert.equal(replays[0]!.checksum, replays[1]!.checksum, 'a rebuild done twice gives the same read models');
      assert.equal(replays[0]!.checksum, live, 'a rebuild after the erasure equals the live read models');

      const found = traces(values, {
        'the event store file': fileBytes(t.dataDir, 'events.db'),
        'the read store file': fileBytes(t.dataDir, 'read-models.db'),
        'the bus messages': Buffer.from(onTheBus.join('\n')),
      });
      assert.deepEqual(found, [], 'no value of the erased person is left');
      // The doctor was not erased: the check would see a name that is there.
      assert.notEqual(fileBytes(t.dataDir, 'read-models.db').indexOf('Farhan Qureshi'), -1);
    } finally {
      if (!kept) await t.app.stop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
