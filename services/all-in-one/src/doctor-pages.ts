import type { ReadStore } from '@telemed/platform';
import type { DoctorDoc, UserDoc } from '@telemed/query';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** As the app writes money (frontend/src/lib/money.ts): ₹1,250, paise only when there are any. */
const rupees = (amount: number) =>
  new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', ...(Number.isInteger(amount) ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2 }) }).format(amount);

/** " in Pune" when the doctor gave the city they practise in, else nothing. */
const inCity = (doctor: Pick<DoctorDoc, 'city'>) => (doctor.city ? ` in ${doctor.city}` : '');

/** What a search engine or a shared link shows of a doctor's page: who, what, where, and for how much. */
export function doctorDescription(doctor: Pick<DoctorDoc, 'name' | 'specialty' | 'qualification' | 'consultation_fee' | 'city'>): string {
  const what = [doctor.specialty, doctor.qualification].filter(Boolean).join(', ');
  return `${doctor.name}${what ? ` (${what})` : ''}${inCity(doctor)}: video consultations on Telemed from anywhere in India, ${rupees(doctor.consultation_fee)} per consultation. See open times and book online.`;
}

/**
 * The head tags of a registered doctor's public page (/{doctorId}), server-rendered into the HTML so that a search
 * engine or a shared link reads the doctor's name, specialty, city and fee without running the app: title, description,
 * Open Graph and canonical URL, every value escaped. Null when the page has no doctor (the same rule as
 * GET /public/doctors/{id}: a published profile of an active, not erased account), which is then answered 404.
 */
export function doctorPageHead(deps: { readStore: ReadStore; publicUrl: string }) {
  const doctors = deps.readStore.collection<DoctorDoc>('doctors');
  const users = deps.readStore.collection<UserDoc>('users');
  return async (doctorId: string): Promise<string | null> => {
    const doctor = await doctors.get(doctorId);
    if (!doctor || doctor.doctor_number <= 0 || doctor.erased_at) return null;
    const user = await users.get(doctor._id);
    if (!user?.active) return null;
    const url = `${deps.publicUrl}/${encodeURIComponent(doctor._id)}`;
    const title = `${doctor.name}${doctor.specialty ? `, ${doctor.specialty}` : ''}${inCity(doctor)} · Telemed`;
    const description = doctorDescription(doctor);
    return [
      `<title>${escapeHtml(title)}</title>`,
      `<meta name="description" content="${escapeHtml(description)}">`,
      `<meta property="og:type" content="profile">`,
      `<meta property="og:title" content="${escapeHtml(title)}">`,
      `<meta property="og:description" content="${escapeHtml(description)}">`,
      `<meta property="og:url" content="${escapeHtml(url)}">`,
      `<meta name="twitter:card" content="summary">`,
      `<link rel="canonical" href="${escapeHtml(url)}">`,
    ].join('\n    ');
  };
}
