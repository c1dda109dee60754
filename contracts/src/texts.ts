/** Error details the API answers with; the seeds' texts where they give one. */
export const API_TEXTS = {
  authRequired: 'Not authenticated',
  /** 408: a request's body did not arrive within HTTP_REQUEST_TIMEOUT_MS. */
  requestTimedOut: 'The request took too long to arrive. Please try again.',
  /** 408: a streamed upload had no byte for HTTP_UPLOAD_IDLE_TIMEOUT_MS. */
  uploadStalled: (seconds: number) => `The upload stopped: nothing arrived for ${seconds} seconds. Check the connection and try again.`,
  /** 422: a form part's headers (its field name or file name) hold characters no header may (a NUL), or are too long. */
  malformedPartHeader: 'A file name or field name in the form is too long or has characters that are not allowed (such as NUL). Rename the file and try again.',
  invalidToken: 'Invalid authentication token',
  sessionExpired: 'Session expired',
  sessionEnded: 'Session ended. Please sign in again.',
  accountDisabled: 'This account is no longer active',
  loginFailed: 'Invalid email or password',
  googleLoginFailed: 'Google sign-in failed',
  forbiddenRole: 'You are not allowed to do this',
  bodyTooLarge: 'Request body is too large (limit 1 MB)',
  malformedJson: 'Request body is not valid JSON',
  /** 422: a body sent to a route that takes none (an empty JSON object is accepted). */
  noBodyTaken: 'This request takes no body',
  unsupportedMediaType: 'Content-Type must be application/json',
  unsupportedCharset: 'The request body must be UTF-8',
  unsupportedEncoding: 'Content-Encoding must be gzip, deflate, br or identity',
  /** 500: anything unexpected; what went wrong is logged, never sent. */
  internalError: 'Internal server error',
  /** 503: a dependency is unavailable for a moment. */
  serviceUnavailable: 'The service is unavailable for a moment. Please try again.',
  notFound: 'Not found',
  /** 405: the path exists but does not take this method (the Allow header lists those it takes). */
  methodNotAllowed: (method: string, allow: string) => `${method} is not accepted here; this address accepts ${allow}`,
  /** 503: the app's page could not be read (a new version is being installed). */
  appUnavailable: 'The app is being updated. Please reload the page in a moment.',
  slotNotFound: 'Slot not found',
  slotTaken: 'This slot is already booked',
  slotAlreadyRequested: 'You have already requested this slot. You can follow it in My Appointments.',
  slotPast: 'This slot is in the past',
  slotNotAvailable: 'This slot is not available',
  appointmentNotFound: 'Appointment not found',
  /** 409: moving an appointment (issue 35) that is no longer requested or confirmed. */
  appointmentNotMovable: (status: string) => `This appointment is ${status} and cannot be moved`,
  /** 409: a patient's move inside the doctor's notice (the rule named, as the screens show it before booking). */
  rescheduleTooLate: (hours: string) => `Appointments can be moved up to ${hours} hours before they start. This one starts sooner: please cancel it or contact the doctor.`,
  /** 409: an appointment moved as often as the rules allow. */
  rescheduleLimit: (times: string) => `This doctor's rules allow at most ${times} moves per appointment, and this one has reached that. You can cancel it and book again.`,
  /** 422: a notice a doctor or clinic sets (issue 35) outside BOOKING_RULE_LIMITS. */
  bookingRulesNoticeInvalid: (max: string, step: string) => `The notice must be between 0 and ${max} minutes, in steps of ${step} minutes`,
  /** 422: a number of moves a doctor or clinic sets outside BOOKING_RULE_LIMITS. */
  bookingRulesReschedulesInvalid: (max: string) => `The number of moves allowed must be between 0 and ${max}`,
  /** 409 (code consultation_begun_no_move): its consultation has begun. */
  consultationBegunNoMove: 'The consultation of this appointment has begun, so it can no longer be moved',
  rescheduleOtherDoctor: 'An appointment can only be moved to another time with the same doctor',
  rescheduleSameSlot: 'This appointment is already at that time',
  /** 409: the slot held for a move was given up because the move took too long to be recorded. */
  rescheduleHoldLost: 'Moving this appointment took too long and was not kept. Please try again.',
  /** 409: a doctor's offer of other times (issue 35) naming the appointment's own time. */
  proposeSameSlot: 'The appointment is already at one of those times',
  /** 409: a doctor offers a time that is not one of their open slots still to come. */
  proposeNotOpen: 'Only your own open times still to come can be offered',
  /** 409: the patient answers an offer that is not there (never made, already answered, or replaced). */
  proposalNone: 'There is no offer of other times to answer',
  /** 409: the patient picks a time the doctor did not offer. */
  proposalSlotNotOffered: 'That time is not one the doctor offered',
  /** 409: the offer's time has passed. */
  proposalExpired: 'The times the doctor offered have expired',
  /** 409: a clinic's no-show policy (issue 35) stops this patient booking with its doctors until a date (YYYY-MM-DD). */
  bookingBlockedByNoShows: (limit: string, months: string, until: string) =>
    `You missed ${limit} or more appointments in the last ${months} months, so this clinic's doctors cannot be booked until ${until}`,
  /** 409: joining a doctor's waitlist (issue 35) while already on it. */
  waitlistAlready: "You are already on this doctor's waitlist. Leave it first to choose other days.",
  /** 422: the days of a waitlist place: from today on, in order, at most a number of days. */
  waitlistDaysInvalid: (days: string) => `Choose days from today on, the first before the last, at most ${days} days in all`,
  /** 404: no place on this doctor's waitlist. */
  waitlistNotFound: "You are not on this doctor's waitlist",
  /** 409: answering an offer that is not (or no longer) there. */
  waitlistNoOffer: 'There is no time offered to you from this waitlist now',
  /** 409: marking the patient absent (issue 35) on an appointment that is not confirmed. */
  noShowNotConfirmed: (status: string) => `This appointment is ${status}: only a confirmed appointment can be marked as a no-show`,
  /** 409: the doctor marks the patient absent before waiting the minutes the rule asks. */
  noShowTooEarly: (minutes: string) => `You can mark the patient absent once ${minutes} minutes of the appointment have passed`,
  /** 409: after the grace, the system has closed (or closes) it as a no-show. */
  noShowTooLate: 'This appointment ended too long ago to be marked now: it is closed as a no-show automatically',
  /** 409: the patient joined the consultation. */
  noShowPatientJoined: 'The patient joined this consultation, so they cannot be marked absent',
  /** 409: a follow-up (issue 35) booked on an appointment that is not a completed consultation. */
  followUpNotCompleted: 'A follow-up can only be booked after a completed consultation',
  /** 409: the consultation's doctor offered no follow-up. */
  followUpNotOffered: 'The doctor did not offer a follow-up for this consultation',
  /** 409: a follow-up with another doctor than the consultation's. */
  followUpOtherDoctor: 'A follow-up can only be booked with the doctor of the earlier consultation',
  /** 409: a follow-up whose time starts after the offer's window (YYYY-MM-DD, the last day). */
  followUpOutsideWindow: (until: string) => `The follow-up must start before the end of the window the doctor offered (${until})`,
  /** 409: a second follow-up on one offer while the first stands. */
  followUpAlreadyBooked: 'A follow-up has already been booked for this consultation',
  /** 422: a follow-up fee above the doctor's own consultation fee. */
  followUpFeeTooHigh: (fee: string) => `The follow-up fee can be at most your consultation fee (${fee})`,
  /** 409 (code consultation_begun): a cancel once the appointment's consultation has begun (someone joined the call). */
  consultationBegunNoCancel: 'The consultation of this appointment has begun, so it can no longer be cancelled; it ends when the call ends',
  doctorNotFound: 'Doctor not found',
  /** 409: the doctor's account is inactive, or an institution they practise through has deactivated them. */
  doctorNotAccepting: 'This doctor is not accepting bookings at the moment',
  /** The reason given to patients whose pending or confirmed appointment was closed because the doctor takes no bookings. */
  doctorNoLongerAvailable: 'Doctor is no longer available',
  /** The reason given on a request closed because its patient withdrew their consent to the privacy notice. */
  consentWithdrawn: 'Consent to the privacy notice was withdrawn',
  userNotFound: 'User not found',
  /** 410: a write would hold personal data of someone whose data key was destroyed (their account was closed by an erasure). */
  personErased: "This account is closed: the person's data was erased, so nothing more can be recorded about them",
  concurrencyExhausted: 'The record changed while saving; please try again',
  prototypeKey: 'Keys named __proto__, constructor or prototype are not allowed',
  tooDeep: 'The request is nested too deeply',
} as const;
