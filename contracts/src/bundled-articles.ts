/**
 * The bundled sample profiles' articles (seed 000's `/blog/{slug}` links on the public doctor page, issue 16), written
 * here once: the profiles list them from `BUNDLED_ARTICLES`, and the server answers `/blog/{slug}`, its Open Graph
 * tags, `GET /api/v1/public/blogs/{slug}` and the sitemap from the same entries, so the page draws them like any
 * published post (through the same block renderer, never as HTML).
 *
 * Precedence: a doctor's real published post is looked up first, so a bundled article never shadows one. They cannot
 * collide either: a real post's slug always ends with '-' and 8 hex digits of its UUID (`blogSlug`), a shape no
 * bundled slug has (`isBundledArticleSlug` refuses it; a test checks every entry).
 *
 * No zod here: the frontend imports this subpath. The article bodies are only read by the server's view; a bundler
 * drops them from the app's chunks.
 */
import { blocksText, readTimeMinutes, type BlogCategory } from './blog-constants';
import type { BlogBlock, BlogPostView } from './blog';

export interface BundledArticle {
  slug: string;
  /** The bundled profile's id (its public page is `/{author_id}`). */
  author_id: string;
  author_name: string;
  title: string;
  /** The profile's Hindi title, where it has one. */
  title_hi: string | null;
  description: string;
  /** YYYY-MM-DD, as the profile lists it. */
  date: string;
  category: BlogCategory;
  tags: string[];
}

/** The shape of a real post's slug (`blogSlug`: the title's words, then 8 hex digits of the post's UUID). */
const REAL_SLUG_TAIL = /-[0-9a-f]{8}$/;

const bundledArticleId = (slug: string) => `bundled-${slug}`;

export const BUNDLED_ARTICLES: readonly BundledArticle[] = [
  {
    slug: 'what-to-do-about-a-fever',
    author_id: 'dr-ananya-sharma',
    author_name: 'Dr. Ananya Sharma',
    title: 'What to do about a fever',
    title_hi: 'बुखार में क्या करें',
    description: 'Caring for a fever at home: rest, fluids, measuring the temperature, and the signs that mean you should see a doctor soon.',
    date: '2026-10-02',
    category: 'medical-advice',
    tags: ['fever'],
  },
  {
    slug: 'vaccination-schedule-first-year',
    author_id: 'dr-rohan-iyer',
    author_name: 'Dr. Rohan Iyer',
    title: 'Vaccination schedule for the first year',
    title_hi: null,
    description: "The vaccines of a baby's first year under India's Universal Immunization Programme, from birth to 9–12 months.",
    date: '2026-09-14',
    category: 'preventive-care',
    tags: ['vaccination', 'children'],
  },
  {
    slug: 'monsoon-skin-care',
    author_id: 'dr-meera-kulkarni',
    author_name: 'Dr. Meera Kulkarni',
    title: 'Monsoon skin care',
    title_hi: null,
    description: 'Damp weather and fungal infections: keeping skin dry, what to wear, and why steroid creams bought without advice can make things worse.',
    date: '2026-07-20',
    category: 'health-tips',
    tags: ['skin', 'monsoon'],
  },
  {
    slug: 'know-your-cholesterol',
    author_id: 'dr-arjun-banerjee',
    author_name: 'Dr. Arjun Banerjee',
    title: 'Know your cholesterol numbers',
    title_hi: null,
    description: 'What a lipid profile measures, the commonly used reference values, and why your own targets depend on your heart risk.',
    date: '2026-08-03',
    category: 'preventive-care',
    tags: ['cholesterol', 'heart'],
  },
  {
    slug: 'sleep-hygiene-basics',
    author_id: 'dr-kavya-reddy',
    author_name: 'Dr. Kavya Reddy',
    title: 'Sleep hygiene basics',
    title_hi: null,
    description: 'Everyday habits that help sleep: a steady schedule, light, caffeine and screens, and when poor sleep needs a doctor.',
    date: '2026-06-11',
    category: 'mental-health',
    tags: ['sleep'],
  },
];

const p = (text: string): BlogBlock => ({ type: 'paragraph', data: { text } });
const h = (text: string): BlogBlock => ({ type: 'header', data: { text, level: 2 } });
const ul = (items: string[]): BlogBlock => ({ type: 'list', data: { style: 'unordered', items: items.map((content) => ({ content, meta: {}, items: [] })) } });

/** Every article ends so: general information, not a diagnosis; see a doctor. */
const GENERAL_INFORMATION = p(
  '<i>This article is general information, not a diagnosis or a treatment plan for you. Please consult a doctor about your own symptoms and before starting or stopping any medicine. In an emergency call 112.</i>',
);

