import { BLOG_DEFAULTS, BLOG_TEXTS, type BlogCategory, type BlogStatus, type BlogTab } from '@telemed/contracts/blog-constants';
import { ApiError } from '../../lib/api';
import type { MessageId, Translate } from '../../i18n/useT';

/** What `useErrorText()` gives: a failure in the reader's language. */
export type Explain = (error: unknown, fallback: MessageId, fallbackValues?: Record<string, string | number>) => string;

/** The seeds' categories by their message (seed 001 §3); the server's names are the English ones. */
export const CATEGORY_LABELS: Record<BlogCategory, MessageId> = {
  'health-tips': 'blog.categoryHealthTips',
  'medical-advice': 'blog.categoryMedicalAdvice',
  wellness: 'blog.categoryWellness',
  nutrition: 'blog.categoryNutrition',
  'mental-health': 'blog.categoryMentalHealth',
  'preventive-care': 'blog.categoryPreventiveCare',
};

/** The hub's tabs (BLOG_TABS' labels). */
export const TAB_LABELS: Record<BlogTab, MessageId> = {
  all: 'blog.tabAll',
  published: 'blog.tabPublished',
  draft: 'blog.tabDraft',
  scheduled: 'blog.tabScheduled',
  archived: 'blog.tabArchived',
};

/** A tab with no posts (BLOG_TEXTS.emptyTab). */
export const EMPTY_TAB: Record<BlogTab, MessageId> = {
  all: 'blog.emptyAll',
  published: 'blog.emptyPublished',
  draft: 'blog.emptyDraft',
  scheduled: 'blog.emptyScheduled',
  archived: 'blog.emptyArchived',
};

/** A post's status on its card's chip (lower case, capitalised by the chip's style, as before). */
export const STATUS_LABELS: Record<BlogStatus, MessageId> = {
  published: 'blog.statusPublished',
  draft: 'blog.statusDraft',
  scheduled: 'blog.statusScheduled',
  archived: 'blog.statusArchived',
};

const isCategory = (id: string): id is BlogCategory => Object.hasOwn(CATEGORY_LABELS, id);

/** A category's name in the reader's language (one the app does not know: the name the server gave, else its id). */
export function categoryLabel(t: Translate, id: string, name?: string): string {
  return isCategory(id) ? t(CATEGORY_LABELS[id]) : (name ?? id);
}

/** A post's title as the lists show it: a draft without one (or with the default the server stored) is 'Untitled Draft'. */
export function shownTitle(t: Translate, title: string): string {
  return title && title !== BLOG_DEFAULTS.title ? title : t('blog.untitledDraft');
}

/** A card's summary: the excerpt, else the description, else (or the stored default) 'No excerpt'. */
export function shownExcerpt(t: Translate, excerpt: string | null | undefined, description: string | null | undefined): string {
  const text = excerpt || description || BLOG_DEFAULTS.excerpt;
  return text === BLOG_DEFAULTS.excerpt ? t('blog.noExcerpt') : text;
}

// BLOG_TEXTS.modelIdeasNotice around its model's name, to read the name back out of a notice the server sent.
const [MODEL_NOTICE_BEFORE, MODEL_NOTICE_AFTER] = BLOG_TEXTS.modelIdeasNotice('\u0000').split('\u0000') as [string, string];

/** The Writing Assistant's notice (the server's English) in the reader's language when it is one of the seeds' texts. */
export function ideasNotice(t: Translate, notice: string): string {
  if (notice === BLOG_TEXTS.bundledIdeasNotice) return t('blog.bundledIdeasNotice');
  if (notice === BLOG_TEXTS.modelFailedNotice) return t('blog.modelFailedNotice');
  if (notice.length > MODEL_NOTICE_BEFORE.length + MODEL_NOTICE_AFTER.length && notice.startsWith(MODEL_NOTICE_BEFORE) && notice.endsWith(MODEL_NOTICE_AFTER)) {
    return t('blog.modelIdeasNotice', { model: notice.slice(MODEL_NOTICE_BEFORE.length, notice.length - MODEL_NOTICE_AFTER.length) });
  }
  return notice;
}

/**
 * Why an image did not upload: `uploadBlogImage` wraps the server's refusal (its cause) in an Error of the seeds' text;
 * in English the refusal's detail as before, else its code's message; anything else, 'Error uploading image'.
 */
export function uploadErrorText(explain: Explain, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof ApiError ? error.cause : error;
  return explain(cause, 'blog.imageUploadError');
}

/** 'Failed to publish blog: {detail}' for an answer of the server's (a 5xx: its internal error), else 'Failed to publish blog'. */
export function publishFailedText(t: Translate, explain: Explain, error: unknown): string {
  return error instanceof ApiError ? t('blog.publishFailedDetail', { detail: explain(error, 'errors.internal_error') }) : t('blog.publishFailed');
}
