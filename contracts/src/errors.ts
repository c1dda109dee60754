/** A rule of the domain said no. Deciders throw these; the HTTP layer maps the kind to a status. */
export type DomainErrorKind = 'not_found' | 'conflict' | 'forbidden' | 'invalid';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const invalid = (message: string) => new DomainError('invalid', message);
