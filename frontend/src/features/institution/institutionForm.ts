import { DEFAULT_HOURS_OF_OPERATION, DOCTOR_ROLES, WEEKDAYS, type StaffRole, type Weekday } from '@telemed/contracts/institution-constants';
import type { Translate } from '../../i18n/useT';

/** A day of each weekday (1 January 2024 was a Monday), for its name in a language. */
const WEEKDAY_DATES: Record<Weekday, number> = { MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6, SU: 7 };

/** 'Monday' … 'Sunday' in a language (`Intl`'s names: 'सोमवार' in Hindi). */
export function weekdayName(day: Weekday, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, WEEKDAY_DATES[day])));
}

/** One weekday's hours as the form edits them: open or closed, with opening and closing times. */
export interface DayHours {
  open: boolean;
  from: string;
  to: string;
}

export type HoursForm = Record<Weekday, DayHours>;

/** The seeds' default hours (09:00-17:00 weekdays, 09:00-13:00 Saturday, closed Sunday) as form values. */
export function defaultHours(): HoursForm {
  return Object.fromEntries(
    WEEKDAYS.map((day) => {
      const range = DEFAULT_HOURS_OF_OPERATION[day];
      return [day, range ? { open: true, from: range.slice(0, 5), to: range.slice(6) } : { open: false, from: '09:00', to: '17:00' }];
    }),
  ) as HoursForm;
}

/** The wire form: 'HH:MM-HH:MM' per open day, null when closed. */
export function hoursPayload(hours: HoursForm): Record<Weekday, string | null> {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, hours[day].open ? `${hours[day].from}-${hours[day].to}` : null])) as Record<Weekday, string | null>;
}

/** What is wrong with the first day whose closing time is not after its opening time, in the reader's language; or null. */
export function hoursProblem(hours: HoursForm, t: Translate): string | null {
  const bad = WEEKDAYS.find((day) => hours[day].open && !(hours[day].from < hours[day].to));
  return bad ? t('institution.closingBeforeOpening', { day: weekdayName(bad, t.intl.locale) }) : null;
}

export interface StaffForm {
  name: string;
  email: string;
  phone: string;
  account_type: StaffRole;
  role_title: string;
  department: string;
  specialization: string;
}

export const emptyStaff = (): StaffForm => ({ name: '', email: '', phone: '', account_type: 'ADMIN', role_title: '', department: '', specialization: '' });

export const isDoctorRole = (role: StaffRole) => DOCTOR_ROLES.includes(role);

/** A staff entry for the wire: optional texts only when given; specialization only for doctor roles. */
export function staffPayload(member: StaffForm) {
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    name: member.name.trim(),
    email: member.email.trim(),
    phone: member.phone.trim(),
    account_type: member.account_type,
    role_title: optional(member.role_title),
    department: optional(member.department),
    specialization: isDoctorRole(member.account_type) ? optional(member.specialization) : undefined,
  };
}