const BODIES: Record<string, BlogBlock[]> = {
  'what-to-do-about-a-fever': [
    p('A fever is a body temperature of 38°C (100.4°F) or more. It is usually a sign that the body is fighting an infection, most often a viral one that settles by itself within a few days.'),
    h('At home'),
    ul([
      'Measure the temperature with a thermometer rather than guessing by touch, and note it down with the time.',
      'Rest, and drink plenty of fluids: water, oral rehydration solution (ORS), soups, coconut water.',
      'Wear light clothes; sponging with lukewarm (not cold) water can make you more comfortable.',
      'Paracetamol can ease the fever and aches: follow the dose on the pack or your doctor’s advice, and do not take more than the stated daily limit.',
      'Do not give aspirin to children or teenagers, and do not start antibiotics on your own: most fevers are viral and antibiotics do not help them.',
    ]),
    h('See a doctor soon if'),
    ul([
      'the fever lasts more than 2–3 days, or keeps coming back (in India, dengue, malaria and typhoid need to be tested for);',
      'a baby under 3 months has any fever;',
      'there is a severe headache, stiff neck, confusion, fits, a new rash or bleeding;',
      'there is difficulty breathing, chest pain, repeated vomiting, severe belly pain, or very little urine;',
      'the person is pregnant, elderly, or has diabetes, heart, kidney or lung disease or a weak immune system.',
    ]),
    GENERAL_INFORMATION,
  ],
  'vaccination-schedule-first-year': [
    p('Vaccines protect babies against serious illnesses at the age when they are most at risk. Under India’s Universal Immunization Programme (UIP), these vaccines are given free at government health centres and sessions.'),
    h('The first year under the UIP'),
    ul([
      '<b>At birth:</b> BCG, oral polio vaccine (OPV-0) and the hepatitis B birth dose (best within 24 hours of birth).',
      '<b>6 weeks:</b> OPV-1, pentavalent-1 (diphtheria, pertussis, tetanus, hepatitis B and Hib), rotavirus vaccine-1, fractional inactivated polio vaccine (fIPV-1) and pneumococcal conjugate vaccine (PCV-1).',
      '<b>10 weeks:</b> OPV-2, pentavalent-2 and rotavirus vaccine-2.',
      '<b>14 weeks:</b> OPV-3, pentavalent-3, rotavirus vaccine-3, fIPV-2 and PCV-2.',
      '<b>9–12 months:</b> measles-rubella (MR-1), the PCV booster and vitamin A (first dose); fIPV-3 and Japanese encephalitis vaccine (JE-1, in districts where JE occurs) where the programme includes them.',
    ]),
    p('Source: the National Immunization Schedule of the Universal Immunization Programme, Ministry of Health and Family Welfare, Government of India (<a href="https://www.mohfw.gov.in/">mohfw.gov.in</a>). The schedule is revised from time to time, and some vaccines depend on the state or district: follow the dates on your child’s Mother and Child Protection (MCP) card.'),
    h('Good to know'),
    ul([
      'If a dose is missed, it is not too late: ask your health worker or paediatrician to catch up; the course does not usually need to restart.',
      'Mild fever, fussiness or a sore spot where the injection was given are common for a day or two.',
      'Seek care at once for high fever, a fit, continuous crying for hours, or swelling of the face or difficulty breathing after a vaccine.',
      'Your paediatrician may also suggest optional vaccines outside the UIP; ask what each one is for.',
    ]),
    GENERAL_INFORMATION,
  ],
  'monsoon-skin-care': [
    p('Humid, rainy weather keeps the skin damp for long hours. That suits fungi and bacteria, so fungal infections (ringworm, or tinea), athlete’s foot, heat rash and infected cuts become more common in the monsoon.'),
    h('Everyday care'),
    ul([
      'Change out of wet clothes and socks as soon as you can, and dry the skin well, especially the groin, underarms, under the breasts and between the toes.',
      'Prefer loose cotton clothes; let shoes dry fully, and wear open footwear when you can.',
      'Do not share towels, combs or clothes; wash towels often and dry them in the sun if possible.',
      'Wash your feet with soap and dry them after walking through rain or flood water; clean any cut and watch it.',
      'Use a gentle cleanser and a light moisturiser, and keep using sunscreen outdoors: ultraviolet light passes through clouds.',
    ]),
    h('Avoid self-treatment with steroid creams'),
    p('Many creams sold for itching combine a steroid with other medicines. On a fungal infection they may calm the itch for a while but let the infection spread and return. Use a skin cream only on a doctor’s advice.'),
    h('See a doctor if'),
    p('an itchy, ring-shaped or spreading rash does not settle within a week or two, a cut becomes red, hot, swollen or painful, or you develop fever after wading through flood water.'),
    GENERAL_INFORMATION,
  ],
  'know-your-cholesterol': [
    p('Cholesterol is carried in the blood by particles called lipoproteins. High levels usually cause no symptoms but raise the risk of heart attack and stroke over the years, so the only way to know your numbers is a blood test called a lipid profile.'),
    h('What the lipid profile shows'),
    ul([
      '<b>LDL cholesterol</b> (“bad” cholesterol): the main target of treatment. Below 100 mg/dL is commonly called optimal; people with heart disease, diabetes or other high risk are usually given lower targets by their doctor.',
      '<b>HDL cholesterol</b> (“good” cholesterol): at least 40 mg/dL in men and 50 mg/dL in women is generally considered better.',
      '<b>Triglycerides:</b> below 150 mg/dL is considered normal.',
      '<b>Total cholesterol:</b> below 200 mg/dL is commonly called desirable.',
    ]),
    p('These are common reference values, not personal targets: your doctor sets yours from your age, blood pressure, sugar, smoking and family history. Laboratories may print slightly different ranges.'),
    h('What helps'),
    ul([
      'Eat more vegetables, fruit, pulses, whole grains and nuts; cut down on fried food, ghee, vanaspati and other sources of saturated and trans fats.',
      'Be active on most days (for example 30 minutes of brisk walking), keep a healthy weight, and do not smoke.',
      'If medicines such as statins are prescribed, take them as advised and do not stop them on your own.',
    ]),
    p('Ask your doctor how often to repeat the test. Seek emergency care for chest pain or pressure, breathlessness, or sudden weakness of the face, arm or leg.'),
    GENERAL_INFORMATION,
  ],
  'sleep-hygiene-basics': [
    p('“Sleep hygiene” means the daily habits and surroundings that make good sleep more likely. Most adults need about 7–9 hours a night.'),
    h('Habits that help'),
    ul([
      'Go to bed and get up at about the same time every day, weekends included.',
      'Get daylight in the morning and some physical activity during the day (not hard exercise just before bed).',
      'Avoid tea, coffee and other caffeine from the afternoon, and avoid alcohol and tobacco in the evening: they disturb sleep.',
      'Keep the bedroom dark, quiet and comfortably cool; put phones and screens away 30–60 minutes before bed.',
      'Keep naps short (20–30 minutes) and before mid-afternoon.',
      'If you cannot sleep after about 20 minutes, get up, do something calm in dim light, and return when sleepy.',
    ]),
    h('See a doctor if'),
    ul([
      'poor sleep continues for several weeks or affects your work, mood or safety (for example drowsy driving);',
      'someone notices loud snoring with pauses in your breathing, or you are very sleepy in the daytime;',
      'worry or low mood keeps you awake. Sleeping pills should only be taken on a doctor’s advice.',
    ]),
    p('If you have thoughts of harming yourself, please seek help now: call Tele-MANAS, the national mental health helpline, on 14416, or 112 in an emergency.'),
    GENERAL_INFORMATION,
  ],
};

