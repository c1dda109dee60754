import { BLOG_CATEGORIES, BLOG_STATUSES, type BlogListQuery, type BlogListResponse } from '@telemed/contracts';
import type { Filter, ReadCollection, ReadStore } from '@telemed/platform';
import { BLOG_AUTHORS, BLOG_LIST_ORDERS, BLOG_POSTS, viewMonth, type BlogAuthorDoc, type BlogPostDoc } from './projection';
import { summary } from './published';

/**
 * How many of the doctor's posts of the tab a search reads to count its matches. With more, the total is the count
 * among these (a lower bound, which the answer's X-Total-Is-Lower-Bound header says), and the page is read in order
 * until it is filled.
 */
export const SEARCH_COUNT_SCAN = 1000;

/** A page of the list, its total, and whether that total is only a lower bound (a search among many posts). */
interface ListPage {
  items: BlogPostDoc[];
  total: number;
  totalIsLowerBound: boolean;
}

/** A word as a pattern that matches it literally (MongoDB refuses a NUL byte in a pattern, not its escape). */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');

/** Whether a post's search text (lower-cased title, excerpt, tags and text) holds every word. */
const matchesWords = (doc: BlogPostDoc, words: readonly string[]) => words.every((w) => doc.search_text.includes(w));

/** The same test as a filter every store applies while it reads in order, so a find stops once its page is filled. */
const wordsFilter = (words: readonly string[]): Filter => ({ $and: words.map((w) => ({ search_text: { $regex: escapeRegex(w) } })) });

/** Only the page: an indexed find in the (author_id[, status][, category], sort fields) order, and a count of the index entries. */
async function listPage(posts: ReadCollection<BlogPostDoc>, filter: Filter, sort: Record<string, 1 | -1>, query: BlogListQuery): Promise<ListPage> {
  const [items, total] = await Promise.all([posts.find(filter, { sort, skip: query.offset, limit: query.limit }), posts.count(filter)]);
  return { items, total, totalIsLowerBound: false };
}

/**
 * A search in the text has no index: it reads the tab's first SEARCH_COUNT_SCAN posts in the list's order (for most
 * doctors all of them, and then the answer is exact); with more, a page beyond them is read in order until filled.
 */
async function searchPage(posts: ReadCollection<BlogPostDoc>, filter: Filter, sort: Record<string, 1 | -1>, query: BlogListQuery, words: readonly string[]): Promise<ListPage> {
  const end = query.offset + query.limit;
  const scanned = await posts.find(filter, { sort, limit: SEARCH_COUNT_SCAN });
  const found = scanned.filter((d) => matchesWords(d, words));
  if (scanned.length < SEARCH_COUNT_SCAN) return { items: found.slice(query.offset, end), total: found.length, totalIsLowerBound: false };
  const items = found.length >= end ? found.slice(query.offset, end) : await posts.find({ ...filter, ...wordsFilter(words) }, { sort, skip: query.offset, limit: query.limit });
  // A page cut short by the last match tells the total exactly; otherwise more matches may follow the posts counted.
  const exact = items.length < query.limit && (items.length > 0 || query.offset === 0);
  return { items, total: items.length > 0 ? Math.max(found.length, query.offset + items.length) : found.length, totalIsLowerBound: !exact };
}

/** A doctor's own posts: one tab, a category, a search, sorted; with the sidebar's counts and figures. */
export async function doctorBlogList(readStore: ReadStore, authorId: string, query: BlogListQuery, now: Date): Promise<BlogListResponse & { totalIsLowerBound: boolean }> {
  const posts = readStore.collection<BlogPostDoc>(BLOG_POSTS);
  const author = await readStore.collection<BlogAuthorDoc>(BLOG_AUTHORS).get(authorId);
  const filter: Filter = query.status === 'all' ? { author_id: authorId } : { author_id: authorId, status: query.status };
  if (query.category) filter.category = query.category;
  const direction = (query.order ?? (query.sort === 'title' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  // No _id: the store orders ties by it in the keys' direction, so the projection's index is read one way, forwards or backwards.
  const sort: Record<string, 1 | -1> = Object.fromEntries(BLOG_LIST_ORDERS[query.sort].map((f) => [f, direction] as const));
  const words = (query.q ?? '').toLocaleLowerCase('en').split(/\s+/).filter(Boolean);
  const { items, total, totalIsLowerBound } = words.length === 0 ? await listPage(posts, filter, sort, query) : await searchPage(posts, filter, sort, query, words);
  const byStatus = author?.by_status ?? {};
  const counts = {
    all: BLOG_STATUSES.reduce((n, s) => n + (byStatus[s] ?? 0), 0),
    published: byStatus.published ?? 0,
    draft: byStatus.draft ?? 0,
    scheduled: byStatus.scheduled ?? 0,
    archived: byStatus.archived ?? 0,
  };
  return {
    items: items.map((d) => summary(d, author)),
    total,
    totalIsLowerBound,
    counts,
    categories: BLOG_CATEGORIES.map((c) => ({ id: c.id, name: c.name, count: author?.by_category[c.id] ?? 0 })),
    stats: {
      total_views: author?.total_views ?? 0,
      this_month: author?.views_by_month[viewMonth(now.toISOString())] ?? 0,
      avg_read_time: counts.all ? Math.round(((author?.read_time_sum ?? 0) / counts.all) * 10) / 10 : 0,
    },
  };
}
