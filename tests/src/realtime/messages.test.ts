import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryReadStore, InProcessBus, TokenService, createLogger } from '@telemed/platform';
import { messagesFor, createNotifier } from '@telemed/notifier';
import { isServerMessage, type RecordedEvent } from '@telemed/contracts';
import { createServer } from 'node:http';
import WebSocket from 'ws';

const appointment = {
  patient_id: 'p-1',
  doctor_id: 'd-1',
  patient_name: 'Neha Gupta',
  doctor_name: 'Dr. Rao',
  notes: 'Cough',
  rejection_reason: 'On leave',
  start: '2030-01-02T03:30:00Z',
  end: '2030-01-02T04:00:00Z',
};
const event = (type: string, data: Record<string, unknown>) =>
  ({ type, data: { appointment_id: 'a-1', ...data }, event_id: `e-${type}`, stream_id: 'appointment-a-1', revision: 0, position: 1, metadata: {} }) as unknown as RecordedEvent;

describe('notifier messages', () => {
  it("a request goes to the doctor with the seeds' fields, in India's time", () => {
    const [delivery] = messagesFor(event('AppointmentRequested', {}), appointment);
    assert.equal(delivery!.user_id, 'd-1');
    assert.equal(delivery!.message.type, 'appointment_request');
    const data = delivery!.message.data as Record<string, unknown>;
    assert.deepEqual([data.patient_name, data.slot_date, data.slot_time, data.notes], ['Neha Gupta', '2030-01-02', '09:00:00', 'Cough']);
    assert.ok(data.appointment_data);
  });

  it("a patient's move goes to the doctor as a request at its new time, saying where it was", () => {
    const moved = event('AppointmentRescheduled', { from_start: '2030-01-01T04:30:00.000Z', start: appointment.start, rescheduled_by: 'patient', needs_approval: true, move: 1 });
    const [delivery, ...others] = messagesFor(moved, appointment);
    assert.deepEqual([delivery!.user_id, delivery!.message.type, others.length], ['d-1', 'appointment_request', 0]);
    const data = delivery!.message.data as Record<string, unknown>;
    assert.deepEqual([data.start_at, data.moved_from], [appointment.start, { start_at: '2030-01-01T04:30:00.000Z', by: 'patient' }]);
    assert.ok(isServerMessage(delivery!.message), JSON.stringify(delivery!.message));
    assert.equal((messagesFor(event('AppointmentRequested', {}), appointment)[0]!.message.data as Record<string, unknown>).moved_from, undefined, 'a new request is no move');
  });

  it('a move that keeps it confirmed (a time the doctor offered, or moves accepted) tells the doctor it moved, as no request', () => {
    for (const by of ['doctor', 'patient'] as const) {
      const moved = event('AppointmentRescheduled', { from_start: '2030-01-01T04:30:00.000Z', start: appointment.start, rescheduled_by: by, needs_approval: false, move: 1, confirmed: true });
      const deliveries = messagesFor(moved, appointment);
      assert.deepEqual(deliveries.map((d) => [d.user_id, d.message.type, d.message.status]), [['d-1', 'appointment_status_change', 'moved']]);
      assert.deepEqual((deliveries[0]!.message.data as Record<string, unknown>).moved_from, { start_at: '2030-01-01T04:30:00.000Z', by });
      assert.ok(isServerMessage(deliveries[0]!.message), JSON.stringify(deliveries[0]!.message));
    }
  });

  it('an offer of other times and a no-show reach the patient (a no-show the system closed, the doctor too)', () => {
    assert.deepEqual(messagesFor(event('AppointmentTimesProposed', { slots: [], expires_at: appointment.start }), appointment).map((d) => [d.user_id, d.message.status]), [['p-1', 'times_proposed']]);
    const bySystem = messagesFor(event('AppointmentNoShow', { absent: 'doctor', marked_by: 'system' }), appointment);
    assert.deepEqual(bySystem.map((d) => [d.user_id, d.message.status, (d.message.data as { absent: string }).absent]), [['p-1', 'no_show', 'doctor'], ['d-1', 'no_show', 'doctor']]);
    assert.ok(bySystem.every((d) => isServerMessage(d.message)));
    assert.deepEqual(messagesFor(event('AppointmentNoShow', { absent: 'patient', marked_by: 'doctor' }), appointment).map((d) => d.user_id), ['p-1']);
  });

  it('a rejection goes to the patient with the reason; a doctor cancellation only to the patient', () => {
    // The bus carries the reason as ciphertext: the message takes it from the read model.
    const [rejected] = messagesFor(event('AppointmentRejected', { doctor_id: 'd-1', reason: 'enc1.k.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA' }), appointment);
    assert.deepEqual([rejected!.user_id, rejected!.message.status, (rejected!.message.data as { rejection_reason: string }).rejection_reason], ['p-1', 'rejected', 'On leave']);
    assert.deepEqual(messagesFor(event('AppointmentCancelled', { cancelled_by: 'doctor', reason: null }), appointment).map((d) => d.user_id), ['p-1']);
    assert.deepEqual(messagesFor(event('AppointmentCancelled', { cancelled_by: 'patient', reason: null }), appointment).map((d) => d.user_id), ['p-1', 'd-1']);
    const [byPatient] = messagesFor(event('AppointmentCancelled', { cancelled_by: 'patient', reason: null }), appointment);
    assert.equal((byPatient!.message.data as { cancelled_by: string }).cancelled_by, 'patient', 'each side can tell who cancelled');
    assert.deepEqual(messagesFor(event('AppointmentExpired', {}), appointment).map((d) => d.user_id), ['p-1', 'd-1']);
    assert.deepEqual(messagesFor(event('SlotReleased', {}), appointment), []);
  });

  it('a request closed because the patient withdrew consent goes to both, saying so (not declined by the doctor)', () => {
    const deliveries = messagesFor(event('AppointmentRejected', { doctor_id: 'd-1', reason: null, cause: 'consent_withdrawn' }), appointment);
    assert.deepEqual(deliveries.map((d) => d.user_id), ['p-1', 'd-1']);
    for (const d of deliveries) assert.equal((d.message.data as { status_reason?: string }).status_reason, 'consent_withdrawn');
    const [declined] = messagesFor(event('AppointmentRejected', { doctor_id: 'd-1', reason: null }), appointment);
    assert.equal((declined!.message.data as { status_reason?: string }).status_reason, undefined, "a doctor's decline carries no such reason");
  });
});

