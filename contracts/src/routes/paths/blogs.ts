import type { RoutePath } from '../path-types';

/** The blogs area's routes: name, method and path (zod-free; the frontend bundles this). */
export const blogsPaths = {
  createBlogPost: { method: 'post', path: '/blogs/' },
  updateBlogPost: { method: 'put', path: '/blogs/:id' },
  publishBlogPost: { method: 'post', path: '/blogs/:id/publish' },
  scheduleBlogPost: { method: 'post', path: '/blogs/:id/schedule' },
  unscheduleBlogPost: { method: 'post', path: '/blogs/:id/unschedule' },
  archiveBlogPost: { method: 'post', path: '/blogs/:id/archive' },
  deleteBlogPost: { method: 'delete', path: '/blogs/:id' },
  recordBlogPostView: { method: 'post', path: '/blogs/:id/views' },
  getBlogLinkMeta: { method: 'get', path: '/blogs/link-meta' },
  uploadBlogImage: { method: 'post', path: '/blogs/images' },
  listBlogTopicIdeas: { method: 'get', path: '/blogs/topic-ideas' },
  getBlogImage: { method: 'get', path: '/blogs/images/:image_id' },
  getBlogImageGrant: { method: 'get', path: '/blogs/images/:image_id/grant' },
  listMyBlogPosts: { method: 'get', path: '/blogs/' },
  getBlogPost: { method: 'get', path: '/blogs/:id' },
  getPublicBlogPost: { method: 'get', path: '/public/blogs/:slug' },
  listPublicDoctorBlogPosts: { method: 'get', path: '/public/doctors/:doctor_id/blogs' },
} as const satisfies Record<string, RoutePath>;
