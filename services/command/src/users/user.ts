import { match } from 'ts-pattern';
import {
  API_TEXTS,
  BOOKING_RULE_LIMITS,
  bookingRulesProblem,
  conflict,
  erasureLegalHold,
  forbidden,
  notFound,
  invalid,
  type AccountType,
  type BookingRules,
  type DomainEventOf,
  type DoctorProfile,
} from '@telemed/contracts';
import { LANGUAGE_CODES, type LanguageCode } from '@telemed/contracts/languages';
import type { Decider } from '../decider';

export type UserEvent = DomainEventOf<
  | 'UserRegistered'
  | 'UserProfileUpdated'
  | 'UserLanguageChosen'
  | 'PatientSubscribedToDoctor'
  | 'DoctorRegistered'
  | 'DoctorProfileUpdated'
  | 'DoctorBookingRulesSet'
  | 'DoctorBookingRulesCleared'
  | 'UserDeactivated'
  | 'UserReactivated'
  | 'PasswordSet'
  | 'ConsentGiven'
  | 'ConsentWithdrawn'
  | 'PersonalDataErased'
  | 'ClinicalRecordsDestroyed'
>;

export type UserState =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      user_id: string;
      account_type: AccountType;
      email: string | null;
      name: string;
      phone_number: string | null;
      doctor: (DoctorProfile & { doctor_number: number }) | null;
      subscriptions: ReadonlySet<string>;
      active: boolean;
      password_hash: string | null;
      /** The language the person chose for their screens and messages; null until they choose one. */
      language: LanguageCode | null;
      /** A doctor's own cancellation and reschedule rules (issue 35); null until they set them (their clinics' apply). */
      booking_rules: BookingRules | null;
    }
  /** Erased at the person's request: their data key is destroyed; the account can never be used again. */
  | { status: 'erased'; user_id: string; account_type: AccountType; clinical_records_destroyed: boolean };

export type UserCommand =
  | {
      type: 'RegisterUser';
      data: {
        user_id: string;
        email: string | null;
        name: string;
        account_type: AccountType;
        phone_number: string | null;
        doctor: (DoctorProfile & { doctor_number: number }) | null;
      };
    }
  | { type: 'UpdateProfile'; data: { name?: string; phone_number?: string | null; doctor?: Partial<DoctorProfile>; language?: LanguageCode } }
  | { type: 'SubscribeToDoctor'; data: { doctor_id: string; doctor_exists: boolean } }
  /** A doctor sets their own booking rules (issue 35), all of them at once. */
  | { type: 'SetBookingRules'; data: BookingRules }
  /** Back to the clinics' defaults (else the product's); nothing when the doctor has no rules of their own. */
  | { type: 'ClearBookingRules' }
  | { type: 'DeactivateUser'; data: { reason: string } }
  | { type: 'ReactivateUser'; data: Record<string, never> }
  | { type: 'SetPassword'; data: { password_hash: string } }
  /** Erasure (right to erasure): `kept` is the legal hold, answered to the request. */
  | {
      type: 'EraseUserData';
      data: { requested_by: 'self' | 'platform_admin'; clinical_records_retained_until: string };
    }
  | { type: 'DestroyClinicalRecords' };

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export function evolveUser(state: UserState, event: UserEvent): UserState {
  return match(event)
    .with({ type: 'UserRegistered' }, ({ data }): UserState => ({
      status: 'registered',
      user_id: data.user_id,
      account_type: data.account_type,
      email: data.email,
      name: data.name,
      phone_number: data.phone_number,
      doctor: null,
      subscriptions: new Set(),
      active: true,
      password_hash: null,
      language: null,
      booking_rules: null,
    }))
    .with({ type: 'UserProfileUpdated' }, ({ data }): UserState =>
      state.status === 'registered'
        ? {
            ...state,
            name: data.name ?? state.name,
            phone_number: data.phone_number === undefined ? state.phone_number : data.phone_number,
          }
        : state,
    )
    .with({ type: 'UserLanguageChosen' }, ({ data }): UserState => (state.status === 'registered' ? { ...state, language: data.language } : state))
    .with({ type: 'DoctorRegistered' }, ({ data }): UserState => {
      if (state.status !== 'registered') return state;
      const { doctor_id: _id, ...profile } = data;
      void _id;
      // Registrations written before doctors had a city or languages carry none: none, not unknown ones.
      return { ...state, doctor: { ...profile, city: profile.city ?? null, languages: profile.languages ?? [] } };
    })
    .with({ type: 'DoctorProfileUpdated' }, ({ data }): UserState => {
      if (state.status !== 'registered' || !state.doctor) return state;
      const { doctor_id: _id, ...changes } = data;
      void _id;
      return { ...state, doctor: { ...state.doctor, ...stripUndefined(changes) } };
    })
    .with({ type: 'DoctorBookingRulesSet' }, ({ data }): UserState =>
      state.status === 'registered' && state.doctor ? { ...state, booking_rules: rulesOf(data) } : state,
    )
    .with({ type: 'DoctorBookingRulesCleared' }, (): UserState => (state.status === 'registered' ? { ...state, booking_rules: null } : state))
    .with({ type: 'PatientSubscribedToDoctor' }, ({ data }): UserState =>
      state.status === 'registered' ? { ...state, subscriptions: new Set([...state.subscriptions, data.doctor_id]) } : state,
    )
    .with({ type: 'UserDeactivated' }, (): UserState => (state.status === 'registered' ? { ...state, active: false } : state))
    .with({ type: 'UserReactivated' }, (): UserState => (state.status === 'registered' ? { ...state, active: true } : state))
    .with({ type: 'PasswordSet' }, ({ data }): UserState =>
      state.status === 'registered' ? { ...state, password_hash: data.password_hash } : state,
    )
    // Consents share the user's stream; the consent decider (../consents) folds them.
    .with({ type: 'ConsentGiven' }, { type: 'ConsentWithdrawn' }, (): UserState => state)
    .with({ type: 'PersonalDataErased' }, (): UserState =>
      state.status === 'registered' ? { status: 'erased', user_id: state.user_id, account_type: state.account_type, clinical_records_destroyed: false } : state,
    )
    .with({ type: 'ClinicalRecordsDestroyed' }, (): UserState => (state.status === 'erased' ? { ...state, clinical_records_destroyed: true } : state))
    .exhaustive();
}

