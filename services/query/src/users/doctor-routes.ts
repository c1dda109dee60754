import { API_TEXTS, notFound, utcIso, type ApiRoutes } from '@telemed/contracts';
import { DateTime } from 'luxon';
import { JsonText, policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { DoctorDoc, SubscriptionDoc, UserDoc } from '../projections';
import { OpenSlots } from '../schedule/open-slots';
import { slotView } from '../schedule/views';
import { timezoneOf } from '../timezone';
import { bookableDoctors } from './bookable-doctors';
import { doctorFields, doctorView } from './views';

/** The doctors' lists and pages, with the slots they offer. */
export function doctorQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; clock: () => Date }): void {
  const users = deps.readStore.collection<UserDoc>('users');
  const doctors = deps.readStore.collection<DoctorDoc>('doctors');
  const subscriptions = deps.readStore.collection<SubscriptionDoc>('patient_doctors');
  const openSlots = new OpenSlots(deps.readStore, deps.clock);
  // A doctor who takes no bookings (inactive, or deactivated by an institution) shows no slot to book anywhere.
  const acceptsBookings = bookableDoctors(deps.readStore);

  api.implement('listDoctors', {
    policy: policies.anyUser,
    handler: async ({ query }) => {
      // An erased doctor is in no list (their public page answers 404 too).
      const docs = await doctors.find(
        { doctor_number: { $gt: 0 }, erased_at: { $exists: false }, ...(query.language ? { languages: query.language } : {}) },
        { sort: { name: 1 }, skip: query.skip, limit: query.limit },
      );
      // A page of doctors at most DOCTOR_LIST_MAX_LIMIT long, each a few lookups by id (their account, their staffs).
      return { body: await Promise.all(docs.map(async (doc) => doctorView(doc, await acceptsBookings(doc._id)))) };
    },
  });

  api.implement('listMyDoctors', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ auth, query }) => {
      const zone = timezoneOf(query);
      const withSlots = async (doc: DoctorDoc, own = false) => {
        const accepting = await acceptsBookings(doc._id);
        return {
          ...doctorView(doc, accepting),
          availableSlots: own || accepting ? (await openSlots.list(doc._id, deps.clock().toISOString())).map((s) => slotView(s, zone, true)) : [],
        };
      };
      if (auth.account_type === 'doctor') {
        const self = await doctors.get(auth.user_id);
        if (!self) throw notFound(API_TEXTS.doctorNotFound);
        return { body: await withSlots(self, true) };
      }
      const mine = await subscriptions.find({ patient_id: auth.user_id }, { sort: { subscribed_at: 1 } });
      const docs = (await Promise.all(mine.map((s) => doctors.get(s.doctor_id)))).filter((d): d is DoctorDoc => d !== null);
      return { body: await Promise.all(docs.map((doc) => withSlots(doc))) };
    },
  });

  api.implement('getDoctorAvailableSlots', {
    policy: policies.anyUser,
    handler: async ({ params, query }) => {
      const zone = timezoneOf(query);
      if (!(await doctors.get(params.doctor_id))) throw notFound(API_TEXTS.doctorNotFound);
      if (!(await acceptsBookings(params.doctor_id))) return { body: new JsonText<ApiRoutes['getDoctorAvailableSlots']['response']>(Buffer.from('{"slots":[]}')) };
      const now = deps.clock();
      // Rendered once per doctor, zone and change of the doctor's slots (see OpenSlots), then sent as it is.
      if (query.from === undefined && query.days === undefined) return { body: await openSlots.availableSlotsBody(params.doctor_id, zone, now.toISOString()) };
      const first = query.from ? DateTime.fromISO(query.from, { zone }) : DateTime.fromJSDate(now, { zone }).startOf('day');
      const after = Math.max(now.getTime(), first.toMillis() - 1000);
      const before = utcIso(first.plus({ days: query.days ?? 7 }));
      return { body: await openSlots.availableSlotsBody(params.doctor_id, zone, new Date(after).toISOString(), before) };
    },
  });

  api.implement('getPublicDoctor', {
    policy: policies.public,
    handler: async ({ params, query }) => {
      const zone = timezoneOf(query);
      const doctor = await doctors.get(params.doctor_id);
      // Only a doctor with a published profile and an active account has a public page.
      const user = doctor && doctor.doctor_number > 0 ? await users.get(doctor._id) : null;
      if (!doctor || !user?.active) throw notFound(API_TEXTS.doctorNotFound);
      const now = deps.clock();
      const until = new Date(now.getTime() + query.days * 86_400_000).toISOString();
      const accepting = await acceptsBookings(doctor._id);
      const open = accepting ? await openSlots.list(doctor._id, now.toISOString(), until) : [];
      return {
        body: {
          doctor_id: doctor._id,
          name: doctor.name,
          ...doctorFields(doctor),
          slots: open.map((s) => slotView(s, zone, true)),
          days: query.days,
          accepting_bookings: accepting,
        },
      };
    },
  });
}