describe('notifier messages match the shared contract', () => {
  it('every message the notifier builds parses with the server message schema', () => {
    const events = [
      event('AppointmentRequested', {}),
      event('AppointmentApproved', {}),
      event('AppointmentRejected', { reason: 'On leave' }),
      event('AppointmentCancelled', { cancelled_by: 'patient', reason: null }),
      event('AppointmentExpired', {}),
    ];
    for (const e of events) for (const { message } of messagesFor(e, appointment)) assert.ok(isServerMessage(message), JSON.stringify(message));
  });
});

describe('notifier authentication failure', () => {
  it('closes with 4005 when checking the user fails unexpectedly', async () => {
    const readStore = new MemoryReadStore();
    const broken = {
      ...readStore,
      collection: () => ({ get: async () => Promise.reject(new Error('read store down')) }),
    } as unknown as MemoryReadStore;
    const tokens = new TokenService({ secret: new Uint8Array(32).fill(7), issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 60 });
    const notifier = createNotifier({ tokens, readStore: broken, appointmentView: () => Promise.reject(new Error('not reached: the socket is refused first')), bus: new InProcessBus(), logger: createLogger({ level: 'silent' }), audit: { recordFor: () => Promise.reject(new Error('not reached: the socket is refused first')) }, waitForPosition: async () => true });
    const server = createServer();
    server.on('upgrade', (req, socket, head) => notifier.handleUpgrade(req, socket, head) || socket.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const token = await tokens.issue({ user_id: 'u-1', account_type: 'patient' });
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/u-1?token=${token}`);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    assert.deepEqual(closed, { code: 4005, reason: 'Authentication failed' });
    await notifier.stop();
    server.close();
  });
});
