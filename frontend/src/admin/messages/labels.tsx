import { Link, useCanAccess, useCreatePath, useRecordContext, useResourceDefinitions } from 'react-admin';
import { Chip, type ChipProps } from '@mui/material';
import { useT, type MessageId, type Translate } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

/** What the console shows of a message: the log's row (the whole log's and one appointment's alike). */
export type MessageRow = ApiRoutes['listMessages']['response'][number];

/** '24 Nov 2026, 9:30 am' in the viewer's own time zone: when it happened where the operator is. */
export const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

export const KINDS: Record<MessageRow['kind'], MessageId> = {
  appointment_requested: 'admin.messageKindAppointmentRequested',
  patient_waiting: 'admin.messageKindPatientWaiting',
  appointment_approved: 'admin.messageKindAppointmentApproved',
  appointment_rejected: 'admin.messageKindAppointmentRejected',
  appointment_cancelled: 'admin.messageKindAppointmentCancelled',
  appointment_reminder: 'admin.messageKindAppointmentReminder',
  prescription_ready: 'admin.messageKindPrescriptionReady',
  doctor_no_show: 'admin.messageKindDoctorNoShow',
  times_proposed: 'admin.messageKindTimesProposed',
  waitlist_offer: 'admin.messageKindWaitlistOffer',
  sign_in_code: 'admin.messageKindSignInCode',
  phone_verification_code: 'admin.messageKindPhoneVerificationCode',
};
export const CHANNELS: Record<NonNullable<MessageRow['channel']>, MessageId> = {
  whatsapp: 'admin.messageChannelWhatsapp',
  sms: 'admin.messageChannelSms',
  email: 'admin.messageChannelEmail',
};
export const STATUSES: Record<MessageRow['status'], MessageId> = {
  queued: 'admin.messageStatusQueued',
  sending: 'admin.messageStatusSending',
  sent: 'admin.messageStatusSent',
  delivered: 'admin.messageStatusDelivered',
  failed: 'admin.messageStatusFailed',
  cancelled: 'admin.messageStatusCancelled',
};
const STATUS_COLORS: Record<MessageRow['status'], ChipProps['color']> = {
  queued: 'default',
  sending: 'info',
  sent: 'info',
  delivered: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A value's label in the chosen language; one the console does not know yet (a newer server's) as the API writes it. */
export function said<K extends string>(t: Translate, labels: Record<K, MessageId>, value: K | null | undefined): string {
  if (!value) return '';
  return Object.hasOwn(labels, value) ? t(labels[value]) : value;
}

/** The choices of a filter or field, each in the chosen language (in English as the API writes them: 'failed'). */
export function useChoices<K extends string>(labels: Record<K, MessageId>) {
  const t = useT();
  return Object.entries<MessageId>(labels).map(([id, name]) => ({ id, name: t(name) }));
}

/** The status as a chip, red when the message failed for good. */
export function StatusChip() {
  const record = useRecordContext<MessageRow>();
  const t = useT();
  if (!record?.status) return null;
  return <Chip size="small" color={STATUS_COLORS[record.status] ?? 'default'} label={said(t, STATUSES, record.status)} />;
}

/** The masked address, opening the recipient's account where the console shows accounts to the viewer. */
export function RecipientField() {
  const record = useRecordContext<MessageRow>();
  const createPath = useCreatePath();
  const { users } = useResourceDefinitions();
  const { canAccess } = useCanAccess({ resource: 'users', action: 'show' });
  const t = useT();
  if (!record) return null;
  const shown = record.to_masked ?? (record.recipient_id ? t('admin.messageRecipientAccount') : '—');
  if (!record.recipient_id || !users?.hasShow || !canAccess) return <span>{shown}</span>;
  return (
    <Link to={createPath({ resource: 'users', type: 'show', id: record.recipient_id })}>{shown}</Link>
  );
}
