import { describe, it } from 'node:test';
import { API_TEXTS, CONSULTATION_TEXTS, ERROR_CODES } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { consultationDecider, type AppointmentFacts, type ConsultationEvent } from './consultation';

const spec = deciderSpec(consultationDecider);
const appointment: AppointmentFacts = {
  appointment_id: 'a-1',
  patient_id: 'pat-1',
  doctor_id: 'doc-1',
  start: '2030-01-01T04:00:00Z',
  end: '2030-01-01T04:30:00Z',
  status: 'confirmed',
};
const limits = { earlyJoinMs: 15 * 60_000, maxMs: 30 * 60_000 };
const at = (iso: string) => new Date(iso);
const join = (actor_id: string, now: Date, connection_id = `c-${actor_id}`, facts: AppointmentFacts | null = appointment) =>
  ({ type: 'JoinConsultation', data: { actor_id, appointment: facts, connection_id, provider: 'p2p', room: 'consultation-a-1', now, limits } }) as const;

const started: ConsultationEvent = {
  type: 'ConsultationStarted',
  data: {
    appointment_id: 'a-1',
    patient_id: 'pat-1',
    doctor_id: 'doc-1',
    provider: 'p2p',
    room: 'consultation-a-1',
    started_at: '2030-01-01T03:50:00Z',
    ends_at: '2030-01-01T04:20:00Z',
  },
};
const joined = (user_id: string, role: 'patient' | 'doctor', connection_id = `c-${user_id}`, replaced: string | null = null): ConsultationEvent => ({
  type: 'ConsultationJoined',
  data: { appointment_id: 'a-1', user_id, role, connection_id, replaced_connection_id: replaced },
});
const patientIn = joined('pat-1', 'patient');
const doctorIn = joined('doc-1', 'doctor');
const ended: ConsultationEvent = { type: 'ConsultationEnded', data: { appointment_id: 'a-1', ended_by: 'doc-1' } };
const during = at('2030-01-01T04:05:00Z');
const atLimit = at('2030-01-01T04:20:00Z');

