import { describe, it } from 'node:test';
import type { EventData } from '@telemed/contracts';
import { SPEC_TIME, event, freshId, projectionSpec } from '../support/projection-spec';
import { appointmentRequested, doctorRegistered, erased, people, registered } from '../support/spec-events';

const blog = projectionSpec('blog_posts');
const PUBLISHED_AT = '2026-03-03T06:00:00.000Z';
const TEXT = 'Walk thirty minutes a day.';

/** A doctor (known to the hub by name), a picture of theirs and a post of theirs showing it as its cover. */
function hub() {
  const author = freshId('doctor');
  const post = freshId('post');
  const image = freshId('image');
  const fields: Omit<EventData<'BlogPostCreated'>, 'post_id' | 'author_id'> = {
    title: 'Walking for a Healthy Heart',
    description: null,
    excerpt: 'Why a daily walk helps',
    category: 'health-tips',
    tags: ['heart', 'exercise'],
    image_url: `/api/v1/blogs/images/${image}`,
    date: '2026-03-01',
    content: { blocks: [{ id: 'b1', type: 'paragraph', data: { text: TEXT } }] },
  };
  const known = [registered({ user_id: author, name: 'Dr. Vikram Shah', account_type: 'doctor' })];
  const picture = event('BlogImageStored', { image_id: image, author_id: author, blob_id: `blob-${image}`, content_type: 'image/webp', size: 4096, sha256: 'f'.repeat(64) });
  const created = event('BlogPostCreated', { post_id: post, author_id: author, ...fields });
  const published = event('BlogPostPublished', { post_id: post, author_id: author, slug: `walking-for-a-healthy-heart-${post}`, published_at: PUBLISHED_AT, scheduled: false }, { at: PUBLISHED_AT });
  const draft = {
    _id: post,
    author_id: author,
    title: fields.title,
    title_key: 'walking for a healthy heart',
    description: 'Why a daily walk helps',
    excerpt: fields.excerpt,
    category: 'health-tips',
    tags: ['heart', 'exercise'],
    image_url: fields.image_url,
    date: '2026-03-01',
    status: 'draft',
    slug: null as string | null,
    publish_at: null as string | null,
    published_at: null as string | null,
    created_at: SPEC_TIME,
    updated_at: SPEC_TIME,
    views: 0,
    read_time: 1,
    search_text: `walking for a healthy heart\nwhy a daily walk helps\nheart exercise\n${TEXT.toLowerCase()}`,
    image_ids: [image],
    public_image_ids: [] as string[],
  };
  const live = { ...draft, status: 'published', slug: published.data.slug, published_at: PUBLISHED_AT, public_image_ids: [image] };
  const counts = (status: 'draft' | 'published' | 'scheduled' | 'archived' | null, more: Record<string, unknown> = {}) => ({
    _id: author,
    name: 'Dr. Vikram Shah',
    active: true,
    by_status: { published: 0, draft: 0, scheduled: 0, archived: 0, ...(status ? { [status]: 1 } : {}) },
    by_category: { 'health-tips': status ? 1 : 0, 'medical-advice': 0, wellness: 0, nutrition: 0, 'mental-health': 0, 'preventive-care': 0 },
    read_time_sum: status ? 1 : 0,
    total_views: 0,
    views_by_month: {},
    ...more,
  });
  const imageDoc = (published_in: string[]) => ({ _id: image, author_id: author, blob_id: `blob-${image}`, content_type: 'image/webp', size: 4096, published_in });
  return { author, post, image, fields, known, picture, created, published, draft, live, counts, imageDoc };
}

