import { DEFAULT_TIMEZONE, RECORD_TEXTS, notFound, prescriptionLabels, type PrescriptionView } from '@telemed/contracts';
import type { UserDoc } from '../projections';
import { DateTime } from 'luxon';
import { StreamedBody, Subjects, policies, type AccessAudit, type AccessClaims, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { Request } from 'express';
import { PRESCRIPTIONS, PRESCRIPTION_VERIFICATIONS, type PrescriptionDoc, type VerificationDoc } from './projection';
import { NO_STORE, recordAccessRules } from './access';
import { prescriptionView } from './patient-records';
import { renderPrescriptionPdf } from './prescription-pdf';

/** An e-prescription, as JSON or as the Guidelines' PDF, and the public check of its QR code. */
export function prescriptionQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; audit: AccessAudit; publicUrl: string }): void {
  const { readStore, audit } = deps;
  const prescriptions = readStore.collection<PrescriptionDoc>(PRESCRIPTIONS);
  const verifications = readStore.collection<VerificationDoc>(PRESCRIPTION_VERIFICATIONS);
  const users = readStore.collection<UserDoc>('users');
  const { recordAccess } = recordAccessRules(readStore, audit);

  async function prescriptionFor(id: string, auth: AccessClaims, req: Request, route: string): Promise<PrescriptionView> {
    const doc = await prescriptions.get(id);
    const access = doc && (doc.doctor_id === auth.user_id ? 'prescriber' : await recordAccess(auth, req, doc.patient_id, 'prescription', route, [doc._id]));
    if (!doc || !access) throw notFound(RECORD_TEXTS.prescriptionNotFound);
    if (access === 'prescriber') {
      await audit.record(auth, req, { purpose: 'care', resource: 'prescription', route, subjects: new Subjects().add(doc.patient_id, doc._id) });
    }
    return prescriptionView(doc, deps.publicUrl);
  }

  api.implement('getPrescription', {
    policy: policies.anyUser,
    handler: async ({ params, auth, req }) => ({ body: await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id'), headers: NO_STORE }),
  });

  api.implement('getPrescriptionPdf', {
    policy: policies.anyUser,
    handler: async ({ params, auth, req, res }) => {
      const view = await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id/pdf');
      res.set('Content-Disposition', `attachment; filename="prescription-${view.prescription_id}.pdf"`);
      res.set('Cache-Control', 'private, no-store');
      // Printed for the patient: beside the English, in the language they chose (issue 33).
      const patientLanguage = (await users.get(view.patient_id))?.language;
      return { body: new StreamedBody(await renderPrescriptionPdf(view, prescriptionLabels(patientLanguage)), 'application/pdf') };
    },
  });

  api.implement('verifyPrescription', {
    policy: policies.public,
    handler: async ({ params }) => {
      const found = await verifications.get(params.code);
      if (!found) return { body: { genuine: false, doctor: null, issued_on: null } };
      return {
        body: {
          genuine: true,
          doctor: { name: found.doctor_name, qualification: found.doctor_qualification, registration_number: found.doctor_registration_number, medical_council: found.doctor_medical_council },
          // The date in India, as the PDF prints it (a UTC date would be the day before for anything issued before 05:30).
          issued_on: DateTime.fromISO(found.issued_at, { zone: DEFAULT_TIMEZONE }).toISODate()!,
        },
      };
    },
  });
}
