import { randomUUID } from 'node:crypto';
import {
  DEFAULT_HOURS_OF_OPERATION,
  DEFAULT_ROLE_PERMISSIONS,
  DOCTOR_ROLES,
  INSTITUTION_TEXTS,
  STAFF_ROLES,
  conflict,
  streams,
  type Permission,
  type StaffRole,
  type z,
  type createInstitutionSchema,
  type addDoctorSchema,
} from '@telemed/contracts';
import { HttpError, type AccessClaims, type EventStore } from '@telemed/platform';
import { handleCommand, readStream, type CommandContext } from '../decider';
import { findUserIdByEmail, registerUser } from '../users/service';
import { accountStatus } from '../users/account-standing';
import { normalizeEmail } from '../identity/email';
import { institutionDecider, slugDecider, staffChangeRefusal, type StaffActor, type StaffCandidate, type StaffMember } from './institution';
import { institutionOutlinesOf, loadInstitution } from './load-institution';

type CreateInput = z.output<typeof createInstitutionSchema>;
type AddDoctorInput = z.output<typeof addDoctorSchema>;

/**
 * Finds the account of a staff member by e-mail, or creates it: a doctor account for doctor roles (they sign in
 * with Google later and land on it), otherwise a patient account. A doctor role needs a doctor account. Says whether
 * the account existed: an existing account is only invited (the decider's rule), a new one joins directly.
 */
async function provisionAccount(
  eventStore: EventStore,
  person: { name: string; email: string; phone: string; role: StaffRole; specialty?: string; qualification?: string; consultation_fee?: number },
  context: CommandContext,
): Promise<{ user_id: string; existing_account: boolean }> {
  const wantsDoctor = DOCTOR_ROLES.includes(person.role);
  const existing = await findUserIdByEmail(eventStore, person.email);
  if (existing) {
    const user = await accountStatus(eventStore, existing);
    if (wantsDoctor && (user.status !== 'registered' || user.account_type !== 'doctor')) throw conflict(INSTITUTION_TEXTS.notADoctorAccount);
    return { user_id: existing, existing_account: true };
  }
  const { user_id } = await registerUser(
    eventStore,
    {
      email: person.email,
      name: person.name,
      account_type: wantsDoctor ? 'doctor' : 'patient',
      phone_number: person.phone,
      doctor: wantsDoctor ? { specialty: person.specialty, qualification: person.qualification, consultation_fee: person.consultation_fee } : undefined,
    },
    context,
  );
  return { user_id, existing_account: false };
}

function member(userId: string, p: { name: string; email: string; phone: string; role: StaffRole; role_title?: string; department?: string; specialization?: string }): StaffMember {
  return {
    staff_id: randomUUID(),
    user_id: userId,
    name: p.name,
    email: p.email.toLowerCase(),
    phone: p.phone,
    role: p.role,
    role_title: p.role_title ?? null,
    department: p.department ?? null,
    specialization: p.specialization ?? null,
    is_institution_admin: p.role === 'ADMIN',
  };
}

/**
 * Refuses, before anything is written, staff whose account cannot take their role (a doctor role on a patient's
 * address, or on an address that an earlier line of the same request makes a patient's): provisioning would
 * otherwise have claimed the slug and created the earlier staff's accounts for an institution that is refused.
 */
async function assertStaffAccountsFit(eventStore: EventStore, staff: CreateInput['staff']): Promise<void> {
  const isDoctorAccount = new Map<string, boolean>();
  for (const s of staff) {
    const email = normalizeEmail(s.email);
    if (!isDoctorAccount.has(email)) {
      const existing = await findUserIdByEmail(eventStore, email);
      const user = existing ? await accountStatus(eventStore, existing) : null;
      isDoctorAccount.set(email, user ? user.status === 'registered' && user.account_type === 'doctor' : DOCTOR_ROLES.includes(s.account_type));
    }
    if (DOCTOR_ROLES.includes(s.account_type) && !isDoctorAccount.get(email)) throw conflict(INSTITUTION_TEXTS.notADoctorAccount);
  }
}

