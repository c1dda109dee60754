import { usersProjection, doctorsProjection, subscriptionsProjection } from '../users/projection';
import { sessionsProjection } from '../identity/projection';
import { slotsProjection } from '../schedule/slots-projection';
import { pendingReservationsProjection } from '../schedule/pending-reservations';
import { appointmentsProjection, appointmentHistoryProjection } from '../appointments/projection';
import { institutionsProjection } from '../institutions/projection';
import { institutionAppointmentsProjection } from '../institutions/appointments-projection';
import { invitationsProjection } from '../institutions/invitations-projection';
import { consentsProjection } from '../consents/projection';
import { accessLogProjection } from '../privacy/access-log';
import { consultationsProjection } from '../consultations/projection';
import { clinicalRecordsProjection } from '../records/projection';
import { clinicalRetentionProjection } from '../records/retention-projection';
import { recordStorageProjection } from '../records/storage-projection';
import { blogPostsProjection } from '../blogs/projection';
import { accountStandingProjection } from '../users/account-standing';
import { messagesProjection } from '../messaging/projection';
import { contactsProjection } from '../messaging/contacts-projection';
import { bookingRulesProjection } from '../users/booking-rules';
import { waitlistProjection } from '../waitlist/projection';
import { walletProjection } from '../wallet/projection';
import { earningsProjection } from '../wallet/earnings';
import type { Projection } from './projection';
import { withErasure } from '../privacy/erasure';

export const allProjections: Projection[] = [
  usersProjection,
  doctorsProjection,
  subscriptionsProjection,
  sessionsProjection,
  slotsProjection,
  pendingReservationsProjection,
  appointmentsProjection,
  appointmentHistoryProjection,
  institutionsProjection,
  institutionAppointmentsProjection,
  invitationsProjection,
  consentsProjection,
  accessLogProjection,
  consultationsProjection,
  clinicalRecordsProjection,
  clinicalRetentionProjection,
  recordStorageProjection,
  blogPostsProjection,
  accountStandingProjection,
  messagesProjection,
  contactsProjection,
  bookingRulesProjection,
  waitlistProjection,
  walletProjection,
  earningsProjection,
].map(withErasure);

export type { Projection } from './projection';
export * from './documents';
export type { AccessLogDoc } from '../privacy/access-log';
export { INSTITUTION_APPOINTMENTS, INSTITUTION_READER_SETS, institutionAppointmentId, readingInstitution, type InstitutionAppointmentDoc, type ReaderSetsDoc } from '../institutions/appointments-projection';
