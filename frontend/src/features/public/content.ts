/** Static content bundled with the client (seed: company info, plans, team, specialties, languages, doctor profiles). */
import { bundledArticlesOf } from '@telemed/contracts/bundled-articles';
import type { MessageId } from '../../i18n/useT';

export { SPECIALTIES, LANGUAGES } from '@telemed/contracts/constants';

/** The seeds' plans: their names and price texts (message ids) and prices in rupees, written as every price is. */
export const PLANS: ReadonlyArray<{ nameId: MessageId; priceId: MessageId; amount: number }> = [
  { nameId: 'public.planConsultation', priceId: 'public.planConsultationPrice', amount: 299 },
  { nameId: 'public.planDashboard', priceId: 'public.planDashboardPrice', amount: 2999 },
  { nameId: 'public.planRecords', priceId: 'public.planRecordsPrice', amount: 99 },
  { nameId: 'public.planAssistant', priceId: 'public.planAssistantPrice', amount: 199 },
];

/** The seeds' roadmap (message ids). */
export const ROADMAP: readonly MessageId[] = ['public.roadmapAssistance', 'public.roadmapOtp', 'public.roadmapWebinars'];

export interface Offering {
  id: string;
  name: string;
  description: string;
  price: number;
  duration: string;
  features: string[];
}

export interface DoctorProfile {
  id: string;
  name: string;
  nameInEnglish: string;
  credentials: string;
  specialization: string;
  address: string;
  addressInEnglish: string;
  languages: string[];
  availableTime: string;
  consultationFee: number;
  specialties: string[];
  about: string;
  offerings: Offering[];
  blogPosts: Array<{ title: string; titleInEnglish: string; link: string; date: string }>;
}

const offering = (id: string, name: string, price: number, description: string): Offering => ({
  id,
  name,
  description,
  price,
  duration: '30 minutes',
  features: ['Video consultation', 'Digital prescription', 'Follow-up message within 48 hours'],
});

/** The address part that opens a sample profile on its Book Consultation tab (its articles' booking link). */
export const BOOK_CONSULTATION_HASH = '#book-consultation';

/** A profile's articles, from the bundled articles that the server also answers at /blog/{slug} (one source). */
const postsOf = (id: string): DoctorProfile['blogPosts'] =>
  bundledArticlesOf(id).map((a) => ({ title: a.title_hi ?? a.title, titleInEnglish: a.title, link: `/blog/${a.slug}`, date: a.date }));

export const DOCTOR_PROFILES: DoctorProfile[] = [
  {
    id: 'dr-ananya-sharma',
    name: 'डॉ. अनन्या शर्मा',
    nameInEnglish: 'Dr. Ananya Sharma',
    credentials: 'MBBS, MD (General Medicine)',
    specialization: 'General Medicine',
    address: 'कनॉट प्लेस, नई दिल्ली',
    addressInEnglish: 'Connaught Place, New Delhi',
    languages: ['English', 'Hindi'],
    availableTime: 'Mon–Sat, 9:00 AM – 7:00 PM',
    consultationFee: 399,
    specialties: ['Fever and infections', 'Diabetes', 'Hypertension'],
    about: 'A family physician who looks after the whole person: acute illness, long-term conditions and prevention.',
    offerings: [offering('gm-1', 'General consultation', 399, 'Fever, cough, infections and everyday concerns.'), offering('gm-2', 'Diabetes review', 599, 'Sugar readings, medicines and diet, reviewed together.')],
    blogPosts: postsOf('dr-ananya-sharma'),
  },
  {
    id: 'dr-rohan-iyer',
    name: 'Dr. Rohan Iyer',
    nameInEnglish: 'Dr. Rohan Iyer',
    credentials: 'MBBS, DCH',
    specialization: 'Pediatrics',
    address: 'அடையாறு, சென்னை',
    addressInEnglish: 'Adyar, Chennai',
    languages: ['English', 'Tamil'],
    availableTime: 'Mon–Fri, 10:00 AM – 6:00 PM',
    consultationFee: 499,
    specialties: ['Newborn care', 'Vaccinations', 'Childhood nutrition'],
    about: 'Children’s doctor for newborns to teenagers, with a focus on growth, vaccinations and nutrition.',
    offerings: [offering('pd-1', 'Child consultation', 499, 'Fever, rashes, feeding and sleep.')],
    blogPosts: postsOf('dr-rohan-iyer'),
  },
  {
    id: 'dr-meera-kulkarni',
    name: 'डॉ. मीरा कुलकर्णी',
    nameInEnglish: 'Dr. Meera Kulkarni',
    credentials: 'MBBS, MD (Dermatology)',
    specialization: 'Dermatology',
    address: 'कोथरूड, पुणे',
    addressInEnglish: 'Kothrud, Pune',
    languages: ['English', 'Marathi', 'Hindi'],
    availableTime: 'Tue–Sun, 11:00 AM – 7:00 PM',
    consultationFee: 599,
    specialties: ['Acne', 'Eczema', 'Hair loss'],
    about: 'Skin, hair and nail care with clear treatment plans you can follow at home.',
    offerings: [offering('dm-1', 'Skin consultation', 599, 'Acne, rashes, pigmentation and eczema.')],
    blogPosts: postsOf('dr-meera-kulkarni'),
  },
  {
    id: 'dr-arjun-banerjee',
    name: 'ডাঃ অর্জুন ব্যানার্জী',
    nameInEnglish: 'Dr. Arjun Banerjee',
    credentials: 'MBBS, MD, DM (Cardiology)',
    specialization: 'Cardiology',
    address: 'সল্টলেক, কলকাতা',
    addressInEnglish: 'Salt Lake, Kolkata',
    languages: ['English', 'Bengali', 'Hindi'],
    availableTime: 'Mon–Sat, 5:00 PM – 9:00 PM',
    consultationFee: 799,
    specialties: ['Chest pain evaluation', 'Heart failure', 'Cholesterol'],
    about: 'Heart specialist for second opinions, reports review and long-term heart care.',
    offerings: [offering('cd-1', 'Cardiology consultation', 799, 'Symptoms, ECG and report review.')],
    blogPosts: postsOf('dr-arjun-banerjee'),
  },
  {
    id: 'dr-kavya-reddy',
    name: 'డా. కావ్య రెడ్డి',
    nameInEnglish: 'Dr. Kavya Reddy',
    credentials: 'MBBS, MD (Psychiatry)',
    specialization: 'Psychiatry',
    address: 'బంజారా హిల్స్, హైదరాబాద్',
    addressInEnglish: 'Banjara Hills, Hyderabad',
    languages: ['English', 'Telugu', 'Hindi'],
    availableTime: 'Mon–Fri, 12:00 PM – 8:00 PM',
    consultationFee: 449,
    specialties: ['Anxiety', 'Depression', 'Sleep'],
    about: 'Confidential care for anxiety, low mood and sleep, with medicines only when they help.',
    offerings: [offering('ps-1', 'Mental health consultation', 449, 'A private, unhurried conversation.')],
    blogPosts: postsOf('dr-kavya-reddy'),
  },
];

/** The bundled sample profile with this id, if it is one. */
export function bundledProfile(id: string | undefined): DoctorProfile | undefined {
  return DOCTOR_PROFILES.find((p) => p.id === id);
}
