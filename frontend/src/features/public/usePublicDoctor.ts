import { useQuery } from '@tanstack/react-query';
import type { ApiRoutes } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { upcoming } from '../patient/types';
import { publicDoctorPath, requestZone, takePrefetchedPublicDoctor } from './earlyProfile';

type PublicDoctor = ApiRoutes['getPublicDoctor']['response'];

/**
 * A doctor's public profile and open slots (no sign-in needed); null when the server knows no such doctor. The first
 * read uses the request the app started on arrival (see earlyProfile.ts) when it succeeded; anything else asks again.
 */
export function usePublicDoctor(doctorId: string | undefined) {
  return useQuery({
    queryKey: ['public-doctor', doctorId],
    enabled: Boolean(doctorId),
    queryFn: async (): Promise<PublicDoctor | null> => {
      const zone = requestZone();
      try {
        const early = await takePrefetchedPublicDoctor(publicDoctorPath(doctorId!, zone));
        // The early request is a plain fetch of this very route: its JSON is the route's answer.
        const doctor = early?.ok ? ((await early.json()) as PublicDoctor) : await call('getPublicDoctor', { params: { doctor_id: doctorId! }, query: { timezone_str: zone } });
        return { ...doctor, slots: upcoming(doctor.slots) };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return null;
        throw error;
      }
    },
  });
}
