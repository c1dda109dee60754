import { API_TEXTS, isAtOrBefore, notFound, SLOT_MINUTES, type SlotFacts } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { DoctorDoc, SlotDoc } from '../projections';
import { bookableDoctors } from '../users/bookable-doctors';
import { timezoneOf } from '../timezone';
import { slotLookups } from './slot-lookups';
import { slotView } from './views';

/** One slot's facts, and the doctor's own schedule. */
export function scheduleQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; clock: () => Date }): void {
  const doctors = deps.readStore.collection<DoctorDoc>('doctors');
  const slots = deps.readStore.collection<SlotDoc>('slots');
  const slotsOf = slotLookups(deps.readStore);
  // A doctor who takes no bookings (inactive, or deactivated by an institution) shows no slot to book anywhere.
  const acceptsBookings = bookableDoctors(deps.readStore);

  api.implement('getSlot', {
    policy: policies.anyUser,
    handler: async ({ params, query, auth }) => {
      const slot = await slots.get(String(params.slot_id));
      const doctor = slot ? await doctors.get(slot.doctor_id) : null;
      if (!slot || !doctor) throw notFound(API_TEXTS.slotNotFound);
      const started = isAtOrBefore(slot.start, deps.clock());
      const availability: SlotFacts['availability'] =
        slot.status === 'reserved'
          ? slot.patient_id === auth.user_id
            ? 'requested_by_you'
            : 'taken'
          : started
            ? 'past'
            : slot.status !== 'open'
              ? 'withdrawn'
              : (await acceptsBookings(doctor._id))
                ? 'open'
                : 'not_accepting';
      const { slot_id, slot_date, start_time, end_time, start_at, end_at } = slotView(slot, timezoneOf(query), availability === 'open');
      return {
        body: {
          slot_id,
          slot_date,
          start_time,
          end_time,
          start_at,
          end_at,
          doctor: {
            doctor_id: doctor._id,
            name: doctor.name,
            specialty: doctor.specialty,
            qualification: doctor.qualification,
            consultation_fee: doctor.consultation_fee,
          },
          availability,
        },
      };
    },
  });

  api.implement('listMySchedule', {
    policy: policies.roles('doctor'),
    handler: async ({ auth, query }) => {
      const zone = timezoneOf(query);
      const now = deps.clock();
      // Slots that have not ended: those that started less than a slot's length ago, and later ones.
      const started = new Date(now.getTime() - SLOT_MINUTES * 60_000).toISOString();
      const docs = (await slotsOf.inRange(auth.user_id, { after: started, statuses: ['open', 'reserved'] })).filter((s) => !isAtOrBefore(s.end, now));
      return {
        body: docs.map((s) => ({
          ...slotView(s, zone, s.status === 'open'),
          is_booked: s.status === 'reserved',
          status: s.status === 'reserved' ? ('booked' as const) : ('available' as const),
        })),
      };
    },
  });
}
