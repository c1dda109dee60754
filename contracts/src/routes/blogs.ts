import { z } from '../zod';
import { publicDoctorParamsSchema } from '../api';
import {
  blogDeletedResponseSchema,
  blogIdParamsSchema,
  blogIdResponseSchema,
  blogImageGrantResponseSchema,
  blogImageParamsSchema,
  blogImageQuerySchema,
  blogImageResponseSchema,
  blogLinkMetaQuerySchema,
  blogLinkMetaResponseSchema,
  blogListQuerySchema,
  blogListResponseSchema,
  blogPostStateSchema,
  blogPostSummarySchema,
  blogPostViewSchema,
  blogSlugParamsSchema,
  blogTopicIdeasQuerySchema,
  blogTopicIdeasResponseSchema,
  blogViewRequestSchema,
  blogViewResponseSchema,
  createBlogRequestSchema,
  deleteBlogRequestQuerySchema,
  scheduleBlogRequestSchema,
  updateBlogRequestSchema,
} from '../blog';
import { defineRoutes } from './define';

const tags = ['blogs'];

/** The blogs area's routes: schemas and answers (their names, methods and paths are in paths/blogs.ts). */
export const blogsRoutes = defineRoutes({
  createBlogPost: {
    summary: "Save a new post as a draft (the seeds' call: title, description, content; also category, tags, excerpt, image_url, date)",
    tags,
    body: createBlogRequestSchema,
    response: blogIdResponseSchema,
    successStatus: 201,
    errors: [409],
  },
  updateBlogPost: {
    summary: 'Save the post again (its author): every field as it now stands',
    tags,
    params: blogIdParamsSchema,
    body: updateBlogRequestSchema,
    response: blogPostStateSchema,
    errors: [404, 422],
  },
  publishBlogPost: {
    summary: 'Publish the post now (its author; needs a title and content): answers the post with its slug',
    tags,
    params: blogIdParamsSchema,
    response: blogPostStateSchema,
    errors: [404, 422],
  },
  scheduleBlogPost: {
    summary: 'Schedule the post to be published at a future time (its author); the scheduler publishes it then',
    tags,
    params: blogIdParamsSchema,
    body: scheduleBlogRequestSchema,
    response: blogPostStateSchema,
    errors: [404, 409, 422],
  },
  unscheduleBlogPost: {
    summary: 'Take a scheduled post back to the drafts (its author)',
    tags,
    params: blogIdParamsSchema,
    response: blogPostStateSchema,
    errors: [404, 409],
  },
  archiveBlogPost: {
    summary: 'Archive the post (its author): it leaves the public pages; publishing it again brings it back',
    tags,
    params: blogIdParamsSchema,
    response: blogPostStateSchema,
    errors: [404],
  },
  deleteBlogPost: {
    summary: 'Delete the post (its author, with the confirmation the screen asked for: `?confirm=true`)',
    tags,
    params: blogIdParamsSchema,
    query: deleteBlogRequestQuerySchema,
    response: blogDeletedResponseSchema,
    errors: [404, 422],
  },
  recordBlogPostView: {
    summary: "Count a reader's view of a published post: once per reader session (a signed-in reader is one session), never its author's",
    tags,
    params: blogIdParamsSchema,
    body: blogViewRequestSchema,
    response: blogViewResponseSchema,
    errors: [404],
  },
  getBlogLinkMeta: {
    summary: "The link block's preview (Editor.js link tool): the address's own host as its title; no outside site is fetched",
    tags,
    query: blogLinkMetaQuerySchema,
    response: blogLinkMetaResponseSchema,
    errors: [422],
  },
  uploadBlogImage: {
    summary:
      "Upload an image for a post (multipart `image` or `file`; 5 MB; JPG, PNG, GIF or WebP by content): Editor.js image tool's answer, its address carrying the author's short-lived grant (the picture is theirs alone until a published post shows it)",
    tags,
    multipart: z.object({}),
    response: blogImageResponseSchema,
    successStatus: 201,
    errors: [413, 415, 422, 429, 503],
  },
  listBlogTopicIdeas: {
    summary:
      "The Writing Assistant's topic ideas: from the writing model when one is configured (sent only the doctor's specialty and the post's title and category), otherwise or when it fails three of the bundled ideas, saying so",
    tags,
    query: blogTopicIdeasQuerySchema,
    response: blogTopicIdeasResponseSchema,
  },
  getBlogImage: {
    summary:
      "A post's image, served with the type its content was found to be: anyone's once a published post of its author shows it (cached publicly); otherwise only with its author's short-lived grant (`exp`, `sig`), which their own reads of the post carry",
    tags,
    params: blogImageParamsSchema,
    query: blogImageQuerySchema,
    errors: [404],
  },
  getBlogImageGrant: {
    summary:
      "A fresh short-lived address for one of the caller's own pictures: the editor asks for it before the grant it holds runs out (or when a picture fails to load), so a post open for hours keeps showing its pictures",
    tags,
    params: blogImageParamsSchema,
    response: blogImageGrantResponseSchema,
    errors: [404],
  },
  listMyBlogPosts: {
    summary:
      "The doctor's own posts: a tab (status), category, search (q), sort by date, title or views; counts per status and category, views and reading time. A search among more than 1,000 posts of the tab counts its total among the first 1,000 in the list's order and says so with `X-Total-Is-Lower-Bound: true`",
    tags,
    query: blogListQuerySchema,
    response: blogListResponseSchema,
  },
  getBlogPost: {
    summary: 'One post with its blocks: its author sees it in any status, anyone signed in sees it once published',
    tags,
    params: blogIdParamsSchema,
    response: blogPostViewSchema,
    errors: [404],
  },
  getPublicBlogPost: {
    summary: 'A published post by its slug, for its public page (no sign-in)',
    tags: ['public'],
    params: blogSlugParamsSchema,
    response: blogPostViewSchema,
    errors: [404],
  },
  listPublicDoctorBlogPosts: {
    summary: "A doctor's published posts, newest first, for their public page (no sign-in)",
    tags: ['public'],
    params: publicDoctorParamsSchema,
    response: z.array(blogPostSummarySchema),
    errors: [404],
  },
});
