import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { STAFF_ROLES, streams } from '@telemed/contracts';
import { SqliteEventStore } from '@telemed/platform';
import { handleCommand, readStream, systemContext } from '../decider';
import { institutionDecider, type InstitutionCommand, type StaffCandidate } from './institution';
import { institutionOutlinesOf, loadInstitution } from './load-institution';

/** A platform admin asks: these tests are about the fold, not about who may change the staff. */
const PLATFORM = { user_id: 'platform-admin', platform_admin: true };

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

const users = ['u1', 'u2', 'u3', 'u4'];

describe("an institution loaded from its kept outline and its members' events", () => {
  it("is the decider's state folded from the whole stream, after every command of many histories", async () => {
    const store = new SqliteEventStore({ filename: join(mkdtempSync(join(tmpdir(), 'load-institution-')), 'events.db') });
    let written = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = random(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
      const institution_id = `inst-${seed}`;
      const stream = streams.institution(institution_id);
      const candidate = (user_id: string, n: number): StaffCandidate => {
        const role = pick(STAFF_ROLES);
        return {
          // Fields that differ per joining: a load that took them from the wrong event would show it.
          member: { staff_id: `${user_id}-${n}`, user_id, name: `${user_id} ${n}`, email: `${user_id}.${n}@x.in`, phone: `+91 90000 ${String(n).padStart(5, '0')}`, role, role_title: next() < 0.5 ? `title ${n}` : null, department: null, specialization: `spec ${n}`, is_institution_admin: role === 'ADMIN' },
          existing_account: next() < 0.6,
          invitation_id: `inv-${n}`,
        };
      };
      const run = async (command: InstitutionCommand) => {
        try {
          written += (await handleCommand(store, stream, institutionDecider, command, systemContext(new Date(), null), () => loadInstitution(store, institution_id))).events.length;
        } catch {
          // refused: nothing written
        }
        const loaded = await loadInstitution(store, institution_id);
        const full = await readStream(store, stream, institutionDecider);
        assert.deepStrictEqual(loaded, full, `seed ${seed}, after ${command.type}`);
      };
      await run({
        type: 'CreateInstitution',
        data: {
          institution: { institution_id, name: 'Sunrise', slug: `sunrise-${seed}`, address: 'x', phone: 'x', email: 'x@y.in', hours_of_operation: {}, role_permissions: {} },
          staff: [{ ...candidate('admin', 0), existing_account: false }],
        },
      });
      for (let i = 1; i <= 30; i += 1) {
        const user_id = pick(users);
        const kind = pick(['add', 'add', 'answer', 'remove', 'revoke', 'active', 'role', 'update', 'disband'] as const);
        if (kind === 'add') await run({ type: 'AddStaff', data: { ...candidate(user_id, i), by: PLATFORM } });
        else if (kind === 'answer') {
          const state = (await loadInstitution(store, institution_id)).state;
          const invitation = state.status === 'none' ? undefined : [...state.invitations.values()][0];
          if (invitation) await run({ type: next() < 0.7 ? 'AcceptInvitation' : 'DeclineInvitation', data: { invitation_id: invitation.invitation_id, user_id: invitation.user_id } });
        } else if (kind === 'remove') await run({ type: 'RemoveStaff', data: { user_id, doctors_only: next() < 0.3, by: PLATFORM } });
        else if (kind === 'revoke') await run({ type: 'RevokeInvitation', data: { invitation_id: `inv-${Math.floor(next() * i)}`, by: PLATFORM } });
        else if (kind === 'active') await run({ type: 'SetDoctorActive', data: { user_id, active: next() < 0.5 } });
        else if (kind === 'role') await run({ type: 'ChangeStaffRole', data: { user_id, role: pick(STAFF_ROLES), doctor_account: true, by: { user_id: 'operator', platform_admin: true } } });
        else if (kind === 'update') await run({ type: 'UpdateInstitution', data: { name: `Sunrise ${i}`, role_permissions: { DOCTOR: ['read'] } } });
        else if (next() < 0.1) await run({ type: 'DisbandInstitution', data: {} });
      }
      // The outline kept for the stream holds nobody's personal fields.
      const outline = (await institutionOutlinesOf(store).current(stream)).state;
      if (outline.status !== 'none') {
        for (const kept of [...outline.staff.values(), ...outline.invitations.values()]) {
          assert.deepEqual(Object.keys(kept).filter((k) => ['name', 'email', 'phone', 'role_title', 'department', 'specialization'].includes(k)), [], `seed ${seed}: no personal field kept`);
        }
      }
    }
    assert.ok(written > 400, `the histories wrote events (${written})`);
    await store.close();
  });
});
