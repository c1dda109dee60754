import type { AppointmentStatus } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import type { AppointmentState } from './appointment';
import { acceptProposedTime, approveAppointment, cancelAppointment, changeAppointment, markPatientAbsent, proposeTimes, requestAppointment, rescheduleAppointment } from './service';
import { BookingChecks, type BookingLookups } from './bookable';

function apiStatus(state: AppointmentState): AppointmentStatus {
  if (state.status === 'none') throw new Error('No appointment');
  return state.status === 'expired' ? 'cancelled' : state.status;
}

/** What a move answers: the appointment at its new slot and times. */
function movedBody(appointmentId: string, state: AppointmentState) {
  if (state.status === 'none') throw new Error('A moved appointment exists');
  const { slot_id, start, end } = state.appointment;
  const instant = (at: string) => new Date(at).toISOString();
  return { appointment_id: appointmentId, status: apiStatus(state), slot_id, start: instant(start), end: instant(end) };
}

export function appointmentRoutes(api: ApiRouter, deps: CommandDeps & { bookingLookups: BookingLookups }): void {
  const bookingChecks = new BookingChecks(deps.eventStore, deps.bookingLookups, deps.startingCredits);
  api.implement('requestAppointment', {
    policy: policies.roles('patient'),
    handler: async ({ body, auth, req }) => {
      const result = await requestAppointment(
        deps.eventStore,
        { slot_id: body.slot_id, notes: body.notes, patient_id: auth.user_id, follow_up_of: body.follow_up_of },
        requestContext(req, auth, deps.clock()),
        bookingChecks,
        deps.faults,
      );
      return {
        body: { appointment_id: result.appointment_id, status: 'requested' as const },
        headers: positionHeader(result.position),
      };
    },
  });

  api.implement('approveAppointment', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await approveAppointment(deps.eventStore, params.id, { actor_id: auth.user_id, now: context.now }, context);
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });

  api.implement('rejectAppointment', {
    policy: policies.roles('doctor'),
    handler: async ({ params, query, body, auth, req }) => {
      const reason = body?.reason || query.rejection_reason || null;
      const result = await changeAppointment(
        deps.eventStore,
        params.id,
        { type: 'RejectAppointment', data: { actor_id: auth.user_id, reason } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });

  api.implement('cancelAppointment', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await cancelAppointment(deps.eventStore, params.id, { actor_id: auth.user_id, reason: body?.reason || null, now: context.now }, context, bookingChecks);
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });

  api.implement('proposeTimes', {
    policy: policies.roles('doctor'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await proposeTimes(deps.eventStore, params.id, { doctor_id: auth.user_id, slot_ids: body.slot_ids }, context);
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });

  api.implement('acceptProposedTime', {
    policy: policies.roles('patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await acceptProposedTime(deps.eventStore, params.id, { patient_id: auth.user_id, slot_id: body.slot_id }, context, bookingChecks);
      return { body: movedBody(params.id, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('declineProposedTimes', {
    policy: policies.roles('patient'),
    handler: async ({ params, auth, req }) => {
      const result = await changeAppointment(deps.eventStore, params.id, { type: 'DeclineProposedTimes', data: { actor_id: auth.user_id } }, requestContext(req, auth, deps.clock()));
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });

  api.implement('rescheduleAppointment', {
    policy: policies.roles('patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await rescheduleAppointment(deps.eventStore, params.id, { patient_id: auth.user_id, slot_id: body.slot_id }, context, bookingChecks, deps.faults);
      return { body: movedBody(params.id, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('markPatientAbsent', {
    policy: policies.roles('doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const result = await markPatientAbsent(deps.eventStore, params.id, { actor_id: auth.user_id, now: context.now }, context);
      return { body: { appointment_id: params.id, status: apiStatus(result.state) }, headers: positionHeader(result.position) };
    },
  });
}
