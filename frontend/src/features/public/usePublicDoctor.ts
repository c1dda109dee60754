import { useQuery } from '@tanstack/react-query';
import type { PublicDoctorProfile } from '@telemed/contracts';
import { ApiError, api } from '../../lib/api';
import { browserZone } from '../../lib/time';
import { upcoming } from '../patient/types';

/** A doctor's public profile and open slots (no sign-in needed); null when the server knows no such doctor. */
export function usePublicDoctor(doctorId: string | undefined) {
  return useQuery({
    queryKey: ['public-doctor', doctorId],
    enabled: Boolean(doctorId),
    queryFn: async (): Promise<PublicDoctorProfile | null> => {
      try {
        const doctor = await api<PublicDoctorProfile>(`/public/doctors/${encodeURIComponent(doctorId!)}?timezone_str=${encodeURIComponent(browserZone())}`);
        return { ...doctor, slots: upcoming(doctor.slots) };
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return null;
        throw error;
      }
    },
  });
}
