import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, RECORD_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/** Clinical records (issue 14): the report date's bounds, the storage quota, and the reads that check access first. */
describe('clinical records: report date, storage quota, access first', () => {
  let t: TestApp;
  let now = new Date();
  let patient: TestUser;
  let hour = 7;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    patient = await t.createUser('patient', { name: 'Arjun Das' });
  });
  after(() => t.close());

  /** A confirmed appointment of `by` with `who` two days ahead, its consultation joined (the clock moves to its start). */
  async function appointment(who: TestUser, by: TestUser): Promise<string> {
    now = new Date();
    hour += 1;
    const date = indiaDate(2);
    const time = `${String(hour).padStart(2, '0')}:00`;
    const [slot] = await t.openSlots(who, [{ date, time }]);
    const id = (await t.http.post('/api/v1/appointments').set(by.auth).send({ slot_id: slot, notes: 'Cough' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${id}/approve`).set(who.auth).expect(200);
    now = DateTime.fromISO(`${date}T${time}`, { zone: DEFAULT_TIMEZONE }).minus({ minutes: 2 }).toJSDate();
    await t.http.post(`/api/v1/consultations/${id}/join`).set(who.auth).expect(200);
    await t.settle();
    return id;
  }
  void appointment;

  const report = (who: TestUser, date: string | null) => {
    const r = t.http.post('/api/v1/records/reports').set(who.auth).field('report_type', 'lab');
    return (date === null ? r : r.field('report_date', date)).attach('files', PDF, 'cbc.pdf');
  };
  const dateIssue = (res: supertest.Response) => {
    assert.equal(res.status, 422, JSON.stringify(res.body));
    const issues = res.body.detail as Array<{ loc: string[]; msg: string }>;
    assert.ok(Array.isArray(issues), 'validation detail is a list of {loc, msg, type}');
    const issue = issues.find((d) => d.loc.join('.') === 'body.report_date');
    assert.ok(issue, JSON.stringify(res.body));
    return issue.msg;
  };

  it('report date: not before 1900-01-01 nor after today (India), a real date, required; each refusal a 422 naming report_date, nothing kept', async () => {
    now = new Date();
    assert.equal(dateIssue(await report(patient, '1899-12-31')), RECORD_TEXTS.reportDateTooEarly);
    assert.equal(dateIssue(await report(patient, '0202-03-04')), RECORD_TEXTS.reportDateTooEarly, 'a slip of the year (0202 for 2022)');
    assert.equal(dateIssue(await report(patient, indiaDate(1))), RECORD_TEXTS.reportDateFuture);
    assert.equal(dateIssue(await report(patient, '9999-12-31')), RECORD_TEXTS.reportDateFuture);
    assert.equal(dateIssue(await report(patient, '2023-02-29')), RECORD_TEXTS.reportDateInvalid);
    assert.equal(dateIssue(await report(patient, 'yesterday')), RECORD_TEXTS.reportDateInvalid);
    assert.equal(dateIssue(await report(patient, null)), RECORD_TEXTS.reportDateRequired);
    await t.settle();
    assert.equal((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body.reports.length, 0, 'nothing refused was kept');
    await report(patient, '1900-01-01').expect(201);
    await report(patient, indiaDate(0)).expect(201);
  });
});
