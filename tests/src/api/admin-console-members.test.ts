import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { findUserIdByEmail } from '@telemed/command';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';

/**
 * The console's lists as an institution admin filters them (issue 15), through ra-data-simple-rest itself: the
 * `is_active` filter means what the records' `is_active` shows (false for a deactivated doctor and for a removed
 * member), and the totals follow it.
 */
describe('admin console lists as an institution admin filters them', () => {
  let t: TestApp;
  let base: string;
  let lata: DataProvider;
  let operator: DataProvider;
  let institutionId: string;
  let lastPosition = 0;

  function providerFor(user: { token: string }): DataProvider {
    const httpClient = async (url: string, options: fetchUtils.Options = {}) => {
      const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
      headers.set('Authorization', `Bearer ${user.token}`);
      if (lastPosition > 0 && (!options.method || options.method === 'GET')) headers.set('X-Min-Position', String(lastPosition));
      const result = await fetchUtils.fetchJson(url, { ...options, headers });
      lastPosition = Math.max(lastPosition, Number(result.headers.get('X-Event-Position')) || 0);
      return result;
    };
    return simpleRestProvider(`${base}/api/v1/admin`, httpClient);
  }

  async function accountOf(email: string, accountType: 'patient' | 'doctor'): Promise<TestUser> {
    const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
    const token = await t.app.tokens.issue({ user_id, account_type: accountType });
    return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
  }

  before(async () => {
    const port = await freePort();
    t = await startTestApp();
    await t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    operator = providerFor(await t.createUser('admin'));
    const created = await operator.create('institutions', {
      data: {
        name: 'Sunrise Clinic',
        address: '12 MG Road',
        phone: '+91 80 4000 1234',
        email: 'contact@sunrise.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: 'ananya@sunrise.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
          { name: 'Rohan Mehta', email: 'rohan@sunrise.in', phone: '+91 90000 33333', account_type: 'DOCTOR' },
          { name: 'Vikram Singh', email: 'vikram@sunrise.in', phone: '+91 90000 44444', account_type: 'DOCTOR' },
        ],
      },
    });
    institutionId = String(created.data.id);
    lata = providerFor(await accountOf('lata@sunrise.in', 'patient'));
    const id = async (email: string) => `${institutionId}~${(await accountOf(email, 'doctor')).user_id}`;
    // Ananya deactivated, Vikram removed, Rohan active.
    await lata.update('doctors', { id: await id('ananya@sunrise.in'), data: { is_active: false }, previousData: { id: await id('ananya@sunrise.in') } });
    await lata.delete('doctors', { id: await id('vikram@sunrise.in') });
  });
  after(() => t.close());

  const list = (resource: 'doctors' | 'staff', filter: Record<string, unknown>) =>
    lata.getList(resource, { pagination: { page: 1, perPage: 25 }, sort: { field: 'name', order: 'ASC' }, filter: { institution_id: institutionId, ...filter } });
  const rows = (result: { data: Array<{ name?: unknown; is_active?: unknown }> }) => result.data.map((d) => [d.name, d.is_active]);

  it('without the filter: the current members, a deactivated doctor shown inactive', async () => {
    const all = await list('doctors', {});
    assert.deepEqual(rows(all), [['Ananya Sharma', false], ['Rohan Mehta', true]]);
    assert.equal(all.total, 2);
  });

  it('is_active true: only those shown active; false: the deactivated doctor and the removed one', async () => {
    const active = await list('doctors', { is_active: true });
    assert.deepEqual(rows(active), [['Rohan Mehta', true]]);
    assert.equal(active.total, 1);
    const inactive = await list('doctors', { is_active: false });
    assert.deepEqual(rows(inactive), [['Ananya Sharma', false], ['Vikram Singh', false]]);
    assert.equal(inactive.total, 2);
  });

  it('the staff list filters the same way', async () => {
    assert.deepEqual(rows(await list('staff', { is_active: true })), [['Lata Rao', true], ['Rohan Mehta', true]]);
    assert.deepEqual(rows(await list('staff', { is_active: false })), [['Ananya Sharma', false], ['Vikram Singh', false]]);
  });

  it("appointments: a doctor of two of the admin's institutions has each appointment listed and counted once", async () => {
    // Lata and Rohan join a second institution too (existing accounts: invited, then they accept).
    const moon = await operator.create('institutions', {
      data: {
        name: 'Moonlight Care',
        address: '1 Park St',
        phone: '+91 33 4000 1234',
        email: 'care@moonlight.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@sunrise.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Rohan Mehta', email: 'rohan@sunrise.in', phone: '+91 90000 33333', account_type: 'DOCTOR' },
        ],
      },
    });
    for (const [email, type] of [['lata@sunrise.in', 'patient'], ['rohan@sunrise.in', 'doctor']] as const) {
      const who = await accountOf(email, type);
      await t.settle();
      const pending = (await t.http.get('/api/v1/institutions/invitations').set(who.auth).expect(200)).body as Array<{ id: string }>;
      assert.equal(pending.length, 1);
      await t.http.post(`/api/v1/institutions/${moon.data.id}/invitations/${pending[0]!.id}/accept`).set(who.auth).expect(200);
    }
    const rohan = await accountOf('rohan@sunrise.in', 'doctor');
    const [slot] = await t.openSlots(rohan, [{ date: indiaDate(3), time: '11:00' }]);
    const patient = await t.createUser('patient', { name: 'Meera Iyer' });
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Knee pain' }).expect(201);
    await t.settle();

    const listed = await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'DESC' }, filter: {} });
    assert.deepEqual(listed.data.map((a) => a.patient_name), ['Meera Iyer']);
    assert.equal(listed.total, 1, 'the total counts the appointment once, not once per institution');
    const byDoctor = await lata.getList('appointments', { pagination: { page: 1, perPage: 25 }, sort: { field: 'start', order: 'DESC' }, filter: { doctor_id: rohan.user_id } });
    assert.equal(byDoctor.total, 1);
  });
});
