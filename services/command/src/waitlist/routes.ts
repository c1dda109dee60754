import { DEFAULT_TIMEZONE, type ApiRoutes } from '@telemed/contracts';
import { policies, type ApiRouter, type EventStore } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { loadUser } from '../users/load-user';
import { BookingChecks, type BookingLookups } from '../appointments/bookable';
import type { WaitlistState } from './waitlist';
import { acceptWaitlistOffer, declineWaitlistOffer, joinWaitlist, leaveWaitlist } from './service';

type Place = ApiRoutes['joinWaitlist']['response'];

/** The place as its stream has it, for the patient who holds it (the doctor's name from the doctor's stream). */
async function placeOf(eventStore: EventStore, state: WaitlistState): Promise<Place> {
  if (state.status === 'none' || state.status === 'closed') throw new Error('An open place');
  const doctor = await loadUser(eventStore, state.doctor_id);
  const offer = state.offer ? { slot_id: state.offer.slot_id, start_at: state.offer.start, end_at: state.offer.end, until: state.offer.until } : null;
  return { doctor_id: state.doctor_id, doctor_name: doctor.status === 'registered' ? doctor.name : '', from: state.from, to: state.to, status: state.status, offer };
}

/** A patient's place on a doctor's waitlist (issue 35): only their own, always by the doctor's id and their session. */
export function waitlistRoutes(api: ApiRouter, deps: CommandDeps & { bookingLookups: BookingLookups }): void {
  const checks = new BookingChecks(deps.eventStore, deps.bookingLookups, deps.startingCredits);

  api.implement('joinWaitlist', {
    policy: policies.roles('patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const timezone = body.timezone ?? DEFAULT_TIMEZONE;
      const result = await joinWaitlist(deps.eventStore, { doctor_id: params.doctor_id, patient_id: auth.user_id, from: body.from, to: body.to, timezone }, context, checks);
      return { body: await placeOf(deps.eventStore, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('leaveWaitlist', {
    policy: policies.roles('patient'),
    handler: async ({ params, auth, req }) => {
      const result = await leaveWaitlist(deps.eventStore, params.doctor_id, auth.user_id, requestContext(req, auth, deps.clock()));
      return { body: { doctor_id: params.doctor_id, status: 'closed' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('declineWaitlistOffer', {
    policy: policies.roles('patient'),
    handler: async ({ params, auth, req }) => {
      const result = await declineWaitlistOffer(deps.eventStore, params.doctor_id, auth.user_id, requestContext(req, auth, deps.clock()));
      return { body: await placeOf(deps.eventStore, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('acceptWaitlistOffer', {
    policy: policies.roles('patient'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const booked = await acceptWaitlistOffer(deps.eventStore, { doctor_id: params.doctor_id, patient_id: auth.user_id, notes: body.notes }, context, checks);
      return { body: { appointment_id: booked.appointment_id, status: 'requested' as const }, headers: positionHeader(booked.position) };
    },
  });
}
