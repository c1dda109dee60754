/* The react-admin console's shared vocabulary (issue 15), without a schema library so the frontend can import it. */

export const ADMIN_RESOURCES = ['institutions', 'staff', 'doctors', 'appointments', 'users', 'projections', 'messages'] as const;
export type AdminResource = (typeof ADMIN_RESOURCES)[number];
/** react-admin's action names, as its canAccess asks them. */
export const ADMIN_ACTIONS = ['list', 'show', 'create', 'edit', 'delete', 'export'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** What the caller may do in the console, by resource: the authProvider's canAccess reads this. */
export interface AdminPermissions {
  user_id: string;
  /** 'platform_admin' for operators, 'institution' for an institution's members, 'none' for everyone else. */
  kind: 'platform_admin' | 'institution' | 'none';
  institutions: Array<{ id: string; name: string; role: string; is_institution_admin: boolean; permissions: string[] }>;
  resources: Partial<Record<AdminResource, AdminAction[]>>;
}

/** The composite id of an institution's member (staff and doctors resources): `<institution_id>~<user_id>`. */
export const memberId = (institutionId: string, userId: string) => `${institutionId}~${userId}`;
export function parseMemberId(id: string): { institution_id: string; user_id: string } | null {
  const parts = id.split('~');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return null;
  return { institution_id: parts[0], user_id: parts[1] };
}

/**
 * The longest span of appointment starts one search of notes reads (the console's From and To): notes have no index,
 * so a search reads every appointment the other filters leave; the window keeps that to a month, never the history.
 */
export const NOTES_SEARCH_MAX_DAYS = 31;

export const ADMIN_TEXTS = {
  notesNotReadable: 'Searching notes is for institution staff who may read appointments',
  notesSearchWindow: `Searching notes needs From and To (start_gte, start_lte) at most ${NOTES_SEARCH_MAX_DAYS} days apart`,
  institutionRequired: 'Choose an institution (filter institution_id)',
  memberNotFound: 'Staff member not found',
  sortNotOffered: 'This order is not offered with these filters: sort by date',
} as const;

/**
 * A spreadsheet cell that a spreadsheet opens as text (the console's CSV downloads, server and browser): quoted, quotes
 * doubled, and a value that a spreadsheet would read as a formula (a leading = + - @, tab or carriage return, also after
 * leading spaces, and their full-width forms ＝ ＋ － ＠) starts with an apostrophe instead (OWASP's CSV injection advice).
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[\s\u3000]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** CSV text: a header row of the columns (bare when plain names), a row per record (cells as {@link csvCell}), CRLF line ends. */
export function csvOf(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const header = columns.map((c) => (/^[A-Za-z0-9_.]+$/.test(c) ? c : csvCell(c))).join(',');
  return [header, ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n') + '\r\n';
}
