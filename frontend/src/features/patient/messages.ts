import type en from '../../i18n/catalogues/en/patient.json';

/** A message of the patient catalogue: plain functions return one, the screens translate it (English names every id). */
export type PatientMessage = keyof typeof en;
