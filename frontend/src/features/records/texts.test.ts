import { describe, expect, it } from 'vitest';
import { FREQUENCY_LABELS, RECORD_TEXTS, REPORT_TYPES, reportDateProblem } from '@telemed/contracts/record-constants';
import type { MessageId } from '../../i18n/useT';
import { FREQUENCY_TEXT, REPORT_TYPE_TEXT, englishText, reportDateProblemText } from './texts';

// The records screens show contracts' texts (the seeds' words, which the server answers too) from the `records`
// catalogue: its English must stay those texts word for word.
describe("the records catalogue's English is contracts' text", () => {
  it("the seeds' messages (RECORD_TEXTS), with sample values where they have holes", () => {
    const same: Array<[MessageId, Record<string, string> | undefined, string]> = [
      ['records.prescriptionFileTooLarge', undefined, RECORD_TEXTS.prescriptionFileTooLarge],
      ['records.prescriptionFileType', undefined, RECORD_TEXTS.prescriptionFileType],
      ['records.reportFileTooLarge', { file: 'chest x-ray.png' }, RECORD_TEXTS.reportFileTooLarge('chest x-ray.png')],
      ['records.reportFileType', { file: 'scan.exe' }, RECORD_TEXTS.reportFileType('scan.exe')],
      ['records.uploadPrescriptionFailed', undefined, RECORD_TEXTS.uploadPrescriptionFailed],
      ['records.saveNotesFailed', undefined, RECORD_TEXTS.saveNotesFailed],
      ['records.uploadReportsFailed', undefined, RECORD_TEXTS.uploadReportsFailed],
      ['records.reportDateFuture', undefined, RECORD_TEXTS.reportDateFuture],
      ['records.reportDateTooEarly', undefined, RECORD_TEXTS.reportDateTooEarly],
      ['records.reportDateRequired', undefined, RECORD_TEXTS.reportDateRequired],
      ['records.reportDateInvalid', undefined, RECORD_TEXTS.reportDateInvalid],
      ['records.prohibited', { medicine: 'Alprazolam' }, RECORD_TEXTS.prohibited('Alprazolam')],
      ['records.listBNeedsFollowUp', { medicine: 'Pregabalin' }, RECORD_TEXTS.listBNeedsFollowUp('Pregabalin')],
    ];
    for (const [id, values, text] of same) expect(englishText(id, values), id).toBe(text);
  });

  it('the frequencies (FREQUENCY_LABELS) and the report types (REPORT_TYPES)', () => {
    for (const [frequency, label] of Object.entries(FREQUENCY_LABELS)) expect(englishText(FREQUENCY_TEXT[frequency as keyof typeof FREQUENCY_LABELS])).toBe(label);
    for (const type of REPORT_TYPES) expect(englishText(REPORT_TYPE_TEXT[type.id])).toBe(type.name);
  });

  it("each report date problem contracts' reportDateProblem answers reads the same in English", () => {
    for (const date of ['', '2024-02-30', '1899-12-31', '2999-01-01']) {
      const problem = reportDateProblem(date, '2026-01-01');
      expect(problem).not.toBeNull();
      expect(reportDateProblemText(englishText, problem)).toBe(problem);
    }
    expect(reportDateProblemText(englishText, reportDateProblem('2025-12-31', '2026-01-01'))).toBeNull();
  });
});
