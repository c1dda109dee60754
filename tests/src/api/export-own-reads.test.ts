import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

type ReadByYou = { whose: string; why: string; what: { resource: string; items: string[] }; when: string; institution: unknown };
type Deactivation = { deactivated_at: string; reason: string; reactivated_at: string | null };

/**
 * The privacy audit: the export left out two things the product holds about the person. Their own side of the access
 * audit (as a doctor or an operator, whose data they read and when), and the deactivations of a reactivated account
 * with the reason recorded. Each person's export has their own, and none of anyone else's.
 */
describe('export: your own reads of others, and your deactivations', () => {
  let t: TestApp;
  let operator: TestUser;
  let doctor: TestUser;
  let patient: TestUser;
  let appointmentId: string;

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin', { name: 'Operator Omkar' });
    doctor = await t.createUser('doctor', { name: 'Dr Devika Reader' });
    patient = await t.createUser('patient', { name: 'Parvati Patient' });
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '10:00' }]);
    appointmentId = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Recurring migraine' }).expect(201)).body.appointment_id as string;
    await t.settle();
  });
  after(() => t.close());

  const exportOf = async (user: TestUser) => (await t.http.get('/api/v1/users/me/export').set(user.auth).expect(200)).body;

  it("lists the reads a doctor and an operator made of a patient's data, the patient by a label only", async () => {
    await t.http.get(`/api/v1/appointments/${appointmentId}/history`).set(doctor.auth).expect(200);
    await t.http.get(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).expect(200);
    await t.settle();

    const byDoctor = (await exportOf(doctor)).reads_by_you as ReadByYou[];
    const history = byDoctor.find((r) => r.what.items.includes(appointmentId));
    assert.ok(history, `the doctor's read of the appointment's history is in their export: ${JSON.stringify(byDoctor)}`);
    assert.equal(history.whose, 'person-1', 'the person read, by a label of the export');
    assert.ok(!Number.isNaN(Date.parse(history.when)));
    assert.ok(byDoctor.every((r) => r.whose === 'person-1'), 'only reads the doctor made, all of one person');

    const byOperator = (await exportOf(operator)).reads_by_you as ReadByYou[];
    assert.ok(
      byOperator.some((r) => /^person-\d+$/.test(r.whose) && r.why === 'platform_administration' && r.what.items.includes('contact_details')),
      `the operator's read of the account is in their export: ${JSON.stringify(byOperator)}`,
    );
    for (const reads of [byDoctor, byOperator]) {
      const text = JSON.stringify(reads);
      assert.ok(!text.includes('Parvati') && !text.includes('migraine') && !text.includes(patient.user_id), "none of the patient's values, nor their id");
    }
    assert.deepEqual((await exportOf(patient)).reads_by_you, [], 'the patient read no one');
  });

  it("gives a reactivated account's deactivation, with its reason and when it was reopened, to that person only", async () => {
    assert.deepEqual((await exportOf(patient)).profile.deactivations, [], 'never closed yet');
    await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
    await t.http.put(`/api/v1/admin/users/${patient.user_id}`).set(operator.auth).send({ is_active: true }).expect(200);
    await t.settle();
    // Signed in again: what was signed in before the deactivation stays ended.
    const deactivations = (await exportOf(await t.signInAgain(patient, 'patient'))).profile.deactivations as Deactivation[];
    assert.equal(deactivations.length, 1, JSON.stringify(deactivations));
    const [d] = deactivations;
    assert.equal(d!.reason, 'deactivated by an administrator');
    assert.ok(d!.reactivated_at && Date.parse(d!.reactivated_at) >= Date.parse(d!.deactivated_at), 'and when it was reopened');
    assert.deepEqual((await exportOf(doctor)).profile.deactivations, [], "not in another person's export");
  });
});
