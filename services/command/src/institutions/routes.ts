import { DEFAULT_NO_SHOW_BLOCK_MONTHS, streams, type RecordedEvent } from '@telemed/contracts';
import type { Request } from 'express';
import { policies, type AccessClaims, type ApiRouter } from '@telemed/platform';
import { AccessAudit, Subjects } from '@telemed/platform';
import { handleCommand } from '../decider';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { institutionDecider, membershipOf } from './institution';
import { institutionOutlinesOf, loadInstitution } from './load-institution';
import { addDoctor, answerInvitation, assertSlugFree, createInstitution, staffActor } from './service';
import { findUserIdByEmail } from '../users/service';

/** The institution as created, from its own events (the read model may not have it yet). */
function createdView(events: RecordedEvent[]) {
  const created = events.find((e) => e.type === 'InstitutionCreated');
  if (!created || created.type !== 'InstitutionCreated') throw new Error('No InstitutionCreated event');
  const { institution_id, ...fields } = created.data;
  return {
    id: institution_id,
    ...fields,
    is_active: true,
    created_at: created.metadata.occurred_at,
    staff: events.flatMap((e) =>
      e.type === 'InstitutionStaffAdded'
        ? [
            {
              id: e.data.staff_id,
              user_id: e.data.user_id,
              user: { name: e.data.name },
              name: e.data.name,
              email: e.data.email,
              phone: e.data.phone,
              account_type: e.data.role,
              role_title: e.data.role_title,
              department: e.data.department,
              specialization: e.data.specialization,
              is_active: true,
              is_institution_admin: e.data.is_institution_admin,
            },
          ]
        : [],
    ),
    invitations: events.flatMap((e) =>
      e.type === 'InstitutionStaffInvited'
        ? [
            {
              id: e.data.invitation_id,
              institution: { id: institution_id, name: fields.name, slug: fields.slug },
              user_id: e.data.user_id,
              name: e.data.name,
              email: e.data.email,
              account_type: e.data.role,
              role_title: e.data.role_title,
              status: 'pending' as const,
              invited_at: e.metadata.occurred_at,
            },
          ]
        : [],
    ),
  };
}

