import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { findUserIdByEmail } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * An institution's stream gains an event with every membership change it ever had. Its admin's writes (adding,
 * inviting, removing staff, roles, deactivations, its details) and the policy that guards them read the events since
 * the last look and the one event that recorded each person they need, not every change since the institution began.
 */
describe("an institution admin's writes do not read the institution's whole history", () => {
  let t: TestApp;
  let operator: TestUser;
  let lata: { Authorization: string };
  let institutionId: string;

  async function authOf(email: string, account_type: 'patient' | 'doctor') {
    const user_id = await findUserIdByEmail(t.app.eventStore, email);
    assert.ok(user_id, `an account exists for ${email}`);
    return { user_id, auth: { Authorization: `Bearer ${await t.app.tokens.issue({ user_id, account_type })}` } };
  }
  const doctor = (name: string, email: string) => ({ name, email, phone_number: '+91 90000 55555', specialty: 'Cardiology', qualification: 'MD', consultation_fee: 500 });

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin');
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({
        name: 'Sunrise Clinic',
        slug: 'sunrise-cost',
        address: '12 MG Road, Bengaluru',
        phone: '+91 80 4000 1234',
        email: 'contact@sunrise.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Sita Nair', email: 'sita@sunrise.in', phone: '+91 90000 33333', account_type: 'STAFF', department: 'Front desk' },
        ],
      })
      .expect(201);
    institutionId = created.body.id as string;
    lata = (await authOf('lata@sunrise.in', 'patient')).auth;
    // Years of membership changes: doctors who joined and left.
    for (let i = 0; i < 30; i += 1) {
      const added = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(lata).send(doctor(`Dr Past ${i}`, `past-${i}@sunrise.in`)).expect(201);
      await t.http.delete(`/api/v1/institutions/${institutionId}/doctors/${added.body.doctor_id}`).set(lata).expect(200);
    }
    // A deactivation before: the closer of a deactivated doctor's appointments (a process manager) folds the stream
    // once when it starts meeting this institution, and only its tail afterwards; that first look is not a write's.
    const warm = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(lata).send(doctor('Dr Warm', 'warm@sunrise.in')).expect(201);
    await t.http.put(`/api/v1/admin/doctors/${institutionId}~${warm.body.doctor_id}`).set(lata).send({ is_active: false }).expect(200);
    await t.settle();
  });
  after(() => t.close());

  it("reads the events since the last look and one event per person it needs, and answers each person's recorded fields", async () => {
    const stream = streams.institution(institutionId);
    assert.ok((await t.app.eventStore.readStream(stream)).length > 60, 'the institution has a long history');
    const reads = eventsReadFrom(t.app.eventStore, stream);
    try {
      const rohan = await t.http
        .post('/api/v1/admin/doctors')
        .set(lata)
        .send({ institution_id: institutionId, ...doctor('Rohan Mehta', 'rohan@sunrise.in') })
        .expect(201);
      assert.equal(rohan.body.status, 'success', 'a new account joins');

      const sita = await authOf('sita@sunrise.in', 'patient');
      const role = await t.http.put(`/api/v1/admin/staff/${institutionId}~${sita.user_id}`).set(lata).send({ role: 'USER' }).expect(200);
      assert.deepEqual([role.body.name, role.body.email, role.body.department, role.body.role], ['Sita Nair', 'sita@sunrise.in', 'Front desk', 'USER'], 'the member as recorded, in the new role');

      const off = await t.http.put(`/api/v1/admin/doctors/${institutionId}~${rohan.body.doctor_id}`).set(lata).send({ is_active: false }).expect(200);
      assert.deepEqual([off.body.name, off.body.is_active], ['Rohan Mehta', false], 'the doctor, deactivated');

      // A past doctor's account exists: invited again, under the name the admin types now, and accepts.
      const invited = await t.http.post(`/api/v1/institutions/${institutionId}/doctors`).set(lata).send(doctor('Dr Zero Returns', 'past-0@sunrise.in')).expect(201);
      assert.equal(invited.body.status, 'invited', 'an existing account is invited');
      const zero = await authOf('past-0@sunrise.in', 'doctor');
      await t.http.post(`/api/v1/institutions/${institutionId}/invitations/${invited.body.invitation_id}/accept`).set(zero.auth).expect(200);
      const removed = await t.http.delete(`/api/v1/admin/staff/${institutionId}~${zero.user_id}`).set(lata).expect(200);
      assert.deepEqual([removed.body.name, removed.body.phone, removed.body.specialization], ['Dr Zero Returns', '+91 90000 55555', 'Cardiology'], "the accepted member has the invitation's fields");

      const renamed = await t.http.put(`/api/v1/admin/institutions/${institutionId}`).set(lata).send({ name: 'Sunrise Clinics' }).expect(200);
      assert.deepEqual([renamed.body.name, renamed.body.slug, renamed.body.is_active], ['Sunrise Clinics', 'sunrise-cost', true], 'the institution as edited, with what never changes');
    } finally {
      reads.stop();
    }
    assert.ok(reads.counts.length > 0, 'the writes read the institution');
    assert.ok(
      // A look after a few writes (the deactivation closer and the other process managers run behind them, as they are
      // scheduled) reads those few, up to about the eight writes above; a whole read is over 60.
      reads.counts.every((n) => n <= 10),
      `each read of the institution (over 60 events) returns the events since the last look or one person's event (read: ${reads.counts.join(', ')})`,
    );
  });
});
