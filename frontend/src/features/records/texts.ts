import { createIntl, createIntlCache } from 'react-intl';
import { RECORD_TEXTS, type DURATION_UNITS, type FREQUENCIES, type ReportTypeId } from '@telemed/contracts/record-constants';
import { ENGLISH_MESSAGES } from '../../i18n/catalogues';
import type { MessageId } from '../../i18n/useT';

/**
 * The records screens' words by message id (issue 33): the contracts' vocabularies (frequencies, report types, the
 * seeds' texts) as the `records` catalogue names them, so that each screen shows them in the chosen language.
 */

/** A message in some language: `t` of `useT()` in a component; English (`englishText`) where none is given. */
export type Say = (id: MessageId, values?: Record<string, string | number>) => string;

const englishIntl = createIntl({ locale: 'en-IN', defaultLocale: 'en-IN', messages: ENGLISH_MESSAGES }, createIntlCache());

/** The English catalogue's message: what a rule says when no screen's language is given (the seeds' texts). */
export const englishText: Say = (id, values) => englishIntl.formatMessage({ id }, values);

export const FREQUENCY_TEXT: Record<(typeof FREQUENCIES)[number], MessageId> = {
  once_daily: 'records.frequencyOnceDaily',
  twice_daily: 'records.frequencyTwiceDaily',
  three_times_daily: 'records.frequencyThreeTimesDaily',
  four_times_daily: 'records.frequencyFourTimesDaily',
  custom: 'records.frequencyCustom',
};

/** How a frequency of the API reads (one the catalogue does not know, as it came). */
export const frequencyText = (say: Say, frequency: string): string =>
  frequency in FREQUENCY_TEXT ? say(FREQUENCY_TEXT[frequency as keyof typeof FREQUENCY_TEXT]) : frequency;

export const REPORT_TYPE_TEXT: Record<ReportTypeId, MessageId> = {
  lab: 'records.reportTypeLab',
  xray: 'records.reportTypeXray',
  mri_ct: 'records.reportTypeMriCt',
  ultrasound: 'records.reportTypeUltrasound',
  ecg: 'records.reportTypeEcg',
  pathology: 'records.reportTypePathology',
  prescription: 'records.reportTypePrescription',
  other: 'records.reportTypeOther',
};

/** A report's type in the chosen language; the server's name for a type the catalogue does not know. */
export const reportTypeText = (say: Say, type: string, serverName: string): string =>
  type in REPORT_TYPE_TEXT ? say(REPORT_TYPE_TEXT[type as ReportTypeId]) : serverName;

export const DURATION_UNIT_TEXT: Record<(typeof DURATION_UNITS)[number], { unit: MessageId; count: MessageId }> = {
  days: { unit: 'records.unitDays', count: 'records.durationDays' },
  weeks: { unit: 'records.unitWeeks', count: 'records.durationWeeks' },
  months: { unit: 'records.unitMonths', count: 'records.durationMonths' },
};

/** The messages of what contracts' `reportDateProblem` answers (the seeds' English), by that English. */
const REPORT_DATE_PROBLEMS = new Map<string, MessageId>([
  [RECORD_TEXTS.reportDateRequired, 'records.reportDateRequired'],
  [RECORD_TEXTS.reportDateInvalid, 'records.reportDateInvalid'],
  [RECORD_TEXTS.reportDateTooEarly, 'records.reportDateTooEarly'],
  [RECORD_TEXTS.reportDateFuture, 'records.reportDateFuture'],
]);

/** A report date's problem (contracts' English, or null) in the chosen language. */
export const reportDateProblemText = (say: Say, problem: string | null): string | null => {
  if (problem === null) return null;
  const id = REPORT_DATE_PROBLEMS.get(problem);
  return id ? say(id) : problem;
};
