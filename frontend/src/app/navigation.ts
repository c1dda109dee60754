import type { MessageId } from '../i18n/useT';

/** Places the signed-in navigation leads to beyond the seeds' Dashboard, My Appointments and Profile. */
export const NAV_PLACES = {
  /** A doctor's list of every doctor (seed 000: 'All Doctors' for a doctor), a section of the doctor home. */
  allDoctors: { labelId: 'shell.allDoctors', pathname: '/doctor-home', anchor: 'all-doctors' },
  /** The react-admin console, for institution admins and platform operators. */
  console: { labelId: 'shell.adminConsole', pathname: '/admin' },
} as const satisfies Record<string, { labelId: MessageId; pathname: string; anchor?: string }>;

export const allDoctorsPath = `${NAV_PLACES.allDoctors.pathname}#${NAV_PLACES.allDoctors.anchor}`;
