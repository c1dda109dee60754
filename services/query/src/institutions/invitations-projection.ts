import type { RecordedEvent } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';
import type { InvitationDoc } from '../projections/documents';

const answered = (store: CollectionSource, event: RecordedEvent & { data: { invitation_id: string } }, status: InvitationDoc['status']) =>
  store.collection<InvitationDoc>('institution_invitations').patch(event.data.invitation_id, { status, answered_at: event.metadata.occurred_at });

/** Invitations of existing accounts to institutions' staff: the invitee's list and the institution's pending ones. */
export const invitationsProjection = defineProjection({
  name: 'institution_invitations',
  // 2: an invitee's title is encrypted under their key: an erasure blanks it too.
  // 3: the phone, department and specialization the institution wrote too (the invitee's export shows what it holds).
  version: 3,
  collections: ['institution_invitations'],
  indexes: [
    { collection: 'institution_invitations', fields: ['user_id', 'invited_at'] },
    // An institution's pending invitations in order, not its whole history of them.
    { collection: 'institution_invitations', fields: ['institution_id', 'status', 'invited_at'] },
  ],
  handles: ['InstitutionStaffInvited', 'InstitutionInvitationAccepted', 'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked'],
  // PersonalDataErased is erasure.ts's: it blanks the person's values in this read model.
  ignores: [
    'accounts', 'sessions', 'privacy', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
    'InstitutionSlugClaimed', 'InstitutionCreated', 'InstitutionStaffAdded', 'InstitutionStaffRemoved', 'InstitutionDisbanded',
    'InstitutionUpdated', 'InstitutionDoctorDeactivated', 'InstitutionDoctorActivated', 'InstitutionStaffRoleChanged', 'InstitutionBookingRulesSet',
  ],
  apply: async (event, store) => {
    switch (event.type) {
      case 'InstitutionStaffInvited': {
        const { data, metadata } = event;
        return store.collection<InvitationDoc>('institution_invitations').put({
          _id: data.invitation_id,
          institution_id: data.institution_id,
          staff_id: data.staff_id,
          user_id: data.user_id,
          name: data.name,
          email: data.email,
          phone: data.phone,
          role: data.role,
          role_title: data.role_title,
          department: data.department,
          specialization: data.specialization,
          status: 'pending',
          invited_at: metadata.occurred_at,
          invited_by: metadata.actor.user_id,
          answered_at: null,
        });
      }
      case 'InstitutionInvitationAccepted':
        return answered(store, event, 'accepted');
      case 'InstitutionInvitationDeclined':
        return answered(store, event, 'declined');
      case 'InstitutionInvitationRevoked':
        return answered(store, event, 'revoked');
    }
  },
});
