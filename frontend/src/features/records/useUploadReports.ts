import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { reportDateProblem, type ReportTypeId } from '@telemed/contracts/record-constants';
import { addFiles, reportTypeFromName, todayInIndia } from './rules';
import { useUpload } from './RecordsDialog';
import { reportDateProblemText } from './texts';
import { agreeToNotice, consentsKey } from '../patient/consent';
import { useConsentAgreement } from '../patient/useConsentAgreement';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';

/** What the patient says of the reports: all but the type are optional; the date is today's until changed. */
export interface ReportDetails {
  reportType: ReportTypeId | '';
  reportDate: string;
  facility: string;
  doctorName: string;
  summary: string;
  notes: string;
}

const freshDetails = (): ReportDetails => ({ reportType: '', reportDate: todayInIndia(), facility: '', doctorName: '', summary: '', notes: '' });

/**
 * The reports upload's state (seed 001 §2): the chosen files and why some were refused, the details, the consent
 * asked first when there is none, and the upload (POST /upload-reports) with its progress and failure.
 */
export function useUploadReports({ open, onClose, onUploaded, appointmentId }: { open: boolean; onClose(): void; onUploaded?(): void; appointmentId?: string }) {
  const t = useT();
  const explain = useErrorText();
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [details, setDetails] = useState<ReportDetails>(freshDetails);
  const upload = useUpload('records.uploadReportsFailed');
  const queryClient = useQueryClient();
  const consent = useConsentAgreement(open);
  // The failure to record the agreement, said in the language shown.
  const [consentFailure, setConsentFailure] = useState<{ error: unknown } | null>(null);
  const { reportType, reportDate, facility, doctorName, summary, notes } = details;
  const today = todayInIndia();
  // The server's rule, asked of the same function: a real date, not before 1900, not after today in India.
  const dateProblem = reportDateProblem(reportDate, today);
  const dateError = reportDateProblemText(t, dateProblem);
  const incomplete = files.length === 0 || reportType === '' || Boolean(dateProblem) || (consent.needed && !consent.notice);

  const setDetail = <K extends keyof ReportDetails>(key: K, value: ReportDetails[K]) => setDetails((d) => ({ ...d, [key]: value }));
  const reset = () => {
    setFiles([]);
    setFileErrors([]);
    setDetails(freshDetails());
    upload.reset();
    setConsentFailure(null);
    consent.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  // A refusal was about the files as they were: once they change, it no longer applies.
  const changeFiles = (next: File[]) => {
    setFiles(next);
    upload.clearError();
    setFileErrors([]);
  };

  const pick = (picked: File[]) => {
    upload.clearError();
    const next = addFiles(files, picked, t);
    setFiles(next.files);
    setFileErrors(next.errors);
    if (next.files.length === 1 && reportType === '') {
      const guessed = reportTypeFromName(next.files[0]!.name);
      if (guessed) setDetail('reportType', guessed);
    }
  };

  const submit = async () => {
    if (incomplete) return;
    if (!consent.ensureAgreed()) return;
    setConsentFailure(null);
    if (consent.needed && consent.notice) {
      // What is agreed to is the notice shown, under which the box was ticked.
      try {
        await agreeToNotice(consent.notice);
      } catch (e) {
        setConsentFailure({ error: e });
        return;
      }
    }
    const form = new FormData();
    form.append('report_type', reportType);
    form.append('report_date', reportDate);
    if (facility.trim()) form.append('medical_facility', facility.trim());
    if (doctorName.trim()) form.append('doctor_name', doctorName.trim());
    if (summary.trim()) form.append('report_summary', summary.trim());
    if (notes.trim()) form.append('additional_notes', notes.trim());
    if (appointmentId) form.append('appointment_id', appointmentId);
    for (const file of files) form.append('files', file, file.name);
    await upload.send({ route: 'uploadReports', params: undefined }, form, () => {
      onUploaded?.();
      close();
    });
    // Agreed just now, or withdrawn elsewhere meanwhile (the upload's 403): the notice shows when it is needed.
    void queryClient.invalidateQueries({ queryKey: consentsKey });
  };

  return {
    files,
    fileErrors,
    pick,
    changeFiles,
    details,
    setDetail,
    today,
    dateError,
    dirty: files.length > 0 || reportType !== '' || reportDate !== today || [facility, doctorName, summary, notes].some((v) => v.trim() !== ''),
    incomplete,
    consent,
    upload,
    error: consentFailure ? explain(consentFailure.error, 'records.agreementFailed') : upload.error,
    close,
    submit,
  };
}