describe('blog_posts projection (the Patient Education Hub)', () => {
  it('a doctor account is an author with nothing written; a patient account is none', () => {
    const h = hub();
    return blog.given().when(...h.known, registered({ user_id: freshId('patient') })).then({ blog_authors: [h.counts(null)] });
  });

  it("a new post is a draft with its card, its blocks apart, and counted in its author's figures; its picture is not public", () => {
    const h = hub();
    return blog
      .given(...h.known, h.picture)
      .when(h.created)
      .then({ blog_posts: [h.draft], blog_contents: [{ _id: h.post, content: h.fields.content }], blog_authors: [h.counts('draft')], blog_images: [h.imageDoc([])], blog_published_revision: [] });
  });

  it('publishing gives it its address and time, makes its picture public, and moves the published revision', () => {
    const h = hub();
    return blog
      .given(...h.known, h.picture, h.created)
      .when(h.published)
      .then({ blog_posts: [h.live], blog_authors: [h.counts('published')], blog_images: [h.imageDoc([h.post])], blog_published_revision: [{ _id: 'published', revision: 1 }] });
  });

  it('a scheduled post waits for its time (kept as instants are stored); unscheduled, it is a draft again and waits no more', async () => {
    const h = hub();
    const scheduled = event('BlogPostScheduled', { post_id: h.post, author_id: h.author, publish_at: '2026-03-05T03:30:00.000Z' });
    await blog
      .given(...h.known, h.created)
      .when(scheduled)
      .then({ blog_posts: [{ ...h.draft, status: 'scheduled', publish_at: '2026-03-05T03:30:00.000Z' }], blog_scheduled: [{ _id: h.post, publish_at: '2026-03-05T03:30:00Z' }], blog_authors: [h.counts('scheduled')] });
    await blog
      .given(...h.known, h.created, scheduled)
      .when(event('BlogPostUnscheduled', { post_id: h.post, author_id: h.author }))
      .then({ blog_posts: [h.draft], blog_scheduled: [], blog_authors: [h.counts('draft')] });
  });

  it('archiving a published post takes its picture back and moves the published revision', () => {
    const h = hub();
    return blog
      .given(...h.known, h.picture, h.created, h.published)
      .when(event('BlogPostArchived', { post_id: h.post, author_id: h.author }))
      .then({ blog_posts: [{ ...h.live, status: 'archived', public_image_ids: [] }], blog_images: [h.imageDoc([])], blog_authors: [h.counts('archived')], blog_published_revision: [{ _id: 'published', revision: 2 }] });
  });

  it('an edit of a published post rewrites its card and blocks, and a cover no longer shown is not public any more', () => {
    const h = hub();
    const content = { blocks: [{ id: 'b1', type: 'paragraph' as const, data: { text: 'Walk forty minutes a day.' } }] };
    return blog
      .given(...h.known, h.picture, h.created, h.published)
      .when(event('BlogPostUpdated', { post_id: h.post, author_id: h.author, ...h.fields, title: 'Walk More', image_url: null, content }, { at: '2026-03-04T06:00:00.000Z' }))
      .then({
        blog_posts: [
          {
            ...h.live,
            title: 'Walk More',
            title_key: 'walk more',
            image_url: null,
            image_ids: [],
            public_image_ids: [],
            updated_at: '2026-03-04T06:00:00.000Z',
            search_text: 'walk more\nwhy a daily walk helps\nheart exercise\nwalk forty minutes a day.',
          },
        ],
        blog_contents: [{ _id: h.post, content }],
        blog_images: [h.imageDoc([])],
        blog_published_revision: [{ _id: 'published', revision: 2 }],
      });
  });

  it("views count on the post and in the author's month, India's month (a view late on 31 March UTC is April's)", () => {
    const h = hub();
    const view = (at: string) => event('BlogPostViewed', { post_id: h.post, author_id: h.author, reader: freshId('reader') }, { at });
    return blog
      .given(...h.known, h.created, h.published)
      .when(view('2026-03-31T10:00:00.000Z'), view('2026-03-31T20:00:00.000Z'))
      .then({ blog_posts: [{ ...h.live, views: 2, public_image_ids: [] }], blog_authors: [h.counts('published', { total_views: 2, views_by_month: { '2026-03': 1, '2026-04': 1 } })] }, { untouched: ['blog_published_revision'] });
  });

  it('a view delivered again is counted once', () => {
    const h = hub();
    return blog
      .given(...h.known, h.created, h.published)
      .when(event('BlogPostViewed', { post_id: h.post, author_id: h.author, reader: freshId('reader') }, { at: '2026-03-10T10:00:00.000Z' }))
      .deliveredAgain()
      .then({ blog_posts: [{ ...h.live, views: 1, public_image_ids: [] }], blog_authors: [h.counts('published', { total_views: 1, views_by_month: { '2026-03': 1 } })] });
  });

  it('a deleted post leaves every list and its counts; a published one moves the revision', () => {
    const h = hub();
    return blog
      .given(...h.known, h.picture, h.created, h.published)
      .when(event('BlogPostDeleted', { post_id: h.post, author_id: h.author }))
      .then({ blog_posts: [], blog_contents: [], blog_images: [h.imageDoc([])], blog_authors: [h.counts(null)], blog_published_revision: [{ _id: 'published', revision: 2 }] });
  });

  it("the author's deactivation hides their published writing from the public pages (standing and revision); reactivation shows it again", async () => {
    const h = hub();
    const closed = event('UserDeactivated', { user_id: h.author, reason: 'Licence under review' });
    await blog.given(...h.known, h.created, h.published).when(closed).then({ blog_authors: [h.counts('published', { active: false })], blog_published_revision: [{ _id: 'published', revision: 2 }] }, { untouched: ['blog_posts'] });
    await blog
      .given(...h.known, h.created, h.published, closed)
      .when(event('UserReactivated', { user_id: h.author }))
      .then({ blog_authors: [h.counts('published')], blog_published_revision: [{ _id: 'published', revision: 3 }] });
  });

  it("the author's erasure removes their writing from every page: posts, blocks, schedule and figures", () => {
    const h = hub();
    const other = freshId('post');
    return blog
      .given(...h.known, h.picture, h.created, h.published, event('BlogPostCreated', { post_id: other, author_id: h.author, ...h.fields }), event('BlogPostScheduled', { post_id: other, author_id: h.author, publish_at: '2026-04-01T03:30:00.000Z' }))
      .when(erased(h.author))
      .then({
        blog_posts: [],
        blog_contents: [],
        blog_scheduled: [],
        blog_images: [h.imageDoc([])],
        blog_authors: [{ ...h.counts(null), name: 'Doctor', active: false }],
        blog_published_revision: [{ _id: 'published', revision: 2 }],
      });
  });

  it('the practice, appointments and a patient erasure leave the hub as it was', () => {
    const h = hub();
    const { patient } = people();
    return blog
      .given(...h.known, h.created, h.published)
      .when(doctorRegistered({ doctor_id: h.author }), appointmentRequested({ appointment_id: freshId('appointment'), doctor_id: h.author, patient_id: patient }), registered({ user_id: patient }), erased(patient))
      .thenUnchanged();
  });
});
