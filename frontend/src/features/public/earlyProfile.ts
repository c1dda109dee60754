import { PUBLIC_DOCTOR_PAGE_PATH } from '@telemed/contracts/constants';
import { browserZone } from '../../lib/time';

/**
 * A registered doctor's public page (/{doctorId}) asks for the doctor's profile as soon as the app starts, beside the
 * page's scripts, instead of after they have downloaded and the page has rendered: on Fast 3G that saves the request's
 * round trip and the wait for the scripts. Other paths (PUBLIC_DOCTOR_PAGE_PATH: registered doctors' ids are UUIDs)
 * are left alone.
 */
export const isRegisteredDoctorPage = (pathname: string) => PUBLIC_DOCTOR_PAGE_PATH.test(pathname);

let early: { path: string; response: Promise<Response | null> } | undefined;

/** The API path of a doctor's public profile with its slots rendered in `zone`. */
export const publicDoctorPath = (doctorId: string, zone = browserZone()) => `/public/doctors/${encodeURIComponent(doctorId)}?timezone_str=${encodeURIComponent(zone)}`;

/** Starts the profile's request when `pathname` is a registered doctor's public page. */
export function prefetchPublicDoctor(pathname: string): void {
  const doctorId = PUBLIC_DOCTOR_PAGE_PATH.exec(pathname)?.[1];
  if (!doctorId) return;
  const path = publicDoctorPath(doctorId);
  early = { path, response: fetch(`/api/v1${path}`, { credentials: 'same-origin' }).catch(() => null) };
}

/** The early request's answer for `path`, once (later reads ask the server again); null when there was none. */
export function takePrefetchedPublicDoctor(path: string): Promise<Response | null> | null {
  if (early?.path !== path) return null;
  const { response } = early;
  early = undefined;
  return response;
}
