import { API_TEXTS, notFound } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { DoctorDoc, UserDoc } from '../projections';
import { doctorFields } from './views';

/** The caller's own profile. */
export function userQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore }): void {
  const users = deps.readStore.collection<UserDoc>('users');
  const doctors = deps.readStore.collection<DoctorDoc>('doctors');

  api.implement('getMe', {
    policy: policies.anyUser,
    handler: async ({ auth }) => {
      const user = await users.get(auth.user_id);
      if (!user) throw notFound(API_TEXTS.userNotFound);
      const doctor = user.account_type === 'doctor' ? await doctors.get(auth.user_id) : null;
      return {
        body: {
          id: user._id,
          user_id: user._id,
          name: user.name,
          email: user.email,
          phone_number: user.phone_number,
          account_type: user.account_type,
          doctor: doctor ? doctorFields(doctor) : null,
          language: user.language ?? null,
        },
      };
    },
  });
}
