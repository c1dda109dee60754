import { DEFAULT_RUPEES_PER_CREDIT, type DomainEventOf, type RecordedEvent } from '@telemed/contracts';
import type { CollectionSource } from '@telemed/platform';
import { defineProjection } from '../projections/projection';

/**
 * What doctors earned (issue 36): one document per fee kept (FeeCharged), under the appointment's doctor, with when
 * it was kept and what it was for. Read by (doctor, time) for the dashboard's months. No patient is named.
 */
export const DOCTOR_EARNINGS = 'doctor_earnings';
/** Which doctor each appointment is with: a fee kept names only its appointment. */
const FEE_APPOINTMENTS = 'fee_appointments';

export interface EarningDoc {
  _id: string;
  doctor_id: string;
  appointment_id: string;
  /** When the fee was kept (the consultation's end, or the missed or late-cancelled appointment's closing). */
  at: string;
  rupees: number;
  reason: DomainEventOf<'FeeCharged'>['data']['reason'];
}

interface FeeAppointmentDoc {
  _id: string;
  doctor_id: string;
}

/** A booking's request answers at once (the write's own promise): a rebuild goes on without waiting for it. */
function apply(event: RecordedEvent, store: CollectionSource): Promise<void> {
  const known = event as RecordedEvent & DomainEventOf<'AppointmentRequested' | 'FeeCharged'>;
  if (known.type === 'AppointmentRequested') return store.collection<FeeAppointmentDoc>(FEE_APPOINTMENTS).put({ _id: known.data.appointment_id, doctor_id: known.data.doctor_id });
  return recordEarning(known, store);
}

async function recordEarning(event: RecordedEvent & DomainEventOf<'FeeCharged'>, store: CollectionSource): Promise<void> {
  const appointment = await store.collection<FeeAppointmentDoc>(FEE_APPOINTMENTS).get(event.data.appointment_id);
  if (!appointment) return;
  await store.collection<EarningDoc>(DOCTOR_EARNINGS).put({
    _id: event.event_id,
    doctor_id: appointment.doctor_id,
    appointment_id: event.data.appointment_id,
    at: event.metadata.occurred_at,
    rupees: event.data.credits * DEFAULT_RUPEES_PER_CREDIT,
    reason: event.data.reason,
  });
}

export const earningsProjection = defineProjection({
  name: 'doctor_earnings',
  version: 1,
  collections: [DOCTOR_EARNINGS, FEE_APPOINTMENTS],
  indexes: [{ collection: DOCTOR_EARNINGS, fields: ['doctor_id', 'at'] }],
  handles: ['AppointmentRequested', 'FeeCharged'],
  ignores: [
    'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist',
    'AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired', 'AppointmentVoided', 'AppointmentConsultationBegun',
    'AppointmentCompleted', 'AppointmentRescheduled', 'AppointmentHoldReleased', 'AppointmentNoShow', 'AppointmentTimesProposed',
    'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
    'WalletOpened', 'CreditsBought', 'FeeHeld', 'FeeReturned', 'CreditsAdjusted', 'PackOrdered', 'PackPaymentFailed', 'PackRefunded',
  ],
  apply,
});
