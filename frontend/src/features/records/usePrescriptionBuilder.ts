import { useState } from 'react';
import type { MedicineSuggestion } from '@telemed/contracts';
import type { TpgList } from '@telemed/contracts/record-constants';
import { recordsApi } from './api';
import { ageBody, canAddLine, emptyLine, lineBody, pickMedicine, sameLine, toSessionLine, typeMedicine, type Gender, type LineDraft, type SessionLine } from './rules';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useErrorText } from '../../i18n/errorText';
import type { MessageId } from '../../i18n/useT';

/** What the Guidelines say of a picked medicine, to say before sending (the server decides; this only warns early). */
export interface GuidelineNote {
  severity: 'error' | 'info';
  /** The seeds' rule (RECORD_TEXTS.prohibited, .listBNeedsFollowUp) as the `records` catalogue has it. */
  text: MessageId;
  medicine: string;
}

export function guidelineNote(medicine: string, list: TpgList | null): GuidelineNote | null {
  if (list === 'prohibited') return { severity: 'error', text: 'records.prohibited', medicine };
  if (list === 'B') return { severity: 'info', text: 'records.listBNeedsFollowUp', medicine };
  return null;
}

/** The patient's particulars and the prescription's own texts, asked before issuing. */
export interface PrescriptionParticulars {
  age: string;
  gender: Gender | '';
  diagnosis: string;
  advice: string;
}

const noParticulars: PrescriptionParticulars = { age: '', gender: '', diagnosis: '', advice: '' };

/**
 * The quick prescription builder's state: the line being written (with the Guidelines' list of a picked medicine),
 * the session's lines, the patient's particulars, and issuing them (POST /consultations/{id}/prescriptions).
 */
export function usePrescriptionBuilder(appointmentId: string, onIssued?: () => void) {
  const [draft, setDraft] = useState<LineDraft>(emptyLine);
  const [list, setList] = useState<TpgList | null>(null);
  const [lines, setLines] = useState<SessionLine[]>([]);
  const [particulars, setParticulars] = useState<PrescriptionParticulars>(noParticulars);
  const [issuing, setIssuing] = useState(false);
  const explain = useErrorText();
  // The failure itself, said in the language shown.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [issued, setIssued] = useState<{ id: string; at: string } | null>(null);
  const { age, gender, diagnosis, advice } = particulars;
  // Lines added but not issued, or a line or the patient's particulars being written: asked about before they are lost.
  useUnsavedChanges(lines.length > 0 || !sameLine(draft, emptyLine()) || [diagnosis, advice, age, gender].some((v) => v.trim() !== ''));
  const note = draft.medicine_id ? guidelineNote(draft.medicine.trim(), list) : null;
  const blocked = note?.severity === 'error';

  const typeMedicineText = (text: string) => {
    setDraft((d) => typeMedicine(d, text));
    setList(null);
  };
  const pickFromCatalogue = (m: MedicineSuggestion) => {
    setDraft((d) => pickMedicine(d, m));
    setList(m.tpg_list);
  };
  const add = () => {
    if (!canAddLine(draft) || blocked) return;
    setLines((l) => [...l, toSessionLine(draft)]);
    setDraft(emptyLine());
    setList(null);
  };
  const removeLine = (index: number) => setLines((l) => l.filter((_, j) => j !== index));
  const setParticular = <K extends keyof PrescriptionParticulars>(key: K, value: PrescriptionParticulars[K]) => setParticulars((p) => ({ ...p, [key]: value }));
  const issue = async () => {
    if (lines.length === 0) return;
    setIssuing(true);
    setFailure(null);
    try {
      const answer = await recordsApi.issuePrescription(appointmentId, {
        lines: lines.map(lineBody),
        diagnosis: diagnosis.trim() || null,
        advice: advice.trim() || null,
        patient_age: ageBody(age),
        patient_gender: gender || null,
      });
      setIssued({ id: answer.prescription_id, at: new Date().toISOString().slice(0, 10) });
      setLines([]);
      setParticulars(noParticulars);
      onIssued?.();
    } catch (e) {
      setFailure({ error: e });
    } finally {
      setIssuing(false);
    }
  };

  const error = failure ? explain(failure.error, 'records.issueFailed') : null;
  return { draft, setDraft, note, blocked, typeMedicineText, pickFromCatalogue, add, lines, removeLine, particulars, setParticular, issuing, issue, error, issued };
}
