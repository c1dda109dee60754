import { DEFAULT_TIMEZONE, PUBLIC_DOCTOR_PAGE_PATH, publicDoctorProfileUrl } from '@telemed/contracts/constants';
import { browserZone } from '../../lib/time';

/**
 * A registered doctor's public page (/{doctorId}) asks for the doctor's profile as soon as the app starts, beside the
 * page's scripts, instead of after they have downloaded and the page has rendered: on Fast 3G that saves the request's
 * round trip and the wait for the scripts. Other paths (PUBLIC_DOCTOR_PAGE_PATH: registered doctors' ids are UUIDs)
 * are left alone.
 */
export const isRegisteredDoctorPage = (pathname: string) => PUBLIC_DOCTOR_PAGE_PATH.test(pathname);

let early: { path: string; response: Promise<Response | null> } | undefined;

const canonicalZone = (zone: string) => {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return zone;
  }
};

/**
 * The zone to ask for: the browser's, spelled DEFAULT_TIMEZONE when it is India's time (browsers name it
 * Asia/Calcutta or Asia/Kolkata), so that the request is the one the server's page already preloaded.
 */
export const requestZone = (zone = browserZone()) => (canonicalZone(zone) === canonicalZone(DEFAULT_TIMEZONE) ? DEFAULT_TIMEZONE : zone);

/** The API path (under /api/v1) of a doctor's public profile with its slots rendered in `zone`. */
export const publicDoctorPath = (doctorId: string, zone = requestZone()) => publicDoctorProfileUrl(doctorId, zone).slice('/api/v1'.length);

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
