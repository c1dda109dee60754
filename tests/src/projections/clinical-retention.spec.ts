import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { erased, fileStored } from '../support/spec-events';

const retention = projectionSpec('clinical_retention');
const UNTIL = '2029-03-04T00:00:00.000Z';

describe('clinical_retention projection (erased people whose clinical records are held)', () => {
  it('an erasure that keeps clinical records under the legal hold is a retention until its end; one without records held is none', () => {
    const held = freshId('patient');
    return retention
      .given()
      .when(erased(held, { clinical_records_retained_until: UNTIL, kept: [{ what: 'clinical records', why: 'Telemedicine Practice Guidelines' }] }), erased(freshId('patient')))
      .then({ clinical_retention: [{ _id: held, user_id: held, destroy_after: UNTIL }] });
  });

  it('the destruction of the records ends the retention', () => {
    const held = freshId('patient');
    const other = freshId('patient');
    return retention
      .given(erased(held, { clinical_records_retained_until: UNTIL }), erased(other, { clinical_records_retained_until: UNTIL }))
      .when(event('ClinicalRecordsDestroyed', { user_id: held }))
      .then({ clinical_retention: [{ _id: other, user_id: other, destroy_after: UNTIL }] });
  });

  it('an erasure delivered again does not bring back a retention that ended', () => {
    const held = freshId('patient');
    return retention
      .given(erased(held, { clinical_records_retained_until: UNTIL }))
      .when(event('ClinicalRecordsDestroyed', { user_id: held }))
      .deliveredAgain('given')
      .then({ clinical_retention: [] });
  });

  it('records and consent events leave the retentions as they were', () => {
    const held = freshId('patient');
    return retention
      .given(erased(held, { clinical_records_retained_until: UNTIL }))
      .when(fileStored({ file_id: freshId('file'), patient_id: held, record_id: freshId('report') }), event('ConsentWithdrawn', { user_id: held, notice_version: '2026-01', text_hash: 'e'.repeat(64) }))
      .thenUnchanged();
  });
});
