/** Business constants and limits from the seeds, written once. */

/** The product's name, where the seeds say "the product" (the header, the summary's thanks). */
export const PRODUCT_NAME = 'Telemed';

export const DEFAULT_TIMEZONE = 'Asia/Kolkata';
export const DEFAULT_CONSULTATION_FEE = 100;
export const APPOINTMENT_DURATION_MINUTES = 30;
/** How long after a confirmed appointment's end the system closes it as a no-show of whoever never joined (issue 35). */
export const NO_SHOW_GRACE_MINUTES = 15;
/** How long into a confirmed appointment its doctor must wait before marking an absent patient as a no-show. */
export const NO_SHOW_DOCTOR_WAIT_MINUTES = 10;
/** The no-show sweep looks at appointments started within this many days before its cutoff (never at the whole history). */
export const NO_SHOW_SWEEP_WINDOW_DAYS = 7;
/** How long a slot freed for the first patient on its doctor's waitlist is held for them (issue 35). */
export const WAITLIST_HOLD_MINUTES = 15;
/** The longest stretch of days one waitlist place covers. */
export const WAITLIST_MAX_DAYS = 30;
export const DEFAULT_SPECIALTY = 'General Medicine';
export const DEFAULT_QUALIFICATION = 'MD';
/** Longest city a doctor gives for their practice (shown on their public page). */
export const DOCTOR_CITY_MAX_LENGTH = 80;

/** The availability calendar: 30-minute rows from 06:00 (row 0) to 22:00 (row 32), 33 rows. */
export const SLOT_MINUTES = 30;
export const SLOT_DAY_FIRST_START = '06:00';
export const SLOT_DAY_LAST_START = '22:00';
export const SLOT_ROWS_PER_DAY = 33;
/** How far ahead a doctor may publish availability (product rule; keeps a schedule bounded). */
export const AVAILABILITY_HORIZON_DAYS = 84;

export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
export const MAX_NOTES_LENGTH = 2000;
export const MAX_REASON_LENGTH = 1000;

export const DOCTOR_LIST_DEFAULT_LIMIT = 100;
export const DOCTOR_LIST_MAX_LIMIT = 500;
/** My Appointments answers at most this many per section: a long history is paged, never sent whole. */
export const MY_APPOINTMENTS_MAX_LIMIT = 100;

/** Read-your-writes: how long a query waits for projections to reach X-Min-Position. */
export const MIN_POSITION_WAIT_MS = 2000;

export const SPECIALTIES = [
  'General Medicine',
  'Pediatrics',
  'Gynecology',
  'Dermatology',
  'Cardiology',
  'Neurology',
  'Psychiatry',
  'Orthopedics',
  'ENT',
  'Ophthalmology',
  'Endocrinology',
  'Gastroenterology',
] as const;

export const LANGUAGES = [
  'English',
  'Hindi',
  'Marathi',
  'Gujarati',
  'Bengali',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Punjabi',
] as const;

export const CREDIT_PACKS = [
  { credits: 100, price_rupees: 999 },
  { credits: 200, price_rupees: 1899 },
  { credits: 500, price_rupees: 4499 },
  { credits: 1000, price_rupees: 7999 },
] as const;
export const STARTING_CREDITS = 100;

/**
 * State Medical Councils and the National Medical Commission: a registration under one of these is what the
 * Telemedicine Practice Guidelines (2020) require a registered medical practitioner to show.
 */
export const MEDICAL_COUNCILS = [
  'National Medical Commission',
  'Andhra Pradesh Medical Council',
  'Assam Medical Council',
  'Bihar Medical Council',
  'Chhattisgarh Medical Council',
  'Delhi Medical Council',
  'Goa Medical Council',
  'Gujarat Medical Council',
  'Haryana Medical Council',
  'Himachal Pradesh Medical Council',
  'Jammu & Kashmir Medical Council',
  'Jharkhand Medical Council',
  'Karnataka Medical Council',
  'Travancore Cochin Medical Council',
  'Madhya Pradesh Medical Council',
  'Maharashtra Medical Council',
  'Odisha Council of Medical Registration',
  'Punjab Medical Council',
  'Rajasthan Medical Council',
  'Tamil Nadu Medical Council',
  'Telangana State Medical Council',
  'Uttar Pradesh Medical Council',
  'Uttarakhand Medical Council',
  'West Bengal Medical Council',
] as const;

/**
 * The path of a registered doctor's public page, /{doctorId} (registered ids are UUIDs): the server sends it the
 * prerendered page shell and the app asks for the doctor's profile as it starts. Other single-segment paths (the
 * bundled sample profiles) are ordinary app routes.
 */
export const PUBLIC_DOCTOR_PAGE_PATH = /^\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * The API request for a doctor's public profile with its slots rendered in `zone`, as the doctor page makes it: the
 * server's doctor.html preloads it for DEFAULT_TIMEZONE, and the app asks for exactly this URL, so the browser uses
 * the preloaded answer.
 */
export const publicDoctorProfileUrl = (doctorId: string, zone: string) =>
  `/api/v1/public/doctors/${encodeURIComponent(doctorId)}?timezone_str=${encodeURIComponent(zone)}`;
