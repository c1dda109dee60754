import { DEFAULT_TIMEZONE, RECORD_TEXTS, notFound, prescriptionVerificationSchema, prescriptionViewSchema, recordIdParamsSchema, z, type PrescriptionView } from '@telemed/contracts';
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

  api.route({
    method: 'get',
    path: '/prescriptions/:id',
    summary: 'An e-prescription (its patient, its doctor, or those who may read the patient\'s records)',
    tags: ['records'],
    policy: policies.anyUser,
    params: recordIdParamsSchema,
    response: prescriptionViewSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req }) => ({ body: await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id'), headers: NO_STORE }),
  });

  api.route({
    method: 'get',
    path: '/prescriptions/:id/pdf',
    summary: 'The e-prescription as a PDF in the Telemedicine Practice Guidelines 2020 format, with its verification QR code',
    tags: ['records'],
    policy: policies.anyUser,
    params: recordIdParamsSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req, res }) => {
      const view = await prescriptionFor(params.id, auth, req, 'GET /api/v1/prescriptions/:id/pdf');
      res.set('Content-Disposition', `attachment; filename="prescription-${view.prescription_id}.pdf"`);
      res.set('Cache-Control', 'private, no-store');
      return { body: new StreamedBody(await renderPrescriptionPdf(view), 'application/pdf') };
    },
  });

  api.route({
    method: 'get',
    path: '/verify/:code',
    summary: "Public check of a prescription's QR code: only the doctor, the date and whether it is genuine (nothing of the patient)",
    tags: ['records'],
    policy: policies.public,
    params: z.object({ code: z.string().min(1).max(64) }),
    response: prescriptionVerificationSchema,
    handler: async ({ params }): Promise<{ body: z.infer<typeof prescriptionVerificationSchema> }> => {
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
