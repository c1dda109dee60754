/** A rule of the domain said no. Deciders throw these; the HTTP layer maps the kind to a status. */
export type DomainErrorKind = 'not_found' | 'conflict' | 'forbidden' | 'invalid' | 'payment_required';

/**
 * The stable `code` an error answer carries beside its `detail` (which is for people and may be reworded), for
 * screens to translate and clients to act on.
 */
export const ERROR_CODES = {
  /** 409: the appointment's consultation has begun; it ends with the call, it is not cancelled. */
  consultationBegun: 'consultation_begun',
  /** 409: a consultation, or a record of one, for an appointment that is not confirmed (cancelled, rejected, ...). */
  appointmentNotConfirmed: 'appointment_not_confirmed',
  /** 409: a concurrent writer kept changing what this request was saving; trying again is safe. */
  concurrentChange: 'concurrent_change',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, code?: ErrorCode) => new DomainError('conflict', message, code);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const invalid = (message: string) => new DomainError('invalid', message);
/** 402: the patient's credits do not cover what they asked for (issue 36). */
export const paymentRequired = (message: string) => new DomainError('payment_required', message);
