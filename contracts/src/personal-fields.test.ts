import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { eventDataSchemas, type EventType } from './events';
import { PERSONAL_FIELDS, personalFieldRules, personalFieldTargets } from './personal-fields';

describe('personal-field registry', () => {
  it('names only fields the events have, each a string (so a ciphertext fits the schema), and subjects that are ids', () => {
    for (const [type, rules] of Object.entries(PERSONAL_FIELDS) as Array<[EventType, ReturnType<typeof personalFieldRules>]>) {
      const shape = (eventDataSchemas[type] as z.ZodObject).shape as Record<string, z.ZodType>;
      for (const rule of rules) {
        for (const field of rule.fields) {
          assert.ok(shape[field], `${type}.${field} exists`);
          assert.ok(shape[field].safeParse('enc1.dk-x.AAAAAAAAAAAAAAAA..AAAAAAAAAAAAAAAAAAAAAA').success, `${type}.${field} takes a string`);
        }
        if ('field' in rule.subject) assert.ok(shape[rule.subject.field], `${type}.${rule.subject.field} exists`);
      }
    }
  });

  it('covers the personal and health fields the issue names', () => {
    const fields = (type: EventType) => personalFieldRules(type).flatMap((r) => r.fields);
    assert.deepEqual(fields('UserRegistered'), ['name', 'email', 'phone_number']);
    assert.deepEqual(fields('AppointmentRequested'), ['notes']);
    assert.deepEqual(fields('AppointmentRejected'), ['reason']);
    assert.deepEqual(fields('RecordFileStored'), ['file_name', 'content_type', 'size', 'sha256'], "a stored file's name, type, size and digest");
    for (const field of ['consultation_mode', 'consultation_kind']) assert.ok((fields('PrescriptionIssued') as readonly string[]).includes(field), `a prescription's ${field} (a first visit or a follow-up)`);
    assert.deepEqual(fields('SlotOpened'), []);
  });

  it('says whose key each present field needs', () => {
    assert.deepEqual(personalFieldTargets('UserRegistered', { user_id: 'u1', name: 'A', email: null, phone_number: 'p', account_type: 'patient' }), [
      { field: 'name', subject_id: 'u1' },
      { field: 'phone_number', subject_id: 'u1' },
    ]);
    assert.deepEqual(personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: null }), [], 'no reason, no key needed');
    assert.deepEqual(personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: 'r' }, { patient: 'p1' }), [{ field: 'reason', subject_id: 'p1' }]);
    assert.throws(() => personalFieldTargets('AppointmentRejected', { appointment_id: 'a', doctor_id: 'd', reason: 'r' }), /the stream's patient/);
  });
});
