import { useQuery } from '@tanstack/react-query';
import type { PublicDoctorProfile } from '@telemed/contracts';
import { ApiError, api } from '../../lib/api';
import { upcoming } from '../patient/types';
import { publicDoctorPath, takePrefetchedPublicDoctor } from './earlyProfile';

/**
 * A doctor's public profile and open slots (no sign-in needed); null when the server knows no such doctor. The first
 * read uses the request the app started on arrival (see earlyProfile.ts) when it succeeded; anything else asks again.
 */
export function usePublicDoctor(doctorId: string | undefined) {
  return useQuery({
    queryKey: ['public-doctor', doctorId],
    enabled: Boolean(doctorId),
    queryFn: async (): Promise<PublicDoctorProfile | null> => {
      const path = publicDoctorPath(doctorId!);
      try {
        const early = await takePrefetchedPublicDoctor(path);
        const doctor = early?.ok ? ((await early.json()) as PublicDoctorProfile) : await api<PublicDoctorProfile>(path);
        return { ...doctor, slots: upcoming(doctor.slots) };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return null;
        throw error;
      }
    },
  });
}
