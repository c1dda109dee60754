import { describe, expect, it } from 'vitest';
import {
  ACCESS_PURPOSES,
  ACCESS_PURPOSE_LABELS,
  ACCESS_RESOURCES,
  ACCESS_RESOURCE_LABELS,
  ADMIN_ERASURE_LEGAL_HOLD,
  DOCTOR_ERASURE_LEGAL_HOLD,
  PATIENT_ERASURE_LEGAL_HOLD,
  type KeptRecord,
} from '@telemed/contracts';
import { englishText } from '../../lib/englishText';
import { KEPT_MESSAGES, PURPOSE_MESSAGES, RESOURCE_MESSAGES, type KeptMessages } from './privacyTexts';

// The account screens show these texts of the contracts (sent by the server in English) in the reader's language: the
// catalogue's English must stay the contracts' text word for word, or the screens would show them in English only.
describe('account: the privacy texts of the contracts and the catalogue say the same in English', () => {
  it("the access log's resources and purposes", () => {
    for (const resource of ACCESS_RESOURCES) expect(englishText(RESOURCE_MESSAGES[resource]), resource).toBe(ACCESS_RESOURCE_LABELS[resource]);
    for (const purpose of ACCESS_PURPOSES) expect(englishText(PURPOSE_MESSAGES[purpose]), purpose).toBe(ACCESS_PURPOSE_LABELS[purpose]);
  });

  it("every item of each erasure's legal hold, what and why", () => {
    const k = KEPT_MESSAGES;
    const lists: Array<[readonly KeptRecord[], KeptMessages[]]> = [
      [PATIENT_ERASURE_LEGAL_HOLD, [k.patientClinical, k.patientAppointments, k.consents, k.erasureRecord]],
      [DOCTOR_ERASURE_LEGAL_HOLD, [k.doctorIssued, k.doctorAppointments, k.doctorProfessional, k.consents, k.erasureRecord]],
      [ADMIN_ERASURE_LEGAL_HOLD, [k.consents, k.erasureRecord]],
    ];
    for (const [records, messages] of lists) {
      expect(messages).toHaveLength(records.length);
      records.forEach((record, i) => {
        expect(englishText(messages[i]!.what)).toBe(record.what);
        expect(englishText(messages[i]!.why)).toBe(record.why);
      });
    }
  });
});