/** Whether the slug is held by an institution that was written (one whose creation crashed half-way may be taken over). */
async function slugHolderExists(eventStore: EventStore, slug: string): Promise<boolean> {
  const { state } = await readStream(eventStore, streams.institutionSlug(slug), slugDecider);
  return state.institution_id !== null && (await eventStore.readStream(streams.institution(state.institution_id), { maxCount: 1 })).length > 0;
}

/**
 * Refuses a slug another institution holds, before anything else is looked at: a route that answers with the staff's
 * accounts records that read first, and a request refused for its slug shows none of them. The claim itself still
 * decides (two requests for one slug at once).
 */
export async function assertSlugFree(eventStore: EventStore, slug: string): Promise<void> {
  if (await slugHolderExists(eventStore, slug)) throw conflict(INSTITUTION_TEXTS.slugTaken);
}

export async function createInstitution(eventStore: EventStore, input: CreateInput, context: CommandContext) {
  await assertStaffAccountsFit(eventStore, input.staff);
  const institution_id = randomUUID();
  const slugStream = streams.institutionSlug(input.slug);
  const holderExists = await slugHolderExists(eventStore, input.slug);
  await handleCommand(eventStore, slugStream, slugDecider, { type: 'ClaimSlug', data: { slug: input.slug, institution_id, holder_exists: holderExists } }, context);

  const staff: StaffCandidate[] = [];
  for (const s of input.staff) {
    const account = await provisionAccount(eventStore, { ...s, role: s.account_type, specialty: s.specialization }, context);
    staff.push({ member: member(account.user_id, { ...s, role: s.account_type }), existing_account: account.existing_account, invitation_id: randomUUID() });
  }
  const role_permissions = Object.fromEntries(
    STAFF_ROLES.map((role) => [role, [...new Set<Permission>(input.role_permissions?.[role] ?? DEFAULT_ROLE_PERMISSIONS[role])]]),
  );
  const result = await handleCommand(
    eventStore,
    streams.institution(institution_id),
    institutionDecider,
    {
      type: 'CreateInstitution',
      data: {
        institution: {
          institution_id,
          name: input.name,
          slug: input.slug,
          address: input.address,
          phone: input.phone,
          email: input.email.toLowerCase(),
          hours_of_operation: { ...DEFAULT_HOURS_OF_OPERATION, ...(input.hours_of_operation ?? {}) },
          role_permissions,
        },
        staff,
      },
    },
    context,
  );
  return { institution_id, position: result.position };
}

/** The caller as the institution's decider weighs a change to its staff. */
export function staffActor(auth: Pick<AccessClaims, 'user_id' | 'account_type'>): StaffActor {
  return { user_id: auth.user_id, platform_admin: auth.account_type === 'admin' };
}

/**
 * The institution's standing, before any account is looked up or created for a new member: refused (disbanded, or a
 * role beyond the caller's rights) without a trace. The decider checks the same again on the stream it writes.
 */
async function mayAddToStaff(eventStore: EventStore, institutionId: string, by: StaffActor, role: StaffRole) {
  const { state } = await institutionOutlinesOf(eventStore).current(streams.institution(institutionId));
  if (state.status !== 'active') throw conflict(INSTITUTION_TEXTS.disbanded);
  const refusal = staffChangeRefusal(state, by, role);
  if (refusal) throw new HttpError(refusal === INSTITUTION_TEXTS.institutionNotFound ? 404 : 403, refusal);
}