export function institutionRoutes(api: ApiRouter, deps: CommandDeps): void {
  const audit = new AccessAudit({ eventStore: deps.eventStore, clock: deps.clock, logger: deps.logger });
  /**
   * A new institution's staff whose addresses already have accounts are answered as those accounts (invited, by id,
   * or refused as the wrong kind): a read of them, recorded before the write (platform admins create institutions).
   */
  const recordExistingStaffShown = async (auth: AccessClaims, req: Request, staff: ReadonlyArray<{ email: string }>, route: string) => {
    const subjects = new Subjects();
    for (const email of new Set(staff.map((s) => s.email.toLowerCase()))) subjects.add(await findUserIdByEmail(deps.eventStore, email), 'contact_details');
    await audit.record(auth, req, { purpose: 'platform_administration', resource: 'institution_staff', route, institution: null, subjects });
  };
  /** The answer shows another person's account: on their access log, read through this institution (503 if it cannot be). */
  const recordAccountShown = async (auth: AccessClaims, req: Request, institutionId: string, userId: string) => {
    const { state } = await institutionOutlinesOf(deps.eventStore).current(streams.institution(institutionId));
    const why =
      auth.account_type === 'admin'
        ? { purpose: 'platform_administration' as const, institution: { id: institutionId, role: null } }
        : { purpose: 'institution_administration' as const, institution: { id: institutionId, role: membershipOf(state, auth.user_id)?.role ?? null } };
    await audit.record(auth, req, { ...why, resource: 'institution_doctors', route: 'POST /api/v1/institutions/:id/doctors', subjects: new Subjects().add(userId, 'contact_details') });
  };
  const removeMember = async (institutionId: string, userId: string, doctorsOnly: boolean, ctx: { auth: AccessClaims; req: Request }) => {
    const result = await handleCommand(
      deps.eventStore,
      streams.institution(institutionId),
      institutionDecider,
      { type: 'RemoveStaff', data: { user_id: userId, doctors_only: doctorsOnly, by: staffActor(ctx.auth) } },
      requestContext(ctx.req, ctx.auth, deps.clock()),
      () => loadInstitution(deps.eventStore, institutionId),
    );
    return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
  };

  api.implement('createInstitution', {
    policy: policies.roles('admin'),
    handler: async ({ body, auth, req }) => {
      await assertSlugFree(deps.eventStore, body.slug);
      await recordExistingStaffShown(auth, req, body.staff, 'POST /api/v1/institutions/');
      const context = requestContext(req, auth, deps.clock());
      const { institution_id, position } = await createInstitution(deps.eventStore, body, context);
      const events = (await deps.eventStore.readStream(streams.institution(institution_id))) as unknown as RecordedEvent[];
      return { body: createdView(events), headers: positionHeader(position) };
    },
  });

  api.implement('disbandInstitution', {
    policy: policies.roles('admin'),
    handler: async ({ params, auth, req }) => {
      const result = await handleCommand(deps.eventStore, streams.institution(params.id), institutionDecider, { type: 'DisbandInstitution', data: {} }, requestContext(req, auth, deps.clock()), () =>
        loadInstitution(deps.eventStore, params.id),
      );
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('removeInstitutionStaffMember', {
    policy: policies.institution('manage_staff'),
    handler: ({ params, auth, req }) => removeMember(params.id, params.user_id, false, { auth, req }),
  });

  api.implement('addInstitutionDoctor', {
    policy: policies.institution('manage_staff'),
    handler: async ({ params, body, auth, req }) => {
      // An address that has an account is answered with that account (its id, invited; or 409, not a doctor's): a read
      // of another person's account, recorded before the write as the console's POST /admin/doctors records it.
      const existing = await findUserIdByEmail(deps.eventStore, body.email);
      if (existing) await recordAccountShown(auth, req, params.id, existing);
      const result = await addDoctor(deps.eventStore, params.id, body, staffActor(auth), requestContext(req, auth, deps.clock()));
      if (result.status === 'invited' && result.doctor_id !== existing) await recordAccountShown(auth, req, params.id, result.doctor_id);
      return { body: { status: result.status, doctor_id: result.doctor_id, invitation_id: result.invitation_id }, headers: positionHeader(result.position) };
    },
  });

  /** The invitee's answer to an invitation: they join (accept) or not (decline). */
  const answerWith =
    (answer: 'accept' | 'decline') =>
    async ({ params, auth, req }: { params: { id: string; invitation_id: string }; auth: AccessClaims; req: Request }) => {
      const result = await answerInvitation(
        deps.eventStore,
        params.id,
        { invitation_id: params.invitation_id, user_id: auth.user_id, accept: answer === 'accept' },
        requestContext(req, auth, deps.clock()),
      );
      const body = { status: 'success' as const, institution_id: params.id, invitation: answer === 'accept' ? ('accepted' as const) : ('declined' as const) };
      return { body, headers: positionHeader(result.position) };
    };
  api.implement('acceptInvitation', { policy: policies.anyUser, handler: answerWith('accept') });
  api.implement('declineInvitation', { policy: policies.anyUser, handler: answerWith('decline') });

  api.implement('revokeInvitation', {
    policy: policies.institution('manage_staff'),
    handler: async ({ params, auth, req }) => {
      const result = await handleCommand(
        deps.eventStore,
        streams.institution(params.id),
        institutionDecider,
        { type: 'RevokeInvitation', data: { invitation_id: params.invitation_id, by: staffActor(auth) } },
        requestContext(req, auth, deps.clock()),
        () => loadInstitution(deps.eventStore, params.id),
      );
      return { body: { status: 'success' as const, institution_id: params.id, invitation: 'revoked' as const }, headers: positionHeader(result.position) };
    },
  });

  // The clinic's default booking rules (issue 35), for its doctors who set none of their own.
  api.implement('setInstitutionBookingRules', {
    policy: policies.institution('manage_institution'),
    handler: async ({ params, body, auth, req }) => {
      const noShows = { no_show_limit: body.no_show_limit ?? 0, no_show_block_months: body.no_show_block_months ?? DEFAULT_NO_SHOW_BLOCK_MONTHS };
      const noShowPolicy = noShows.no_show_limit > 0 ? { limit: noShows.no_show_limit, blockMonths: noShows.no_show_block_months } : null;
      const rules = { minNoticeMinutes: body.min_notice_minutes, maxReschedules: body.max_reschedules, lateCancellation: body.late_cancellation, noShowPolicy };
      const result = await handleCommand(
        deps.eventStore,
        streams.institution(params.id),
        institutionDecider,
        { type: 'SetBookingRules', data: rules },
        requestContext(req, auth, deps.clock()),
        () => loadInstitution(deps.eventStore, params.id),
      );
      return { body: { institution_id: params.id, ...body, ...noShows, set: true }, headers: positionHeader(result.position) };
    },
  });

  api.implement('removeInstitutionDoctor', {
    policy: policies.institution('manage_staff'),
    handler: ({ params, auth, req }) => removeMember(params.id, params.doctor_id, true, { auth, req }),
  });
}

/**
 * Resolves the caller's standing from the institution's own stream: consistent with the command it guards. The kept
 * outline has every standing and reads only the events since the last look.
 */
export function streamInstitutionResolver(deps: CommandDeps) {
  return async (institutionId: string, userId: string) => {
    const { state } = await institutionOutlinesOf(deps.eventStore).current(streams.institution(institutionId));
    if (state.status !== 'active') return null;
    return { membership: membershipOf(state, userId) };
  };
}
