import type { PersonalDataExport } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import { CONSULTATIONS, CONSULTATION_MESSAGES, type ConsultationDoc, type ConsultationMessageDoc } from '../consultations/projection';
import { BLOG_CONTENTS, BLOG_IMAGES, BLOG_POSTS, type BlogContentDoc, type BlogImageDoc, type BlogPostDoc } from '../blogs/projection';

/**
 * The person's consultations: as the patient with the whole chat (their health data, whoever wrote it), as the
 * doctor the facts only (the chat is the patient's).
 */
export async function consultationsOf(readStore: ReadStore, me: string, sharedWith: (appointmentId: string) => PersonalDataExport['consultations'][number]['shared_with']) {
  const consultations = readStore.collection<ConsultationDoc>(CONSULTATIONS);
  const messages = readStore.collection<ConsultationMessageDoc>(CONSULTATION_MESSAGES);
  const [asPatient, asDoctor] = await Promise.all([consultations.find({ patient_id: me }), consultations.find({ doctor_id: me })]);
  const mine = [...asPatient, ...asDoctor.filter((c) => c.patient_id !== me)].sort((a, b) => a.started_at.localeCompare(b.started_at) || a._id.localeCompare(b._id));
  return Promise.all(
    mine.map(async (c): Promise<PersonalDataExport['consultations'][number]> => {
      const as = c.patient_id === me ? ('patient' as const) : ('doctor' as const);
      const chat = as === 'patient' ? await messages.find({ appointment_id: c.appointment_id }, { sort: { position: 1 } }) : [];
      return {
        appointment_id: c.appointment_id,
        as,
        status: c.status,
        started_at: c.started_at,
        ends_at: c.ends_at,
        ended_at: c.ended_at,
        auto_ended: c.auto_ended,
        messages: chat.map((m) => ({ message_id: m.message_id, from: m.sender_id === me ? ('you' as const) : m.sender_id === c.doctor_id ? ('doctor' as const) : ('patient' as const), text: m.text, sent_at: m.sent_at })),
        shared_with: as === 'patient' ? sharedWith(c.appointment_id) : [],
      };
    }),
  );
}

/** The person's own posts as a doctor, whatever their status, with their text. */
export async function postsOf(readStore: ReadStore, me: string): Promise<PersonalDataExport['blog_posts']> {
  const posts = await readStore.collection<BlogPostDoc>(BLOG_POSTS).find({ author_id: me }, { sort: { created_at: 1, _id: 1 } });
  const contents = readStore.collection<BlogContentDoc>(BLOG_CONTENTS);
  return Promise.all(
    posts.map(async (p) => ({
      post_id: p._id,
      title: p.title,
      description: p.description,
      excerpt: p.excerpt,
      category: p.category,
      tags: p.tags,
      status: p.status,
      slug: p.slug,
      created_at: p.created_at,
      updated_at: p.updated_at,
      published_at: p.published_at,
      views: p.views,
      content: (await contents.get(p._id))?.content ?? null,
    })),
  );
}

/** The person's uploaded blog pictures as a doctor: metadata, and where to get a fresh address for the file. */
export async function imagesOf(readStore: ReadStore, me: string): Promise<PersonalDataExport['blog_images']> {
  const images = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).find({ author_id: me }, { sort: { _id: 1 } });
  return images.map((i) => ({ image_id: i._id, content_type: i.content_type, size: i.size, published_in: i.published_in, grant_url: `/api/v1/blogs/images/${i._id}/grant` }));
}