/** The rules as the event records them. */
export function rulesOf(data: DomainEventOf<'DoctorBookingRulesSet'>['data']): BookingRules {
  return {
    minNoticeMinutes: data.min_notice_minutes,
    maxReschedules: data.max_reschedules,
    lateCancellation: data.late_cancellation,
    autoAcceptMoves: data.auto_accept_moves,
  };
}

/** A doctor's rules within BOOKING_RULE_LIMITS (else 422); the same rules again record nothing. */
function setBookingRules(rules: BookingRules, current: UserState): UserEvent[] {
  const state = activeUser(current);
  if (!state.doctor) throw forbidden(API_TEXTS.forbiddenRole);
  const problem = bookingRulesProblem(rules);
  const { minNoticeMinutes: notice, maxReschedules: moves } = BOOKING_RULE_LIMITS;
  if (problem === 'notice') throw invalid(API_TEXTS.bookingRulesNoticeInvalid(String(notice.max), String(notice.step)));
  if (problem === 'reschedules') throw invalid(API_TEXTS.bookingRulesReschedulesInvalid(String(moves.max)));
  const before = state.booking_rules;
  const same =
    before !== null &&
    before.minNoticeMinutes === rules.minNoticeMinutes &&
    before.maxReschedules === rules.maxReschedules &&
    before.lateCancellation === rules.lateCancellation &&
    before.autoAcceptMoves === rules.autoAcceptMoves;
  if (same) return [];
  const data = {
    doctor_id: state.user_id,
    min_notice_minutes: rules.minNoticeMinutes,
    max_reschedules: rules.maxReschedules,
    late_cancellation: rules.lateCancellation,
    auto_accept_moves: rules.autoAcceptMoves,
  };
  return [{ type: 'DoctorBookingRulesSet', data }];
}

/** A deactivated account answers as if it did not exist. */
function activeUser(state: UserState) {
  if (state.status !== 'registered' || !state.active) throw notFound(API_TEXTS.userNotFound);
  return state;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function register(command: Extract<UserCommand, { type: 'RegisterUser' }>, state: UserState): UserEvent[] {
  if (state.status !== 'unregistered') throw conflict('This user already exists');
  const { doctor, ...user } = command.data;
  if (user.account_type === 'doctor' && !doctor) throw invalid('A doctor needs a practitioner profile');
  const events: UserEvent[] = [{ type: 'UserRegistered', data: user }];
  if (user.account_type === 'doctor' && doctor) {
    events.push({ type: 'DoctorRegistered', data: { doctor_id: user.user_id, ...doctor } });
  }
  return events;
}

/** A doctor's languages as they are recorded: each once, in the order the product lists languages. */
const inProductOrder = (languages: readonly LanguageCode[]): LanguageCode[] => LANGUAGE_CODES.filter((code) => languages.includes(code));

const sameValue = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b);

