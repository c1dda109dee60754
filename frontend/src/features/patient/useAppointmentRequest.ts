import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { agreeToNotice, consentsKey } from './consent';
import { useConsentAgreement } from './useConsentAgreement';

/**
 * Sending the request for a slot (POST /appointments/request) with the reason for the visit, after agreeing to the
 * privacy notice when there is no current consent (before the first booking, or after a withdrawal).
 */
export function useAppointmentRequest({ rawSlotId, idProblem, onFailed }: { rawSlotId: string | null; idProblem: string | null; onFailed(): void }) {
  const [notes, setNotes] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A reason written and not sent: Cancel (a move to /home), another page or a closed tab asks first.
  useUnsavedChanges(notes.trim() !== '' && !sent);
  const queryClient = useQueryClient();
  const consent = useConsentAgreement();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (idProblem) return setError(idProblem);
    if (!consent.ensureAgreed()) return;
    setSending(true);
    setError(null);
    try {
      // The box is ticked under the notice shown, so what is agreed to is what was read.
      if (consent.needed && consent.notice) await agreeToNotice(consent.notice);
      await call('requestAppointment', { body: { slot_id: Number.parseInt(rawSlotId!, 10), notes } });
      setSent(true);
    } catch (e) {
      setError(`Error: ${e instanceof ApiError && e.detail ? e.detail : 'Failed to submit appointment request'}`);
      onFailed();
      // A consent withdrawn elsewhere: show the notice again.
      if (e instanceof ApiError && e.status === 403) void queryClient.invalidateQueries({ queryKey: consentsKey });
    } finally {
      setSending(false);
    }
  }

  return { notes, setNotes, sending, sent, error, consent, submit };
}
