import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { findUserIdByEmail } from '@telemed/command';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';

/**
 * The console's member lists as an institution admin filters them (issue 15), through ra-data-simple-rest itself: the
 * `is_active` filter means what the records' `is_active` shows (false for a deactivated doctor and for a removed
 * member), and the totals follow it.
 */
describe('admin console: staff and doctors filtered by is_active', () => {
  let t: TestApp;
  let base: string;
  let lata: DataProvider;
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
    const operator = providerFor(await t.createUser('admin'));
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
});
