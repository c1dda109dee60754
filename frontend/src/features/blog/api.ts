import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRoutes, BlogContent, BlogListResponse, BlogPostState, BlogPostSummary, BlogPostView, BlogTab, BlogSort, BlogCategory } from '@telemed/contracts';
import { BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';

export type { BlogContent, BlogListResponse, BlogPostState, BlogPostSummary, BlogPostView };

/** What the editor sends (POST /blogs/ and PUT /blogs/{id}). */
export type BlogDraft = ApiRoutes['createBlogPost']['body'];

export interface BlogListParams {
  tab: BlogTab;
  sort: BlogSort;
  q: string;
  category: BlogCategory | null;
}

export function blogListQuery(params: BlogListParams): ApiRoutes['listMyBlogPosts']['query'] {
  return { status: params.tab, sort: params.sort, q: params.q.trim() || undefined, category: params.category ?? undefined };
}

/**
 * The doctor's posts. Asked again whenever a list is shown (the hub opened, a tab chosen), even within the app's usual
 * five seconds: a post written meanwhile in another tab or on another device must not be missing from it.
 */
export function useBlogList(params: BlogListParams, enabled = true) {
  return useQuery({ queryKey: ['blogs', 'list', params], queryFn: () => call('listMyBlogPosts', { query: blogListQuery(params) }), enabled, refetchOnMount: 'always' });
}

export function useBlogPost(id: string | null) {
  return useQuery({ queryKey: ['blogs', 'post', id], queryFn: () => call('getBlogPost', { params: { id: id ?? '' } }), enabled: Boolean(id) });
}

/** Saves the draft (creating it the first time); then publishes or schedules when asked. */
export function useSavePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, draft, then }: { id: string | null; draft: BlogDraft; then: 'save' | 'publish' | { schedule: string } }): Promise<BlogPostState | { id: string }> => {
      let postId = id;
      if (postId) await call('updateBlogPost', { params: { id: postId }, body: draft });
      else postId = (await call('createBlogPost', { body: draft })).id;
      if (then === 'publish') return call('publishBlogPost', { params: { id: postId } });
      if (then !== 'save') return call('scheduleBlogPost', { params: { id: postId }, body: { publish_at: then.schedule } });
      return { id: postId };
    },
    onSettled: () => void client.invalidateQueries({ queryKey: ['blogs'] }),
  });
}

/**
 * A draft saving itself as the doctor writes: created the first time, then updated. Only the lists are asked again
 * (their counts, the Drafts tab): the open editor and the Writing Assistant's ideas stay as they are.
 */
export function useAutosaveDraft() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, draft }: { id: string | null; draft: BlogDraft }): Promise<{ id: string }> => {
      if (id) {
        await call('updateBlogPost', { params: { id }, body: draft });
        return { id };
      }
      return { id: (await call('createBlogPost', { body: draft })).id };
    },
    onSuccess: () => void client.invalidateQueries({ queryKey: ['blogs', 'list'] }),
  });
}

/** The list's actions on a post, by the route each calls. */
const POST_ACTIONS = { publish: 'publishBlogPost', archive: 'archiveBlogPost', unschedule: 'unscheduleBlogPost' } as const;

export function usePostAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: keyof typeof POST_ACTIONS | 'delete' }): Promise<BlogPostState | ApiRoutes['deleteBlogPost']['response']> =>
      action === 'delete' ? call('deleteBlogPost', { params: { id }, query: { confirm: 'true' } }) : call(POST_ACTIONS[action], { params: { id } }),
    onSettled: () => void client.invalidateQueries({ queryKey: ['blogs'] }),
  });
}

/**
 * Uploads an image as Editor.js's image tool expects its answer, through the app's API client: the bearer token is the
 * session's at the moment of the upload (renewed tokens included, and renewed once more if it just expired).
 */
export async function uploadBlogImage(file: File): Promise<ApiRoutes['uploadBlogImage']['response']> {
  const form = new FormData();
  form.append('image', file);
  try {
    // An answer without a body (a proxy's empty 201) is no upload either.
    const body: ApiRoutes['uploadBlogImage']['response'] | null = await call('uploadBlogImage', { body: form });
    if (!body || body.success !== 1) throw new Error(BLOG_TEXTS.imageUploadError);
    return body;
  } catch (error) {
    throw new Error(error instanceof ApiError && error.status < 500 && error.detail ? error.detail : BLOG_TEXTS.imageUploadError, { cause: error });
  }
}

/** One id per browser tab: a reader's views of a post count once per session (sessionStorage). */
export function readerSession(): string {
  const key = 'telemed.reader_session';
  try {
    const existing = sessionStorage.getItem(key);
    if (existing) return existing;
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem(key, id);
    return id;
  } catch {
    return Array.from(crypto.getRandomValues(new Uint8Array(18)), (b) => b.toString(16).padStart(2, '0')).join('');
  }
}
