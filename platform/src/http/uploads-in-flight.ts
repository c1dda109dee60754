import { HttpError } from './errors';

/**
 * Uploads under way per person in this process. An upload may trickle for as long as bytes keep coming (the idle
 * timeout only cuts a silent one), so without a bound one account could hold any number of connections, multipart
 * parsers and open blob files. Past the bound: 429 with Retry-After, before a byte of the body is read.
 */
export class UploadsInFlight {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly perPerson: number,
    private readonly refusal: string,
  ) {}

  /** Runs the upload counted against the person, from before its body is read until `upload` settles. */
  async run<T>(personId: string, upload: () => Promise<T>): Promise<T> {
    const running = this.running.get(personId) ?? 0;
    if (running >= this.perPerson) throw new HttpError(429, this.refusal, { 'Retry-After': '5', Connection: 'close' });
    this.running.set(personId, running + 1);
    try {
      return await upload();
    } finally {
      const left = (this.running.get(personId) ?? 1) - 1;
      if (left > 0) this.running.set(personId, left);
      else this.running.delete(personId);
    }
  }
}
