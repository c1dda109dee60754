import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const BOUNDARY = 'part-headers-boundary';

/** A report upload written by hand, so that its file's part header can hold what no browser would send. */
function reportForm(fileDisposition: string): Buffer {
  const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return Buffer.concat([
    Buffer.from(`${field('report_type', 'lab')}${field('report_date', indiaDate(0))}--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; ${fileDisposition}\r\nContent-Type: application/pdf\r\n\r\n`, 'latin1'),
    PDF,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe("an upload's part headers", () => {
  let t: TestApp;
  let patient: TestUser;
  before(async () => {
    t = await startTestApp();
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  const upload = (disposition: string) =>
    t.http.post('/api/v1/records/reports').set(patient.auth).set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`).send(reportForm(disposition));

  it('a NUL in a file name is the client\'s input: 422 saying what to change, and nothing stored', async () => {
    const res = await upload('filename="scan\u0000.pdf"').expect(422);
    assert.equal(res.body.detail, API_TEXTS.malformedPartHeader);
    assert.equal(res.body.code, 'malformed_part_header');
    assert.deepEqual((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body.reports, []);
  });

  it('an encoded NUL (filename*) is dropped from the name as listed', async () => {
    const res = await upload("filename*=UTF-8''scan%00.pdf").expect(201);
    assert.equal(res.body.files[0].file_name, 'scan.pdf');
  });
});
