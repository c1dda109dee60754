/** Error details the API answers with; the seeds' texts where they give one. */
export const API_TEXTS = {
  authRequired: 'Not authenticated',
  invalidToken: 'Invalid authentication token',
  sessionExpired: 'Session expired',
  forbiddenRole: 'You are not allowed to do this',
  bodyTooLarge: 'Request body is too large (limit 1 MB)',
  malformedJson: 'Request body is not valid JSON',
  unsupportedMediaType: 'Content-Type must be application/json',
  notFound: 'Not found',
  slotNotFound: 'Slot not found',
  slotTaken: 'This slot is already booked',
  slotPast: 'This slot is in the past',
  slotNotAvailable: 'This slot is not available',
  appointmentNotFound: 'Appointment not found',
  doctorNotFound: 'Doctor not found',
  userNotFound: 'User not found',
  concurrencyExhausted: 'The record changed while saving; please try again',
} as const;
