import { describe, it } from 'node:test';
import { event, freshId, projectionSpec } from '../support/projection-spec';
import { erased } from '../support/spec-events';

const messages = projectionSpec('messages');
const QUEUED_AT = '2026-03-01T08:00:00.000Z';
const DUE = '2026-03-01T09:00:00.000Z';
const LEASE = '2026-03-01T09:01:00.000Z';
const SENT_AT = '2026-03-01T09:00:01.000Z';
const RETRY = '2026-03-01T09:00:31.000Z';

const queued = (recipient: string, kind: 'appointment_reminder' | 'sign_in_code' = 'appointment_reminder') => {
  const message_id = freshId('message');
  return event(
    'MessageQueued',
    { message_id, idempotency_key: `a1:${kind}:60`, kind, recipient_id: recipient, appointment_id: kind === 'sign_in_code' ? null : 'a1', offset_minutes: 60, start: '2026-03-01T10:00:00.000Z', due_at: DUE, doctor_name: 'Dr. Rao' },
    { at: QUEUED_AT },
  );
};
const started = (message_id: string, attempt = 1) => event('MessageAttemptStarted', { message_id, channel: 'sms', attempt, lease_until: LEASE }, { at: DUE });
const logEntry = (e: ReturnType<typeof queued>, fields: Record<string, unknown> = {}) => ({
  _id: e.data.message_id,
  kind: e.data.kind,
  recipient_id: e.data.recipient_id,
  to_masked: null,
  channel: null,
  status: 'queued',
  attempts: 0,
  last_error: null,
  appointment_id: e.data.appointment_id,
  due_at: DUE,
  updated_at: QUEUED_AT,
  ...fields,
});

describe('messages projection (the message log and the index of what is due)', () => {
  it('a queued message is in the log and waits in the index by its due time; a sign-in code never waits there', () => {
    const reminder = queued(freshId('patient'));
    const code = queued(freshId('patient'), 'sign_in_code');
    return messages.given().when(reminder, code).then({
      messages: [logEntry(reminder), logEntry(code)],
      pending_messages: [{ _id: reminder.data.message_id, due_at: DUE }],
    });
  });

  it('an attempt holds it until its lease ends; sent, it leaves the index with its masked address and no text', () => {
    const q = queued(freshId('patient'));
    const id = q.data.message_id;
    return messages
      .given(q)
      .when(started(id), event('MessageSent', { message_id: id, channel: 'sms', attempt: 1, provider_message_id: 'SM1', recipient_id: q.data.recipient_id, to_masked: '+•••••••••210' }, { at: SENT_AT }))
      .then({ messages: [logEntry(q, { status: 'sent', channel: 'sms', attempts: 1, to_masked: '+•••••••••210', updated_at: SENT_AT })], pending_messages: [] });
  });

  it('a failure with a retry moves it in the index; one without leaves it failed for good; a resend queues it again', () => {
    const q = queued(freshId('patient'));
    const id = q.data.message_id;
    const retried = event('MessageFailed', { message_id: id, channel: 'sms', attempt: 1, error: 'busy', retry_at: RETRY, channel_exhausted: false }, { at: SENT_AT });
    const final = event('MessageFailed', { message_id: id, channel: 'sms', attempt: 2, error: 'unknown number', retry_at: null, channel_exhausted: true }, { at: RETRY });
    const resend = event('MessageResendRequested', { message_id: id, due_at: '2026-03-02T08:00:00.000Z' }, { at: '2026-03-02T08:00:00.000Z' });
    return messages
      .given(q)
      .when(started(id), retried, started(id, 2), final, resend)
      .then({
        messages: [logEntry(q, { status: 'queued', channel: 'sms', attempts: 2, due_at: '2026-03-02T08:00:00.000Z', updated_at: '2026-03-02T08:00:00.000Z' })],
        pending_messages: [{ _id: id, due_at: '2026-03-02T08:00:00.000Z' }],
      });
  });

  it('a deferral moves its due time; a cancellation takes it out of the index with its reason', () => {
    const deferred = queued(freshId('patient'));
    const cancelled = queued(freshId('patient'));
    return messages
      .given(deferred, cancelled)
      .when(
        event('MessageDeferred', { message_id: deferred.data.message_id, due_at: '2026-03-02T03:30:00.000Z', reason: 'quiet_hours', start: null }, { at: DUE }),
        event('MessageCancelled', { message_id: cancelled.data.message_id, reason: 'appointment_closed' }, { at: DUE }),
      )
      .then({
        messages: [logEntry(deferred, { due_at: '2026-03-02T03:30:00.000Z', updated_at: DUE }), logEntry(cancelled, { status: 'cancelled', last_error: 'appointment_closed', updated_at: DUE })],
        pending_messages: [{ _id: deferred.data.message_id, due_at: '2026-03-02T03:30:00.000Z' }],
      });
  });

  it("an erasure blanks where the person's messages went; the facts of the log stay", () => {
    const patient = freshId('patient');
    const q = queued(patient);
    const id = q.data.message_id;
    return messages
      .given(q, started(id), event('MessageSent', { message_id: id, channel: 'sms', attempt: 1, provider_message_id: 'SM1', recipient_id: patient, to_masked: '+•••••••••210' }, { at: SENT_AT }))
      .when(erased(patient))
      .then({ messages: [logEntry(q, { status: 'sent', channel: 'sms', attempts: 1, to_masked: '[erased]', updated_at: SENT_AT })], pending_messages: [] });
  });
});