function updateProfile(command: Extract<UserCommand, { type: 'UpdateProfile' }>, current: UserState): UserEvent[] {
  const state = activeUser(current);
  const events: UserEvent[] = [];
  const { name, phone_number, doctor, language } = command.data;
  const userChanges: { name?: string; phone_number?: string | null } = {};
  if (name !== undefined && name !== state.name) userChanges.name = name;
  if (phone_number !== undefined && phone_number !== state.phone_number) userChanges.phone_number = phone_number;
  if (Object.keys(userChanges).length > 0) {
    events.push({ type: 'UserProfileUpdated', data: { user_id: state.user_id, ...userChanges } });
  }
  if (language !== undefined && language !== state.language) {
    events.push({ type: 'UserLanguageChosen', data: { user_id: state.user_id, language } });
  }
  if (doctor && Object.keys(stripUndefined(doctor)).length > 0) {
    if (!state.doctor) throw invalid('Only doctors have a practitioner profile');
    const current = state.doctor;
    const asked = stripUndefined({ ...doctor, languages: doctor.languages && inProductOrder(doctor.languages) });
    const changed = Object.fromEntries(
      Object.entries(asked).filter(([key, value]) => !sameValue(current[key as keyof DoctorProfile], value)),
    ) as Partial<DoctorProfile>;
    if (Object.keys(changed).length > 0) {
      events.push({ type: 'DoctorProfileUpdated', data: { doctor_id: state.user_id, ...changed } });
    }
  }
  return events;
}

function subscribe(command: Extract<UserCommand, { type: 'SubscribeToDoctor' }>, current: UserState): UserEvent[] {
  const state = activeUser(current);
  if (state.account_type !== 'patient') throw invalid('Only patients add doctors to their list');
  if (!command.data.doctor_exists) throw notFound(API_TEXTS.doctorNotFound);
  if (state.subscriptions.has(command.data.doctor_id)) return [];
  return [{ type: 'PatientSubscribedToDoctor', data: { patient_id: state.user_id, doctor_id: command.data.doctor_id } }];
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: initialUserState,
  evolve: evolveUser,
  decide: (command, state) =>
    match(command)
      .with({ type: 'RegisterUser' }, (c) => register(c, state))
      .with({ type: 'UpdateProfile' }, (c) => updateProfile(c, state))
      .with({ type: 'SubscribeToDoctor' }, (c) => subscribe(c, state))
      .with({ type: 'SetBookingRules' }, ({ data }) => setBookingRules(data, state))
      .with({ type: 'ClearBookingRules' }, (): UserEvent[] => {
        const doctor = activeUser(state);
        if (!doctor.doctor) throw forbidden(API_TEXTS.forbiddenRole);
        return doctor.booking_rules ? [{ type: 'DoctorBookingRulesCleared', data: { doctor_id: doctor.user_id } }] : [];
      })
      .with({ type: 'DeactivateUser' }, ({ data }): UserEvent[] => {
        if (state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
        return state.active ? [{ type: 'UserDeactivated', data: { user_id: state.user_id, reason: data.reason } }] : [];
      })
      .with({ type: 'ReactivateUser' }, (): UserEvent[] => {
        // An erased account is gone for good: its key is destroyed.
        if (state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
        return state.active ? [] : [{ type: 'UserReactivated', data: { user_id: state.user_id } }];
      })
      .with({ type: 'SetPassword' }, ({ data }): UserEvent[] => {
        const user = activeUser(state);
        if (!data.password_hash.startsWith('$argon2')) throw new Error('SetPassword takes an argon2 hash, never a password');
        return [{ type: 'PasswordSet', data: { user_id: user.user_id, password_hash: data.password_hash } }];
      })
      .with({ type: 'EraseUserData' }, ({ data }): UserEvent[] => {
        // Again on an erased account: nothing new to record (the caller destroys the key again, idempotently).
        if (state.status === 'erased') return [];
        if (state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
        return [
          {
            type: 'PersonalDataErased',
            data: {
              user_id: state.user_id,
              requested_by: data.requested_by,
              // What is kept depends on what the account is: a patient's own records, a doctor's issued ones and facts.
              kept: erasureLegalHold(state.account_type).map((k) => ({ ...k })),
              clinical_records_retained_until: data.clinical_records_retained_until,
            },
          },
        ];
      })
      .with({ type: 'DestroyClinicalRecords' }, (): UserEvent[] =>
        // Only for an erased person, once (the caller destroys the key again, idempotently).
        state.status === 'erased' && !state.clinical_records_destroyed ? [{ type: 'ClinicalRecordsDestroyed', data: { user_id: state.user_id } }] : [],
      )
      .exhaustive(),
};
