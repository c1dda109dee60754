import type { RequestHandler } from 'express';

/** The one line react-admin shows for an error body: the detail, or the first validation issue with where it was. */
export function errorMessage(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { loc?: unknown; msg?: unknown };
    const where = Array.isArray(first.loc) ? first.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path').join('.') : '';
    if (typeof first.msg === 'string') return where ? `${where}: ${first.msg}` : first.msg;
  }
  return null;
}

/**
 * Errors of the react-admin console's routes carry `message` beside `detail`: ra-data-simple-rest's fetchJson shows
 * `json.message` (else only the status text). Mount on `/admin` of a service's router; every other route keeps `{detail}`.
 */
export const reactAdminErrors: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (res.statusCode >= 400 && body && typeof body === 'object' && 'detail' in body && !('message' in body)) {
      const message = errorMessage((body as { detail: unknown }).detail);
      if (message !== null) return json({ ...body, message });
    }
    return json(body);
  };
  next();
};
