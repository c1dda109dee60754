import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCTOR_ERASURE_LEGAL_HOLD, streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext } from '@telemed/platform';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * A doctor's erasure (issue 12) and their registration with the medical council: the number identifies the person
 * (the council's public register names them), so once they are erased it is neither in the doctors' list nor in the
 * read store, and in the log only as ciphertext under their key. What a law keeps (the number printed on the
 * prescriptions they issued) is listed in the answer.
 */
describe("erasure of a doctor: their registration number goes with them", () => {
  let t: TestApp;
  let spec: ApiSpec;
  const registration = 'KMC-REG-570913';

  before(async () => {
    t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('is encrypted in the log, leaves the doctors list and the read store, and the answer says what prescriptions keep', async () => {
    const viewer = await spec.given.patient();
    const doctor = await spec.given.doctor({ name: 'Dr. Erasable Varghese', doctor: { registration_number: registration, medical_council: 'Kerala Medical Council' } });
    const listed = async () => ((await spec.read((http) => http.get('/api/v1/doctors/?limit=100').set(viewer.auth).expect(200))).body as Array<{ doctor_id: string; registration_number: string | null }>).find((d) => d.doctor_id === doctor.user_id);
    assert.equal((await listed())?.registration_number, registration, 'listed with their registration before the erasure');
    const registered = (await ciphertextLog(t.app.eventStore).readAll({ fromPosition: 0, limit: 10_000 })).find((e) => e.type === 'DoctorRegistered' && (e.data as { doctor_id: string }).doctor_id === doctor.user_id)!;
    assert.ok(isCiphertext((registered.data as { registration_number: string }).registration_number), 'ciphertext in the log, under their key');

    const answer = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(doctor.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(doctor.user_id), type: 'PersonalDataErased', data: { requested_by: 'self' } }])
      .expectReactions([]);
    assert.deepEqual(answer.body.kept, DOCTOR_ERASURE_LEGAL_HOLD);
    assert.ok(DOCTOR_ERASURE_LEGAL_HOLD.some((k) => /registration number/.test(k.what) && /prescriptions/i.test(k.what)), 'the answer lists the registration kept on prescriptions');
    assert.equal(await listed(), undefined, 'an erased doctor is not in the doctors list');
    const doc = await t.app.readStore.collection<{ _id: string; registration_number: string | null }>('doctors').get(doctor.user_id);
    assert.notEqual(doc?.registration_number, registration, 'the doctors read model no longer holds it');
    const bytes = Buffer.concat(['read-models.db', 'read-models.db-wal', 'events.db', 'events.db-wal'].map((f) => join(t.dataDir, f)).filter(existsSync).map((f) => readFileSync(f)));
    assert.equal(bytes.indexOf(registration), -1, 'neither the read store nor the event store file holds it');
  });
});
