import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import type { PatientMessage } from './messages';
import { agreeToNotice, consentsKey } from './consent';
import { useConsentAgreement } from './useConsentAgreement';

/**
 * Sending the request for a slot (POST /appointments/request) with the reason for the visit, after agreeing to the
 * privacy notice when there is no current consent (before the first booking, or after a withdrawal).
 */
/** Where the reason typed is kept while the patient buys credits at a checkout that is a page of its own. */
const draftKey = (rawSlotId: string | null) => `booking-draft:${rawSlotId ?? ''}`;

function takeDraft(rawSlotId: string | null): string {
  const draft = sessionStorage.getItem(draftKey(rawSlotId)) ?? '';
  sessionStorage.removeItem(draftKey(rawSlotId));
  return draft;
}

/** The credits missing when a request was refused for them (402 insufficient_credits: needed, then the balance). */
function shortfallOf(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 'insufficient_credits') return null;
  const [needed, balance] = error.values.map(Number);
  return needed !== undefined && balance !== undefined && Number.isFinite(needed - balance) ? Math.max(1, needed - balance) : null;
}

export function useAppointmentRequest({ rawSlotId, idProblem, onFailed }: { rawSlotId: string | null; idProblem: PatientMessage | null; onFailed(): void }) {
  const [notes, setNotes] = useState(() => takeDraft(rawSlotId));
  // Leaving for the checkout with the reason kept: no "unsaved changes" question.
  const [leaving, setLeaving] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  // What went wrong, kept as it happened and said at render, so that it follows a change of language.
  const [failure, setFailure] = useState<{ problem: PatientMessage } | { error: unknown } | null>(null);
  const t = useT();
  const explain = useErrorText();
  // A reason written and not sent: Cancel (a move to /home), another page or a closed tab asks first.
  useUnsavedChanges(notes.trim() !== '' && !sent && !leaving);
  const queryClient = useQueryClient();
  const consent = useConsentAgreement();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (idProblem) return setFailure({ problem: idProblem });
    if (!consent.ensureAgreed()) return;
    setSending(true);
    setFailure(null);
    try {
      // The box is ticked under the notice shown, so what is agreed to is what was read.
      if (consent.needed && consent.notice) await agreeToNotice(consent.notice);
      await call('requestAppointment', { body: { slot_id: Number.parseInt(rawSlotId!, 10), notes } });
      setSent(true);
    } catch (e) {
      setFailure({ error: e });
      onFailed();
      // A consent withdrawn elsewhere: show the notice again.
      if (e instanceof ApiError && e.status === 403) void queryClient.invalidateQueries({ queryKey: consentsKey });
    } finally {
      setSending(false);
    }
  }

  const error =
    failure === null ? null : 'problem' in failure ? t(failure.problem) : t('patient.requestError', { detail: explain(failure.error, 'patient.requestFailed') });
  const shortfall = failure !== null && 'error' in failure ? shortfallOf(failure.error) : null;
  const keepDraft = () => {
    sessionStorage.setItem(draftKey(rawSlotId), notes);
    setLeaving(true);
  };
  return { notes, setNotes, sending, sent, error, consent, submit, shortfall, keepDraft };
}