/** Whether a slug is a bundled article's (and so never a real post's). */
export function isBundledArticleSlug(slug: string): boolean {
  return !REAL_SLUG_TAIL.test(slug) && BUNDLED_ARTICLES.some((a) => a.slug === slug);
}

/** Whether a post's view is a bundled article's (real posts' ids are UUIDs): it has no views to count. */
export function isBundledArticle(post: { id: string; slug: string | null }): boolean {
  return post.slug !== null && post.id === bundledArticleId(post.slug) && isBundledArticleSlug(post.slug);
}

export function bundledArticlesOf(authorId: string): BundledArticle[] {
  return BUNDLED_ARTICLES.filter((a) => a.author_id === authorId);
}

/**
 * A bundled article as a published post's view, so that the page and the share tags treat it like one: no photo, no
 * views, read time by the seeds' rule. The Hindi title, where there is one, opens the text.
 */
export function bundledArticleView(slug: string): BlogPostView | null {
  const article = isBundledArticleSlug(slug) ? BUNDLED_ARTICLES.find((a) => a.slug === slug) : undefined;
  const body = article && BODIES[article.slug];
  if (!article || !body) return null;
  const blocks = [...(article.title_hi ? [p(`<b>${article.title_hi}</b>`)] : []), ...body];
  const at = `${article.date}T00:00:00.000Z`;
  return {
    id: bundledArticleId(article.slug),
    author_id: article.author_id,
    author_name: article.author_name,
    author_photo_url: null,
    title: article.title,
    description: article.description,
    excerpt: article.description,
    category: article.category,
    tags: article.tags,
    image_url: null,
    date: article.date,
    status: 'published',
    slug: article.slug,
    publish_at: null,
    published_at: at,
    created_at: at,
    updated_at: at,
    views: 0,
    read_time: readTimeMinutes(blocksText(blocks)),
    content: { blocks },
  };
}
