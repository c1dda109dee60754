import { BLOG_DEFAULTS, type BlogCategory } from '@telemed/contracts/blog-constants';
import type { BlogContent, BlogDraft, BlogPostView } from './api';

/** Editor.js's room below the last block, in pixels. */
export const EDITOR_MIN_HEIGHT = 160;
/** The empty editor's box (one paragraph, that room, its padding and border): its place is kept at this height while
 * Editor.js loads, so nothing below it moves when it appears. */
export const EDITOR_BOX_HEIGHT = 216;

/** The editor's fields (the blocks are Editor.js's). */
export interface EditorFields {
  title: string;
  category: BlogCategory;
  tags: string;
  excerpt: string;
  image_url: string | null;
  date: string;
  status: 'draft' | 'published' | 'scheduled';
  publish_at: string;
}

/** Asked before the hub leaves the editor (another tab, a new post, closing): true when it may go. */
export type LeaveGuard = () => Promise<boolean>;

/** An idea taken into the editor: its title, excerpt and text. */
export interface EditorSeed {
  title: string;
  excerpt: string;
  content: BlogContent;
}

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());

/** An instant as a datetime-local field's value, in the browser's time (the field has no zone). */
function localDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const emptyFields = (): EditorFields => ({ title: '', category: BLOG_DEFAULTS.category, tags: '', excerpt: '', image_url: null, date: today(), status: 'draft', publish_at: '' });

/** A saved post's fields as the editor opens them (an archived post opens as a draft to publish again). */
export function fieldsOf(post: BlogPostView): EditorFields {
  return {
    title: post.title,
    category: post.category,
    tags: post.tags.join(', '),
    excerpt: post.excerpt === BLOG_DEFAULTS.excerpt ? '' : post.excerpt,
    image_url: post.image_url,
    date: post.date,
    status: post.status === 'archived' ? 'draft' : post.status,
    publish_at: post.publish_at ? localDateTime(post.publish_at) : '',
  };
}

/** The "Publish at" field's value (a datetime-local, in the browser's time) as an instant, or null when empty or invalid. */
export function scheduledInstant(publishAt: string): string | null {
  const at = publishAt ? new Date(publishAt) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
}

export const sameFields = (a: EditorFields, b: EditorFields) => (Object.keys(a) as Array<keyof EditorFields>).every((k) => a[k] === b[k]);

/** The post as the server takes it, from the editor's fields and blocks (seed 001 §5: a draft's defaults). */
export function draftOf(fields: EditorFields, content: BlogContent, publishing: boolean): BlogDraft {
  return {
    title: fields.title.trim() || (publishing ? '' : BLOG_DEFAULTS.title),
    description: null,
    content,
    category: fields.category,
    tags: fields.tags,
    excerpt: fields.excerpt.trim() || (publishing ? null : BLOG_DEFAULTS.excerpt),
    image_url: fields.image_url,
    date: fields.date || null,
  };
}
