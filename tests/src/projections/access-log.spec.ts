import { describe, it } from 'node:test';
import type { EventData } from '@telemed/contracts';
import { event, freshId, projectionSpec, type Log, type SpecEvent } from '../support/projection-spec';
import { erased, people } from '../support/spec-events';

const accessLog = projectionSpec('access_log');
const READ_AT = '2026-03-04T11:00:00.000Z';

const accessed = (d: Partial<EventData<'PersonalDataAccessed'>> & Pick<EventData<'PersonalDataAccessed'>, 'accessor_id' | 'subjects'>) =>
  event(
    'PersonalDataAccessed',
    {
      access_id: freshId('access'),
      accessor_role: 'doctor',
      institution_id: null,
      institution_role: null,
      purpose: 'care',
      resource: 'appointment_history',
      route: 'GET /api/v1/appointments/:id/history',
      ...d,
    },
    { at: READ_AT, actor: { user_id: d.accessor_id, role: 'doctor' } },
  );

/** The entry of one subject of an access. */
const entry = (log: Log, e: SpecEvent<'PersonalDataAccessed'>, subject: number) => {
  const d = e.data;
  const { user_id, items } = d.subjects[subject]!;
  return {
    _id: `${d.access_id}:${user_id}`,
    subject_id: user_id,
    position: log.positionOf(e),
    access_id: d.access_id,
    accessor_id: d.accessor_id,
    accessor_role: d.accessor_role,
    institution_id: d.institution_id,
    institution_role: d.institution_role,
    purpose: d.purpose,
    resource: d.resource,
    route: d.route,
    items,
    occurred_at: READ_AT,
  };
};

describe('access_log projection (who saw a person\'s data)', () => {
  it('a read of one patient is an entry in their log: who, through which institution, why, what, when', () => {
    const { patient, doctor } = people();
    const institution = freshId('institution');
    const e = accessed({ accessor_id: doctor, subjects: [{ user_id: patient, items: ['appointment-1'] }], institution_id: institution, institution_role: 'DOCTOR', purpose: 'institution_audit' });
    return accessLog
      .given()
      .when(e)
      .then((log) => ({ access_log: [entry(log, e, 0)] }));
  });

  it('a read of several people is an entry for each, with what it showed of each', () => {
    const { patient, doctor } = people();
    const { patient: other } = people();
    const e = accessed({ accessor_id: doctor, resource: 'doctor_appointments', subjects: [{ user_id: patient, items: ['a1', 'a2'] }, { user_id: other, items: ['contact_details'] }] });
    return accessLog
      .given()
      .when(e)
      .then((log) => ({ access_log: [entry(log, e, 0), entry(log, e, 1)] }));
  });

  it("later reads add entries and leave the earlier ones; the person's erasure keeps the log (ids only)", () => {
    const { patient, doctor } = people();
    const first = accessed({ accessor_id: doctor, subjects: [{ user_id: patient, items: ['a1'] }] });
    const second = accessed({ accessor_id: doctor, subjects: [{ user_id: patient, items: ['a2'] }] });
    return accessLog
      .given(first)
      .when(second, erased(patient))
      .then((log) => ({ access_log: [entry(log, first, 0), entry(log, second, 0)] }));
  });

  it('consent events leave the log as it was', () => {
    const { patient, doctor } = people();
    return accessLog
      .given(accessed({ accessor_id: doctor, subjects: [{ user_id: patient, items: ['a1'] }] }))
      .when(event('ConsentWithdrawn', { user_id: patient, notice_version: '2026-01', text_hash: 'e'.repeat(64) }), event('ClinicalRecordsDestroyed', { user_id: patient }))
      .thenUnchanged();
  });
});
