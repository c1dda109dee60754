import { DateTime } from 'luxon';
import { instantRange, type ApiRoutes } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { UserDoc } from '../projections/documents';
import { afterCursor } from '../keyset';
import { WAITLIST, waitlistId, type WaitlistDoc } from './projection';

type Place = ApiRoutes['listMyWaitlist']['response'][number];

/** A place as its patient reads it; null once it has ended (closed, or its last day has passed in its zone). */
export function placeView(doc: WaitlistDoc, doctorName: string, now: Date): Place | null {
  if (doc.status === 'closed') return null;
  if (DateTime.fromJSDate(now, { zone: doc.timezone }).toISODate()! > doc.to) return null;
  const offer = doc.offer && new Date(doc.offer.until).getTime() > now.getTime() ? { slot_id: doc.offer.slot_id, start_at: doc.offer.start, end_at: doc.offer.end, until: doc.offer.until } : null;
  return { doctor_id: doc.doctor_id, doctor_name: doctorName, from: doc.from, to: doc.to, status: offer ? 'offered' : 'waiting', offer };
}

const OPEN = ['waiting', 'offered'];
interface OpenPlaceRef {
  doctor_id: string;
  patient_id: string;
}
const refs = (docs: WaitlistDoc[]): OpenPlaceRef[] => docs.map((p) => ({ doctor_id: p.doctor_id, patient_id: p.patient_id }));
/** The page after a place: by its id (doctor and patient), which orders every page the same way. */
const afterId = (after: OpenPlaceRef | null) => (after ? { _id: { $gt: waitlistId(after.doctor_id, after.patient_id) } } : {});

/**
 * What the write side's waitlist process manager and sweep look up: a doctor's waiting places in the order they joined
 * (a page at a time), and offers past their time (the index on their end, which answered offers leave).
 */
export function waitlistLookups(readStore: ReadStore) {
  const places = readStore.collection<WaitlistDoc>(WAITLIST);
  return {
    waitingPlaces: async (doctorId: string, page: { afterPosition: number; limit: number }) =>
      (await places.find({ doctor_id: doctorId, status: 'waiting', joined_position: { $gt: page.afterPosition } }, { sort: { joined_position: 1 }, limit: page.limit })).map((p) => ({
        patient_id: p.patient_id,
        from: p.from,
        to: p.to,
        timezone: p.timezone,
        joined_position: p.joined_position,
      })),
    // Waiting places only: an offer outlives its place's last day by its 15 minutes at most, and its end (the sweep's,
    // just before this one) leaves the place waiting. In the index's order, a page after the last one's day and id.
    placesEndedBefore: async (day: string, page: { after: (OpenPlaceRef & { to: string }) | null; limit: number }) =>
      (
        await places.find(
          { status: 'waiting', to: { $lt: day }, ...afterCursor('to', page.after && { value: page.after.to, id: waitlistId(page.after.doctor_id, page.after.patient_id) }) },
          { sort: { to: 1, _id: 1 }, limit: page.limit },
        )
      ).map((p) => ({ doctor_id: p.doctor_id, patient_id: p.patient_id, to: p.to })),
    openPlacesOf: async (role: 'patient' | 'doctor', userId: string, page: { after: OpenPlaceRef | null; limit: number }) =>
      refs(await places.find({ [role === 'patient' ? 'patient_id' : 'doctor_id']: userId, status: { $in: OPEN }, ...afterId(page.after) }, { sort: { _id: 1 }, limit: page.limit })),
    offersEndedBy: async (now: Date, limit: number) =>
      (await places.find({ offer_until: instantRange({ lte: now }) }, { sort: { offer_until: 1 }, limit })).flatMap((p) =>
        p.offer ? [{ doctor_id: p.doctor_id, patient_id: p.patient_id, slot_id: p.offer.slot_id }] : [],
      ),
  };
}

/** A patient's own places (their own data only: the places of others are never read here). */
export function waitlistQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; clock: () => Date }): void {
  const places = deps.readStore.collection<WaitlistDoc>(WAITLIST);
  const users = deps.readStore.collection<UserDoc>('users');
  api.implement('listMyWaitlist', {
    policy: policies.roles('patient'),
    handler: async ({ auth }) => {
      const now = deps.clock();
      const mine = await places.find({ patient_id: auth.user_id });
      const views = await Promise.all(mine.map(async (doc) => placeView(doc, (await users.get(doc.doctor_id))?.name ?? '', now)));
      return { body: views.filter((view): view is Place => view !== null) };
    },
  });
}
