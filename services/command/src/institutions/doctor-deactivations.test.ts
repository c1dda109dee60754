import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STAFF_ROLES } from '@telemed/contracts';
import { evolveInstitution, institutionDecider, type InstitutionCommand, type InstitutionEvent, type InstitutionState, type StaffCandidate } from './institution';
import { deactivatesDoctor, doctorDeactivationsFold } from './doctor-deactivations';

/** A platform admin asks: these tests are about the fold, not about who may change the staff. */
const PLATFORM = { user_id: 'platform-admin', platform_admin: true };

/** The reference, read off the institution's own state: an active institution's member whose staff id it deactivated. */
function deactivatedHere(state: InstitutionState, userId: string): boolean {
  if (state.status !== 'active') return false;
  const member = [...state.staff.values()].find((m) => m.user_id === userId);
  return member !== undefined && state.deactivated.has(member.staff_id);
}

/** A small deterministic generator (mulberry32), so a failure names its seed and repeats. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const institution_id = 'inst-1';
const users = ['u1', 'u2', 'u3'];

/** A history the institution's decider itself writes: random commands, the refused ones skipped. */
function history(seed: number, length: number): InstitutionEvent[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const events: InstitutionEvent[] = [];
  let state = institutionDecider.initialState();
  const run = (command: InstitutionCommand) => {
    try {
      for (const event of institutionDecider.decide(command, state)) {
        events.push(event);
        state = evolveInstitution(state, event);
      }
    } catch {
      // refused: the decider never writes it
    }
  };
  const candidate = (user_id: string, n: number): StaffCandidate => {
    const role = pick(STAFF_ROLES);
    return {
      member: { staff_id: `${user_id}-${n}`, user_id, name: 'n', email: 'e@x.in', phone: '+91 90000 00000', role, role_title: null, department: null, specialization: null, is_institution_admin: role === 'ADMIN' },
      existing_account: true,
      invitation_id: `inv-${n}`,
    };
  };
  run({
    type: 'CreateInstitution',
    data: {
      institution: { institution_id, name: 'Sunrise', slug: 'sunrise', address: 'x', phone: 'x', email: 'x@y.in', hours_of_operation: {}, role_permissions: {} },
      staff: [candidate('admin', 0)],
    },
  });
  for (let i = 1; i <= length; i += 1) {
    const user_id = pick(users);
    const kind = pick(['add', 'add', 'remove', 'active', 'active', 'active', 'role', 'role', 'disband'] as const);
    if (kind === 'add') {
      // An existing account is invited; it joins when its owner accepts (mostly).
      run({ type: 'AddStaff', data: { ...candidate(user_id, i), by: PLATFORM } });
      if (next() < 0.8) run({ type: 'AcceptInvitation', data: { invitation_id: `inv-${i}`, user_id } });
    }
    else if (kind === 'remove') run({ type: 'RemoveStaff', data: { user_id, doctors_only: next() < 0.5, by: PLATFORM } });
    else if (kind === 'active') run({ type: 'SetDoctorActive', data: { user_id, active: next() < 0.5 } });
    else if (kind === 'role') run({ type: 'ChangeStaffRole', data: { user_id, role: pick(STAFF_ROLES), doctor_account: true, by: { user_id: 'operator', platform_admin: true } } });
    else if (next() < 0.1) run({ type: 'DisbandInstitution', data: {} });
  }
  return events;
}

describe("booking's fold of an institution's doctor deactivations", () => {
  it("agrees with the institution's own fold after every event of many histories its decider writes", () => {
    let deactivations = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      let full = institutionDecider.initialState();
      let narrow = doctorDeactivationsFold.initialState();
      for (const event of history(seed, 40)) {
        if (event.type === 'InstitutionDoctorDeactivated') deactivations += 1;
        full = evolveInstitution(full, event);
        narrow = doctorDeactivationsFold.evolve(narrow, event);
        for (const user of users) {
          assert.equal(deactivatesDoctor(narrow, user), deactivatedHere(full, user), `seed ${seed}, ${event.type}, ${user}`);
        }
      }
    }
    assert.ok(deactivations > 100, `the histories deactivate doctors (${deactivations} times)`);
  });
});
