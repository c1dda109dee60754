import type { ApiRoutes, RecordsResponse } from '@telemed/contracts';
import { ApiError, writePositions } from '../../lib/api';
import { ROUTE_PATHS, fillPath } from '@telemed/contracts/route-paths';
import { call } from '../../lib/client';
import { sessionStore } from '../../lib/session';

/** An answer with every list present, so that a screen never reads a missing list. */
const complete = (r: Partial<RecordsResponse> | null): RecordsResponse => ({
  patient_id: r?.patient_id ?? '',
  reports: Array.isArray(r?.reports) ? r.reports : [],
  prescriptions: Array.isArray(r?.prescriptions) ? r.prescriptions : [],
  prescription_files: Array.isArray(r?.prescription_files) ? r.prescription_files : [],
});

const at = (appointmentId: string) => ({ params: { appointment_id: appointmentId } });

/** Calls of the clinical records (issue 14); JSON through the app's `call`, files and uploads beside it. */
export const recordsApi = {
  mine: () => call('getMyRecords').then(complete),
  ofPatient: (patientId: string) => call('getPatientRecords', { params: { patient_id: patientId } }).then(complete),
  /** Seed 001 §7: on failure the list is empty. */
  searchMedicines: (q: string, signal?: AbortSignal) =>
    call('searchMedicines', { query: { q, limit: 10 }, signal }).catch((): ApiRoutes['searchMedicines']['response'] => []),
  saveNotes: (appointmentId: string, body: ApiRoutes['saveConsultationNotes']['body']) => call('saveConsultationNotes', { ...at(appointmentId), body }),
  /** The notes saved so far, or null while there are none (the server answers 200 null: no error in the console). */
  notes: (appointmentId: string) => call('getConsultationNotes', at(appointmentId)),
  issuePrescription: (appointmentId: string, body: ApiRoutes['issuePrescription']['body']) => call('issuePrescription', { ...at(appointmentId), body }),
  verify: (code: string) => call('verifyPrescription', { params: { code } }),
};

const authHeader = (): Record<string, string> => {
  const session = sessionStore.get();
  return session ? { Authorization: `Bearer ${session.token}` } : {};
};

/** The file name from a Content-Disposition header (filename* first), or the fallback. */
export function dispositionName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!);
    } catch {
      /* the plain name below */
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]! : fallback;
}

async function fetchFile(url: string): Promise<Response> {
  if (!url.startsWith('/api/v1/')) throw new ApiError(400, 'Not a file of this product');
  const response = await fetch(url, { headers: authHeader(), credentials: 'same-origin' });
  if (!response.ok) {
    throw ApiError.of(response.status, await response.json().catch(() => null), 'The file could not be downloaded. Please try again.');
  }
  return response;
}

/**
 * Opens a PDF of the API in a new tab: the tab is opened at the click (so no pop-up blocker stops it), then shown the
 * file fetched with the bearer token.
 */
export async function openPdf(url: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await (await fetchFile(url)).blob();
    const href = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
    if (tab) {
      tab.opener = null;
      tab.location.href = href;
    } else window.location.assign(href);
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/**
 * Fetches a file of the API with the bearer token (a plain link cannot carry it) and saves it as a download.
 * `url` is the API's own path (`/api/v1/records/files/{id}`, `/api/v1/prescriptions/{id}/pdf`).
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const response = await fetchFile(url);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = dispositionName(response.headers.get('Content-Disposition'), fallbackName);
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The routes that take an upload: sent by `uploadForm` (with its progress) rather than by `call`. */
export type UploadRoute = 'uploadPrescriptionFile' | 'uploadReports';
/** Where an upload goes: its route, and the route's path parameters when it has any. */
export type UploadTarget = { [N in UploadRoute]: { route: N; params: ApiRoutes[N]['params'] } }[UploadRoute];

/**
 * Posts a multipart form with XMLHttpRequest, whose upload.onprogress reports the bytes sent (fetch has none).
 * Resolves with the JSON answer; rejects with the server's detail as an ApiError.
 */
export function uploadForm<T extends UploadTarget>(target: T, form: FormData, onProgress: (loaded: number, total: number) => void): Promise<ApiRoutes[T['route']]['response']> {
  const route = ROUTE_PATHS[target.route];
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(route.method.toUpperCase(), `/api/v1${fillPath(route.path, target.params)}`);
    for (const [name, value] of Object.entries(authHeader())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      const position = Number(xhr.getResponseHeader('X-Event-Position'));
      if (position > 0) writePositions.note(position);
      const body = parseJson(xhr.responseText);
      // The server answers the route with its response schema (as for `call`): the one place this JSON takes that type.
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ApiRoutes[T['route']]['response']);
      else reject(ApiError.of(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, ''));
    xhr.send(form);
  });
}