describe('consultation decider', () => {
  describe('join', () => {
    it('starts the call at the first join, 15 minutes before the appointment at the earliest, with the limit 30 minutes on', () =>
      spec([]).when(join('pat-1', at('2030-01-01T03:50:00Z'))).then([started, patientIn]));
    it('opens exactly 15 minutes before the start', () =>
      spec([]).when(join('doc-1', at('2030-01-01T03:45:00Z'))).then([
        { type: 'ConsultationStarted', data: { ...started.data, started_at: '2030-01-01T03:45:00Z', ends_at: '2030-01-01T04:15:00Z' } } as ConsultationEvent,
        doctorIn,
      ]));
    it('refuses before the window with the time it opens', () =>
      spec([]).when(join('pat-1', at('2030-01-01T03:44:59Z'))).thenThrows('conflict', CONSULTATION_TEXTS.notOpenYet('2030-01-01T03:45:00Z', 15)));
    it('lets the other participant join the running call, the limit unchanged', () => spec([started, patientIn]).when(join('doc-1', during)).then([doctorIn]));
    it('replaces an older connection of the same person (a reload)', () =>
      spec([started, patientIn]).when(join('pat-1', during, 'c-new')).then([joined('pat-1', 'patient', 'c-new', 'c-pat-1')]));
    it('rejoins after leaving without replacing anything', () =>
      spec([started, patientIn, { type: 'ConsultationLeft', data: { appointment_id: 'a-1', user_id: 'pat-1', connection_id: 'c-pat-1', reason: 'left' } }])
        .when(join('pat-1', during, 'c-2'))
        .then([joined('pat-1', 'patient', 'c-2')]));
    it('answers not_found to another patient or doctor', () => {
      spec([]).when(join('pat-2', during)).thenThrows('not_found', API_TEXTS.appointmentNotFound);
      spec([started]).when(join('doc-2', during)).thenThrows('not_found', API_TEXTS.appointmentNotFound);
    });
    it('answers not_found for an unknown appointment', () => spec([]).when(join('pat-1', during, 'c', null)).thenThrows('not_found'));
    it('refuses an appointment that is not confirmed', () => {
      spec([]).when(join('pat-1', during, 'c', { ...appointment, status: 'requested' })).thenThrows('conflict', /requested, not confirmed/);
      spec([]).when(join('pat-1', during, 'c', { ...appointment, status: 'cancelled' })).thenThrows('conflict', /cancelled/, ERROR_CODES.appointmentNotConfirmed);
    });
    it('refuses once ended', () => spec([started, patientIn, ended]).when(join('pat-1', during)).thenThrows('conflict', CONSULTATION_TEXTS.ended));
    it('refuses at the limit even before the auto-end is recorded', () =>
      spec([started, patientIn]).when(join('doc-1', atLimit)).thenThrows('conflict', CONSULTATION_TEXTS.ended));
    it("refuses a first join after the appointment's end", () =>
      spec([]).when(join('pat-1', at('2030-01-01T04:30:00Z'))).thenThrows('conflict', CONSULTATION_TEXTS.timePassed));
  });

  describe('leave', () => {
    const leave = (actor_id: string, connection_id: string | null = null) =>
      ({ type: 'LeaveConsultation', data: { actor_id, appointment, connection_id } }) as const;
    const left = (user_id: string, connection_id = `c-${user_id}`): ConsultationEvent => ({
      type: 'ConsultationLeft',
      data: { appointment_id: 'a-1', user_id, connection_id, reason: 'left' },
    });
    it('records the leave of the current connection', () => spec([started, patientIn]).when(leave('pat-1')).then([left('pat-1')]));
    it('ignores the leave of a replaced connection (the old tab unloading)', () =>
      spec([started, patientIn, joined('pat-1', 'patient', 'c-new', 'c-pat-1')]).when(leave('pat-1', 'c-pat-1')).then([]));
    it('is idempotent', () => spec([started, patientIn, left('pat-1')]).when(leave('pat-1')).then([]));
    it('answers not_found to a stranger', () => spec([started]).when(leave('pat-2')).thenThrows('not_found'));
  });

  describe('a dropped socket (peer to peer)', () => {
    const dropped = (user_id: string, connection_id = `c-${user_id}`, now = during) =>
      ({ type: 'RecordParticipantDisconnected', data: { user_id, connection_id, now } }) as const;
    const gone = (user_id: string): ConsultationEvent => ({
      type: 'ConsultationLeft',
      data: { appointment_id: 'a-1', user_id, connection_id: `c-${user_id}`, reason: 'disconnected' },
    });
    it('records the participant as gone, reason disconnected', () => spec([started, patientIn, doctorIn]).when(dropped('pat-1')).then([gone('pat-1')]));
    it('leaves a newer connection of the same person (a rejoin since) present', () =>
      spec([started, patientIn, joined('pat-1', 'patient', 'c-new', 'c-pat-1')]).when(dropped('pat-1')).then([]));
    it('is idempotent, and does nothing for someone who left, a stranger, an ended call or one past its limit', () => {
      spec([started, patientIn, gone('pat-1')]).when(dropped('pat-1')).then([]);
      spec([started, patientIn]).when(dropped('pat-2', 'c-pat-2')).then([]);
      spec([started, patientIn, ended]).when(dropped('pat-1')).then([]);
      spec([started, patientIn]).when(dropped('pat-1', 'c-pat-1', atLimit)).then([]);
      spec([]).when(dropped('pat-1')).then([]);
    });
  });

  describe('end', () => {
    const end = (actor_id: string, now = during) => ({ type: 'EndConsultation', data: { actor_id, appointment, now } }) as const;
    it('ends the call for both (End Call by either participant)', () => spec([started, patientIn, doctorIn]).when(end('doc-1')).then([ended]));
    it('is idempotent once ended', () => spec([started, ended]).when(end('pat-1')).then([]));
    it('refuses a call that never started', () => spec([]).when(end('pat-1')).thenThrows('conflict', CONSULTATION_TEXTS.notStarted));
    it('answers not_found to a stranger', () => spec([started]).when(end('doc-2')).thenThrows('not_found'));
  });

  describe('limit', () => {
    const autoEnd = (now: Date) => ({ type: 'AutoEndConsultation', data: { now } }) as const;
    it('auto-ends at the limit', () =>
      spec([started, patientIn]).when(autoEnd(atLimit)).then([{ type: 'ConsultationAutoEnded', data: { appointment_id: 'a-1', ends_at: '2030-01-01T04:20:00Z' } }]));
    it('does nothing before the limit', () => spec([started, patientIn]).when(autoEnd(during)).then([]));
    it('does nothing once ended or never started', () => {
      spec([started, ended]).when(autoEnd(atLimit)).then([]);
      spec([]).when(autoEnd(atLimit)).then([]);
    });
  });

  describe('chat', () => {
    const post = (actor_id: string, now = during) =>
      ({ type: 'PostConsultationMessage', data: { actor_id, appointment, message_id: 'm-1', text: 'Any fever?', now } }) as const;
    it('records a participant’s message', () =>
      spec([started, doctorIn]).when(post('doc-1')).then([
        { type: 'ConsultationMessagePosted', data: { appointment_id: 'a-1', message_id: 'm-1', sender_id: 'doc-1', text: 'Any fever?' } },
      ]));
    it('refuses after the end and at the limit', () => {
      spec([started, ended]).when(post('pat-1')).thenThrows('conflict', CONSULTATION_TEXTS.ended);
      spec([started]).when(post('pat-1', atLimit)).thenThrows('conflict', CONSULTATION_TEXTS.ended);
    });
    it('answers not_found to a stranger', () => spec([started]).when(post('pat-2')).thenThrows('not_found'));
  });

  describe('video provider webhooks', () => {
    const webhook = (event: string, identity: string | null) =>
      ({ type: 'RecordVideoProviderEvent', data: { provider_event_id: 'EV_1', event, room: 'consultation-a-1', participant_identity: identity, created_at: null } }) as const;
    const received = (event: string, identity: string | null): ConsultationEvent => ({
      type: 'VideoProviderEventReceived',
      data: { appointment_id: 'a-1', provider: 'livekit', provider_event_id: 'EV_1', event, room: 'consultation-a-1', participant_identity: identity, created_at: null },
    });
    it('records what the room service reports', () => spec([started, patientIn]).when(webhook('room_started', null)).then([received('room_started', null)]));
    it('marks a participant the room service saw leave as not present', () =>
      spec([started, patientIn]).when(webhook('participant_left', 'pat-1')).then([
        received('participant_left', 'pat-1'),
        { type: 'ConsultationLeft', data: { appointment_id: 'a-1', user_id: 'pat-1', connection_id: 'c-pat-1', reason: 'provider_reported' } },
      ]));

    const hook = (id: string, event: string, identity: string, sid: string | null) =>
      ({ type: 'RecordVideoProviderEvent', data: { provider_event_id: id, event, room: 'consultation-a-1', participant_identity: identity, participant_sid: sid, created_at: null } }) as const;
    const heard = (id: string, event: string, identity: string, sid: string | null): ConsultationEvent => ({
      type: 'VideoProviderEventReceived',
      data: { appointment_id: 'a-1', provider: 'livekit', provider_event_id: id, event, room: 'consultation-a-1', participant_identity: identity, ...(sid ? { participant_sid: sid } : {}), created_at: null },
    });
    it('records a redelivered webhook (the same event id) once', () => {
      spec([started, patientIn, heard('EV_1', 'participant_joined', 'pat-1', 'PA_1')]).when(hook('EV_1', 'participant_joined', 'pat-1', 'PA_1')).then([]);
      spec([started, patientIn, heard('EV_1', 'room_started', 'pat-1', null)]).when(hook('EV_1', 'participant_left', 'pat-1', null)).then([]);
    });
    it('records the same participant joining twice (same session, another event id) once; a new session is news', () => {
      const given = [started, patientIn, heard('EV_1', 'participant_joined', 'pat-1', 'PA_1')];
      spec(given).when(hook('EV_2', 'participant_joined', 'pat-1', 'PA_1')).then([]);
      spec(given).when(hook('EV_2', 'participant_joined', 'pat-1', null)).then([]);
      spec(given).when(hook('EV_2', 'participant_joined', 'pat-1', 'PA_2')).then([heard('EV_2', 'participant_joined', 'pat-1', 'PA_2')]);
      spec([...given, heard('EV_2', 'participant_left', 'pat-1', 'PA_1')]).when(hook('EV_3', 'participant_joined', 'pat-1', 'PA_1')).then([
        heard('EV_3', 'participant_joined', 'pat-1', 'PA_1'),
      ]);
    });
    it("a late leave of an older session does not take the newer one's presence away", () =>
      spec([started, patientIn, heard('EV_1', 'participant_joined', 'pat-1', 'PA_1'), heard('EV_2', 'participant_joined', 'pat-1', 'PA_2')])
        .when(hook('EV_3', 'participant_left', 'pat-1', 'PA_1'))
        .then([heard('EV_3', 'participant_left', 'pat-1', 'PA_1')]));
  });
});
