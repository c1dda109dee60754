import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AccountType } from '@telemed/contracts';
import type { ApiSpec } from './api-spec';
import type { TestUser } from './test-app';

export interface StaffInput {
  name: string;
  email: string;
  phone: string;
  account_type: 'ADMIN' | 'DOCTOR' | 'STAFF' | 'USER';
  role_title?: string;
  department?: string;
  specialization?: string;
}

export interface InstitutionInput {
  name: string;
  address: string;
  phone: string;
  email: string;
  staff: StaffInput[];
}

export interface GivenInstitution {
  id: string;
  /** The platform operator who created it. */
  operator: TestUser;
  /** The address an address written in the case was given under (made the case's own). */
  email(written: string): string;
  /** The account of the member written in the case under this address, signed in as this kind of account. */
  member(written: string, accountType: AccountType): Promise<TestUser>;
  /** A member's id in the console (`<institution>~<user>`). */
  memberId(user: TestUser): string;
}

/**
 * The console's body creating this institution for one case: its addresses (the staff's accounts are registered by
 * them) and its slug made the case's own, so the same details can be written in every case; the name and everything
 * else stay as written. `email` gives the address an address written in the case is sent as.
 */
export function uniqueInstitution(input: InstitutionInput): { body: InstitutionInput & { slug: string }; email(written: string): string } {
  const tag = randomUUID().slice(0, 8);
  const email = (written: string) => written.replace('@', `.${tag}@`);
  const slug = `${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${tag}`;
  return { body: { ...input, slug, email: email(input.email), staff: input.staff.map((m) => ({ ...m, email: email(m.email) })) }, email };
}

/**
 * An institution a platform operator (a new one unless given) created through the console with these details and
 * staff, for one case (`uniqueInstitution`).
 */
export async function givenInstitution(spec: ApiSpec, input: InstitutionInput, operator?: TestUser): Promise<GivenInstitution> {
  const { body, email } = uniqueInstitution(input);
  const by = operator ?? (await spec.t.createUser('admin', { name: 'Operator' }));
  const created = await spec.t.http.post('/api/v1/admin/institutions').set(by.auth).send(body);
  assert.equal(created.status, 201, `given: the institution was created (${created.text})`);
  const id = (created.body as { id: string }).id;
  await spec.t.settle();
  return {
    id,
    operator: by,
    email,
    member: (written, accountType) => spec.t.signedIn(email(written), accountType),
    memberId: (user) => `${id}~${user.user_id}`,
  };
}

/** A clinic of two: Lata Rao, its admin, and Ananya Sharma, its doctor (`address`, `phone`, `email` and names as given). */
export function clinicOfTwo(clinic: { name: string; address: string; phone: string; domain: string }): InstitutionInput {
  return {
    name: clinic.name,
    address: clinic.address,
    phone: clinic.phone,
    email: `contact@${clinic.domain}`,
    staff: [
      { name: 'Lata Rao', email: `lata@${clinic.domain}`, phone: '+91 90000 11111', account_type: 'ADMIN' },
      { name: 'Ananya Sharma', email: `ananya@${clinic.domain}`, phone: '+91 90000 22222', account_type: 'DOCTOR' },
    ],
  };
}

/** Such a clinic, given for one case: its admin and its doctor signed in, and the doctor's console id. */
export async function givenClinicOfTwo(spec: ApiSpec, clinic: Parameters<typeof clinicOfTwo>[0]) {
  const given = await givenInstitution(spec, clinicOfTwo(clinic));
  const doctor = await given.member(`ananya@${clinic.domain}`, 'doctor');
  return { clinic: given, clinicAdmin: await given.member(`lata@${clinic.domain}`, 'patient'), doctor, memberId: given.memberId(doctor) };
}

/** Lotus Clinic, a clinic of two (see clinicOfTwo). */
export const LOTUS_CLINIC = { name: 'Lotus Clinic', address: '4 Park Street', phone: '+91 33 4000 1234', domain: 'lotus.in' };
