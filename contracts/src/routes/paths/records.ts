import type { RoutePath } from '../path-types';

/** The records area's routes: name, method and path (zod-free; the frontend bundles this). */
export const recordsPaths = {
  saveConsultationNotes: { method: 'put', path: '/consultations/:appointment_id/notes' },
  getConsultationNotes: { method: 'get', path: '/consultations/:appointment_id/notes' },
  issuePrescription: { method: 'post', path: '/consultations/:appointment_id/prescriptions' },
  uploadPrescriptionFile: { method: 'post', path: '/consultations/:appointment_id/prescription-files' },
  uploadReports: { method: 'post', path: '/records/reports' },
  getMyRecords: { method: 'get', path: '/records/me' },
  getPatientRecords: { method: 'get', path: '/patients/:patient_id/records' },
  downloadRecordFile: { method: 'get', path: '/records/files/:id' },
  getPrescription: { method: 'get', path: '/prescriptions/:id' },
  getPrescriptionPdf: { method: 'get', path: '/prescriptions/:id/pdf' },
  verifyPrescription: { method: 'get', path: '/verify/:code' },
  searchMedicines: { method: 'get', path: '/medicines/search' },
} as const satisfies Record<string, RoutePath>;