export async function addDoctor(eventStore: EventStore, institutionId: string, input: AddDoctorInput, by: StaffActor, context: CommandContext) {
  await mayAddToStaff(eventStore, institutionId, by, 'DOCTOR');
  const account = await provisionAccount(
    eventStore,
    { name: input.name, email: input.email, phone: input.phone_number, role: 'DOCTOR', specialty: input.specialty, qualification: input.qualification, consultation_fee: input.consultation_fee },
    context,
  );
  const userId = account.user_id;
  const result = await handleCommand(
    eventStore,
    streams.institution(institutionId),
    institutionDecider,
    {
      type: 'AddStaff',
      data: {
        member: member(userId, { name: input.name, email: input.email, phone: input.phone_number, role: 'DOCTOR', specialization: input.specialty }),
        existing_account: account.existing_account,
        invitation_id: randomUUID(),
        by,
      },
    },
    context,
    () => loadInstitution(eventStore, institutionId),
  );
  const joined = result.state.status !== 'none' && [...result.state.staff.values()].some((m) => m.user_id === userId);
  const invitation = result.state.status === 'none' ? undefined : [...result.state.invitations.values()].find((i) => i.user_id === userId);
  return { doctor_id: userId, position: result.position, status: joined ? ('success' as const) : ('invited' as const), invitation_id: joined ? null : (invitation?.invitation_id ?? null) };
}

/**
 * Adds anyone to the staff in any role (the console's staff resource): the account is found or created as for the
 * institution's creation, then the decider's AddStaff (a new account joins, an existing one is invited).
 */
export async function addStaffMember(
  eventStore: EventStore,
  institutionId: string,
  input: { name: string; email: string; phone: string; role: StaffRole; role_title?: string; department?: string; specialization?: string },
  by: StaffActor,
  context: CommandContext,
) {
  await mayAddToStaff(eventStore, institutionId, by, input.role);
  const account = await provisionAccount(eventStore, { ...input, specialty: input.specialization }, context);
  const candidate = member(account.user_id, input);
  const result = await handleCommand(
    eventStore,
    streams.institution(institutionId),
    institutionDecider,
    { type: 'AddStaff', data: { member: candidate, existing_account: account.existing_account, invitation_id: randomUUID(), by } },
    context,
    () => loadInstitution(eventStore, institutionId),
  );
  const joined = result.state.status !== 'none' ? [...result.state.staff.values()].find((m) => m.user_id === account.user_id) : undefined;
  const invitation = result.state.status === 'none' ? undefined : [...result.state.invitations.values()].find((i) => i.user_id === account.user_id);
  const recorded = joined ?? invitation ?? candidate;
  return {
    member: recorded,
    position: result.position,
    status: joined ? ('success' as const) : ('invited' as const),
    invitation_id: joined ? null : (invitation?.invitation_id ?? null),
  };
}

/** The invitee answers; the decider refuses anyone else as if the invitation did not exist. */
export async function answerInvitation(
  eventStore: EventStore,
  institutionId: string,
  answer: { invitation_id: string; user_id: string; accept: boolean },
  context: CommandContext,
) {
  const data = { invitation_id: answer.invitation_id, user_id: answer.user_id };
  const command = answer.accept ? ({ type: 'AcceptInvitation', data } as const) : ({ type: 'DeclineInvitation', data } as const);
  const result = await handleCommand(eventStore, streams.institution(institutionId), institutionDecider, command, context, () => loadInstitution(eventStore, institutionId));
  return { position: result.position };
}

/** Activates or deactivates one of the institution's doctors (the console's doctors resource). */
export async function setDoctorActive(eventStore: EventStore, institutionId: string, userId: string, active: boolean, context: CommandContext) {
  return handleCommand(eventStore, streams.institution(institutionId), institutionDecider, { type: 'SetDoctorActive', data: { user_id: userId, active } }, context, () =>
    loadInstitution(eventStore, institutionId),
  );
}

/**
 * Gives a member another role (the console's staff edit). Whether their account is a doctor's (which doctor roles
 * need) is read from their own stream; the asker's standing is the decider's to check.
 */
export async function changeStaffRole(
  eventStore: EventStore,
  institutionId: string,
  change: { user_id: string; role: StaffRole; by: { user_id: string; platform_admin: boolean } },
  context: CommandContext,
) {
  const user = await accountStatus(eventStore, change.user_id);
  const doctor_account = user.status === 'registered' && user.account_type === 'doctor';
  return handleCommand(eventStore, streams.institution(institutionId), institutionDecider, { type: 'ChangeStaffRole', data: { ...change, doctor_account } }, context, () =>
    loadInstitution(eventStore, institutionId),
  );
}
