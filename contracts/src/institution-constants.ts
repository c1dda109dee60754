/* Institution constants without a schema library, so the frontend can import them. */

/** Institution roles and permissions, with the seeds' defaults. */
export const STAFF_ROLES = ['USER', 'STAFF', 'ADMIN', 'DOCTOR', 'SUPER_DOCTOR'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const PERMISSIONS = ['read', 'write', 'delete', 'appointments', 'basic_operations', 'manage_users', 'manage_staff', 'manage_institution'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const DEFAULT_ROLE_PERMISSIONS: Record<StaffRole, Permission[]> = {
  USER: ['read', 'appointments'],
  STAFF: ['read', 'basic_operations'],
  ADMIN: ['read', 'write', 'delete', 'manage_users'],
  DOCTOR: ['read', 'write', 'appointments'],
  SUPER_DOCTOR: ['read', 'write', 'delete', 'appointments', 'manage_staff', 'manage_institution'],
};

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DEFAULT_HOURS_OF_OPERATION: Record<Weekday, string | null> = {
  MO: '09:00-17:00',
  TU: '09:00-17:00',
  WE: '09:00-17:00',
  TH: '09:00-17:00',
  FR: '09:00-17:00',
  SA: '09:00-13:00',
  SU: null,
};

export const DOCTOR_ROLES: readonly StaffRole[] = ['DOCTOR', 'SUPER_DOCTOR'];

/** The slug derived from a name as the seeds say: lowercase letters, digits and hyphens (at most 63, no hyphen at either end). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}
