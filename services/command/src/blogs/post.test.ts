import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BLOG_TEXTS } from '@telemed/contracts';
import { deciderSpec } from '../decider-spec';
import { blogPostDecider, postFromOutline, postOutlineFold, type BlogPostEvent, type PostFields } from './post';

const spec = deciderSpec(blogPostDecider);
const fields: PostFields = {
  title: 'Fever in children',
  description: null,
  excerpt: null,
  category: 'health-tips',
  tags: [],
  image_url: null,
  date: '2030-01-01',
  content: { blocks: [{ type: 'paragraph', data: { text: 'Give fluids.' } }] },
};
const post = { post_id: '1234abcd-0000-4000-8000-000000000000', author_id: 'doc-1' };
const created: BlogPostEvent = { type: 'BlogPostCreated', data: { ...post, ...fields } };
const now = new Date('2030-01-01T10:00:00.000Z');
const later = new Date('2030-01-02T10:00:00.000Z');
const published: BlogPostEvent = { type: 'BlogPostPublished', data: { ...post, slug: 'fever-in-children-1234abcd', published_at: '2030-01-01T10:00:00Z', scheduled: false } };
const scheduled: BlogPostEvent = { type: 'BlogPostScheduled', data: { ...post, publish_at: '2030-01-02T10:00:00Z' } };

describe('blog post decider', () => {
  it('creates a draft once', () => {
    spec([]).when({ type: 'CreatePost', data: { ...post, fields } }).then([created]);
    spec([created]).when({ type: 'CreatePost', data: { ...post, fields } }).thenThrows('conflict');
  });

  it('publishes with a slug from the title; needs title and content; only its author', () => {
    spec([created]).when({ type: 'PublishPost', data: { actor_id: 'doc-1', now } }).then([published]);
    spec([created, published]).when({ type: 'PublishPost', data: { actor_id: 'doc-1', now } }).then([]);
    spec([created]).when({ type: 'PublishPost', data: { actor_id: 'doc-2', now } }).thenThrows('not_found', BLOG_TEXTS.postNotFound);
    const empty: BlogPostEvent = { type: 'BlogPostCreated', data: { ...post, ...fields, content: { blocks: [] } } };
    spec([empty]).when({ type: 'PublishPost', data: { actor_id: 'doc-1', now } }).thenThrows('invalid', BLOG_TEXTS.titleAndContentRequired);
  });

  it('keeps the first slug when a post is published again after a new title', () => {
    const renamed: BlogPostEvent = { type: 'BlogPostUpdated', data: { ...post, ...fields, title: 'New title' } };
    const archived: BlogPostEvent = { type: 'BlogPostArchived', data: post };
    spec([created, published, renamed, archived]).when({ type: 'PublishPost', data: { actor_id: 'doc-1', now: later } }).then([
      { type: 'BlogPostPublished', data: { ...post, slug: 'fever-in-children-1234abcd', published_at: '2030-01-02T10:00:00Z', scheduled: false } },
    ]);
  });

  it('schedules for a future time; the scheduler publishes it when due, not before', () => {
    spec([created]).when({ type: 'SchedulePost', data: { actor_id: 'doc-1', publish_at: later, now } }).then([scheduled]);
    spec([created]).when({ type: 'SchedulePost', data: { actor_id: 'doc-1', publish_at: now, now } }).thenThrows('invalid', BLOG_TEXTS.scheduleInPast);
    spec([created, published]).when({ type: 'SchedulePost', data: { actor_id: 'doc-1', publish_at: later, now } }).thenThrows('conflict');
    spec([created, scheduled]).when({ type: 'PublishDuePost', data: { now } }).then([]);
    spec([created, scheduled]).when({ type: 'PublishDuePost', data: { now: new Date(later.getTime() + 5000) } }).then([
      { type: 'BlogPostPublished', data: { ...post, slug: 'fever-in-children-1234abcd', published_at: '2030-01-02T10:00:00Z', scheduled: true } },
    ]);
    const unscheduled: BlogPostEvent = { type: 'BlogPostUnscheduled', data: post };
    spec([created, scheduled, unscheduled]).when({ type: 'PublishDuePost', data: { now: later } }).then([]);
    spec([created]).when({ type: 'UnschedulePost', data: { actor_id: 'doc-1' } }).thenThrows('conflict', BLOG_TEXTS.notScheduled);
  });

  it('a published or scheduled post cannot be emptied; an unchanged save records nothing', () => {
    spec([created, published]).when({ type: 'UpdatePost', data: { actor_id: 'doc-1', fields: { ...fields, title: ' ' } } }).thenThrows('invalid');
    spec([created]).when({ type: 'UpdatePost', data: { actor_id: 'doc-1', fields } }).then([]);
  });

  it('deletes with confirmation only; a deleted post is gone', () => {
    const deleted: BlogPostEvent = { type: 'BlogPostDeleted', data: post };
    spec([created]).when({ type: 'DeletePost', data: { actor_id: 'doc-1', confirmed: false } }).thenThrows('invalid', BLOG_TEXTS.deleteNeedsConfirmation);
    spec([created]).when({ type: 'DeletePost', data: { actor_id: 'doc-1', confirmed: true } }).then([deleted]);
    spec([created, deleted]).when({ type: 'PublishPost', data: { actor_id: 'doc-1', now } }).thenThrows('not_found');
  });

  it("the kept outline is the decider's fold without the fields, and names the event that last saved them", () => {
    const renamed: BlogPostEvent = { type: 'BlogPostUpdated', data: { ...post, ...fields, title: 'New title' } };
    const archived: BlogPostEvent = { type: 'BlogPostArchived', data: post };
    const history = [created, scheduled, renamed, published, archived].map((event, revision) => ({ ...event, revision, metadata: { occurred_at: `2030-01-0${revision + 1}T00:00:00Z` } }));
    const outline = history.reduce(postOutlineFold.evolve, postOutlineFold.initialState());
    assert.ok(outline.status !== 'none' && outline.fields_revision === 2, `the rename (revision 2) last saved the fields: ${JSON.stringify(outline)}`);
    assert.ok(!JSON.stringify(outline).includes('Give fluids'), 'the outline holds none of the content');
    assert.deepEqual(postFromOutline(outline, renamed.data), history.reduce(blogPostDecider.evolve, blogPostDecider.initialState()));
  });
});
