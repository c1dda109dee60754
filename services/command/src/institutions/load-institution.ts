import { streams, type EventData, type InstitutionMembership } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import type { Fold } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { evolveInstitution, membershipOf, type Invitation, type InstitutionEvent, type InstitutionState, type StaffMember } from './institution';

type Active = Exclude<InstitutionState, { status: 'none' }>;

/** A member's or invitation's personal fields (contracts' PERSONAL_FIELDS): what the outline leaves in the log. */
const PERSONAL = ['name', 'email', 'phone', 'role_title', 'department', 'specialization'] as const;
type Personal = (typeof PERSONAL)[number];

/** A member without their personal fields, and the revision of the event that recorded them (their joining). */
export type StaffStanding = Omit<StaffMember, Personal> & { recorded_at: number };
/** A pending invitation without the invitee's personal fields, and the revision of the invitation's event. */
export type InvitationStanding = Omit<Invitation, Personal> & { recorded_at: number };

/**
 * The institution as institutionDecider's fold has it, without its people's personal fields: status, details,
 * permissions, who holds which role and each member's and invitation's revision of recording, whose one event a
 * command reads to have their fields again. Small enough to keep per stream (StreamFolds), and holds nothing an
 * erasure must remove, so an institution admin's write reads only the events since the last one, however many
 * membership changes came before.
 */
export type InstitutionOutline =
  | { status: 'none' }
  | (Omit<Active, 'staff' | 'invitations'> & { staff: ReadonlyMap<string, StaffStanding>; invitations: ReadonlyMap<string, InvitationStanding> });

// evolveInstitution copies a member's fields and never reads the personal ones; the outline drops them again after it.
const UNREAD: Pick<StaffMember, Personal> = { name: '', email: '', phone: '', role_title: null, department: null, specialization: null };

function standingOf<T extends StaffMember | Invitation>(entry: T): Omit<T, Personal> {
  const standing: Partial<T> = { ...entry };
  for (const field of PERSONAL) delete standing[field];
  return standing as Omit<T, Personal>;
}

function outlineAfter(outline: InstitutionOutline, event: InstitutionEvent, revision: number): InstitutionOutline {
  const before: InstitutionState =
    outline.status === 'none'
      ? outline
      : {
          ...outline,
          staff: new Map([...outline.staff].map(([id, m]) => [id, { ...m, ...UNREAD }])),
          invitations: new Map([...outline.invitations].map(([id, i]) => [id, { ...i, ...UNREAD }])),
        };
  const after = evolveInstitution(before, event);
  if (after.status === 'none') return after;
  const known = outline.status === 'none' ? null : outline;
  const staff = new Map<string, StaffStanding>();
  for (const [id, member] of after.staff) {
    const { recorded_at: _r, ...standing } = standingOf(member) as StaffStanding;
    void _r;
    staff.set(id, { ...standing, recorded_at: known?.staff.get(id)?.recorded_at ?? revision });
  }
  const invitations = new Map<string, InvitationStanding>();
  for (const [id, invitation] of after.invitations) {
    const { recorded_at: _r, ...standing } = standingOf(invitation) as InvitationStanding;
    void _r;
    invitations.set(id, { ...standing, recorded_at: known?.invitations.get(id)?.recorded_at ?? revision });
  }
  return { ...after, staff, invitations };
}

export const institutionOutlineFold: Fold<InstitutionOutline, InstitutionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (outline, event) => {
    // Only a stored event is folded here (StreamFolds): it has its revision.
    const revision = (event as { revision?: number }).revision ?? -1;
    return outlineAfter(outline, event, revision);
  },
};

/**
 * Each event store's kept outlines of institutions (StreamFolds): every membership change, invitation and role change
 * is an event of the institution's stream, and a write that read it whole cost more with each year of them.
 */
export const institutionOutlinesOf = foldsPerEventStore(institutionOutlineFold);

/** The caller's standing in the institution (access policies): the kept outline is enough, no personal field is read. */
export async function institutionMembership(eventStore: EventStore, institutionId: string, userId: string): Promise<InstitutionMembership | null> {
  const { state } = await institutionOutlinesOf(eventStore).current(streams.institution(institutionId));
  return state.status === 'none' ? null : membershipOf(state, userId);
}

/**
 * The institution as its decider needs it: the kept outline (the events since the last look) and each current member's
 * and pending invitation's fields from the one event that recorded them. What a write reads grows with the people the
 * institution has now, not with its history.
 */
export async function loadInstitution(eventStore: EventStore, institutionId: string): Promise<{ state: InstitutionState; revision: number | null }> {
  const stream = streams.institution(institutionId);
  const { state: outline, revision } = await institutionOutlinesOf(eventStore).current(stream);
  if (outline.status === 'none') return { state: outline, revision };
  const recorded = async (at: number): Promise<EventData<'InstitutionStaffAdded'>> => {
    const [event] = await eventStore.readStream(stream, { fromRevision: at, maxCount: 1 });
    if (event?.type !== 'InstitutionStaffAdded' && event?.type !== 'InstitutionStaffInvited') throw new Error(`${stream}: no member recorded at revision ${at}`);
    return event.data as EventData<'InstitutionStaffAdded'>;
  };
  const fieldsOf = async (at: number): Promise<Pick<StaffMember, Personal>> => {
    const data = await recorded(at);
    return { name: data.name, email: data.email, phone: data.phone, role_title: data.role_title, department: data.department, specialization: data.specialization };
  };
  const staff = await Promise.all(
    [...outline.staff].map(async ([id, { recorded_at, ...standing }]): Promise<[string, StaffMember]> => [id, { ...standing, ...(await fieldsOf(recorded_at)) }]),
  );
  const invitations = await Promise.all(
    [...outline.invitations].map(async ([id, { recorded_at, ...standing }]): Promise<[string, Invitation]> => [id, { ...standing, ...(await fieldsOf(recorded_at)) }]),
  );
  return { state: { ...outline, staff: new Map(staff), invitations: new Map(invitations) }, revision };
}
