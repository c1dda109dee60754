/** Places the signed-in navigation leads to beyond the seeds' Dashboard, My Appointments and Profile. */
export const NAV_PLACES = {
  /** A doctor's list of every doctor (seed 000: 'All Doctors' for a doctor), a section of the doctor home. */
  allDoctors: { label: 'All Doctors', pathname: '/doctor-home', anchor: 'all-doctors' },
  /** The react-admin console, for institution admins and platform operators. */
  console: { label: 'Admin Console', pathname: '/admin' },
} as const;

export const allDoctorsPath = `${NAV_PLACES.allDoctors.pathname}#${NAV_PLACES.allDoctors.anchor}`;
