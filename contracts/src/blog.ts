import { z } from './zod';
import { safeText } from './safe-text';
import {
  BLOG_CATEGORY_IDS,
  BLOG_IMAGE_SRC,
  BLOG_IMAGE_WIDTHS,
  BLOG_LIMITS,
  BLOG_SORTS,
  BLOG_STATUSES,
  BLOG_TEXTS,
  EMBED_SERVICES,
  bareBlogImageUrl,
  embedPlayerUrl,
  embedVideoId,
  isAllowedLink,
} from './blog-constants';

/**
 * The Patient Education Hub (issue 16): a post's content is Editor.js block JSON, checked here against an allow-list
 * of block types and their fields. The inline HTML of a block's text (b, i, u, a, mark, code, br) is cleaned on the
 * server with a maintained sanitizer before it is stored; the pages render it through their own allow-list again.
 */
export * from './blog-constants';

const inline = z.string().max(BLOG_LIMITS.blockChars);
/** An uploaded picture's address (with or without its author's grant); stored bare. */
const imageUrl = z.string().regex(BLOG_IMAGE_SRC, BLOG_TEXTS.imageUrlNotAllowed).transform(bareBlogImageUrl);
// Unknown keys (a block's `tunes`, a tool's extra data) are dropped by the schemas, never stored.
const blockId = z.string().max(64).optional();

const headerBlock = z.object({ id: blockId, type: z.literal('header'), data: z.object({ text: inline, level: z.number().int().min(1).max(6) }) });
const paragraphBlock = z.object({ id: blockId, type: z.literal('paragraph'), data: z.object({ text: inline }) });

/** Editor.js list 2.x items (nested, with content), or the older plain strings. */
export type ListItem = string | { content: string; meta?: { checked?: boolean }; items: ListItem[] };
const listItem: z.ZodType<ListItem> = z.lazy(() =>
  z.union([inline, z.object({ content: inline, meta: z.object({ checked: z.boolean().optional() }).optional(), items: z.array(listItem).max(200) })]),
);
function listDepth(items: ListItem[]): number {
  return items.reduce((deepest, item) => Math.max(deepest, typeof item === 'string' ? 1 : 1 + listDepth(item.items)), 0);
}
const listBlock = z.object({
  id: blockId,
  type: z.literal('list'),
  data: z.object({
    style: z.enum(['ordered', 'unordered', 'checklist']),
    meta: z.object({ start: z.number().int().min(-1_000_000).max(1_000_000).optional(), counterType: z.enum(['numeric', 'lower-roman', 'upper-roman', 'lower-alpha', 'upper-alpha']).optional() }).optional(),
    items: z.array(listItem).max(500).refine((items) => listDepth(items) <= BLOG_LIMITS.listDepth, `Lists nest at most ${BLOG_LIMITS.listDepth} deep`),
  }),
});
const quoteBlock = z.object({
  id: blockId,
  type: z.literal('quote'),
  data: z.object({ text: inline, caption: inline.default(''), alignment: z.enum(['left', 'center']).default('left') }),
});
const codeBlock = z.object({ id: blockId, type: z.literal('code'), data: z.object({ code: z.string().max(BLOG_LIMITS.blockChars) }) });
const delimiterBlock = z.object({ id: blockId, type: z.literal('delimiter'), data: z.object({}).passthrough().transform(() => ({})) });
const imageBlock = z.object({
  id: blockId,
  type: z.literal('image'),
  data: z.object({
    file: z.object({ url: imageUrl }),
    caption: inline.default(''),
    withBorder: z.boolean().default(false),
    withBackground: z.boolean().default(false),
    stretched: z.boolean().default(false),
    /** The resize button's choice (an allow-list: the page sets it as the picture's width). */
    width: z.enum(BLOG_IMAGE_WIDTHS, { message: `An image's width is one of ${BLOG_IMAGE_WIDTHS.join(', ')}` }).default('auto'),
  }),
});
const embedBlock = z.object({
  id: blockId,
  type: z.literal('embed'),
  data: z
    .object({
      service: z.enum(Object.keys(EMBED_SERVICES) as [keyof typeof EMBED_SERVICES, ...Array<keyof typeof EMBED_SERVICES>], { message: BLOG_TEXTS.embedHostNotAllowed }),
      source: z.string().max(500),
      embed: z.string().max(500).optional(),
      width: z.number().int().positive().max(4000).optional(),
      height: z.number().int().positive().max(4000).optional(),
      caption: inline.default(''),
    })
    .refine((d) => embedVideoId(d.service, d.source) !== null, { message: BLOG_TEXTS.embedHostNotAllowed, path: ['source'] })
    // The frame's address is the service's own player for the video's id, worked out here: a client's `embed` is
    // never stored (it is what the editor frames, so a `javascript:` or foreign address there would be framed).
    .transform((d) => ({ ...d, embed: embedPlayerUrl(d.service, d.source) ?? '' })),
});
const linkBlock = z.object({
  id: blockId,
  type: z.literal('linkTool'),
  data: z.object({
    link: z.string().max(2000).refine(isAllowedLink, BLOG_TEXTS.linkNotAllowed),
    meta: z
      .object({ title: z.string().max(300).optional(), description: z.string().max(1000).optional() })
      .passthrough()
      .transform((m) => ({ ...(m.title !== undefined ? { title: m.title } : {}), ...(m.description !== undefined ? { description: m.description } : {}) }))
      .default({}),
  }),
});

export const BLOG_BLOCK_TYPES = ['header', 'paragraph', 'list', 'quote', 'code', 'delimiter', 'image', 'embed', 'linkTool'] as const;
export type BlogBlockType = (typeof BLOG_BLOCK_TYPES)[number];

export const blogBlockSchema = z
  .object({ type: z.string() })
  .passthrough()
  .superRefine((block, ctx) => {
    if (!(BLOG_BLOCK_TYPES as readonly string[]).includes(block.type)) ctx.addIssue({ code: 'custom', message: BLOG_TEXTS.blockNotAllowed(block.type.slice(0, 40)), path: ['type'] });
  })
  .pipe(z.discriminatedUnion('type', [headerBlock, paragraphBlock, listBlock, quoteBlock, codeBlock, delimiterBlock, imageBlock, embedBlock, linkBlock]));
export type BlogBlock = z.output<typeof blogBlockSchema>;

/** What Editor.js's `save()` answers. */
export const blogContentSchema = z.object({
  time: z.number().optional(),
  version: z.string().max(40).optional(),
  blocks: z.array(blogBlockSchema).max(BLOG_LIMITS.blocks),
});
export type BlogContent = z.output<typeof blogContentSchema>;

/**
 * Content whose video blocks frame only their service's player: the address is worked out again from the video's
 * page, whatever `embed` a post stored before the schema did so (its events are kept as written).
 */
export function withPlayerEmbeds(content: BlogContent): BlogContent {
  if (!content.blocks.some((block) => block.type === 'embed')) return content;
  return {
    ...content,
    blocks: content.blocks.map((block) => (block.type === 'embed' ? { ...block, data: { ...block.data, embed: embedPlayerUrl(block.data.service, block.data.source) ?? '' } } : block)),
  };
}

const title = safeText('line').trim().max(BLOG_LIMITS.titleChars);
const tag = safeText('line').trim().min(1).max(BLOG_LIMITS.tagChars);
/** Tags as a list, or the editor's comma-separated text (seed 001 §3). */
const tags = z
  .union([z.array(tag), z.string().max(BLOG_LIMITS.tags * (BLOG_LIMITS.tagChars + 2))])
  .transform((v) => (typeof v === 'string' ? v.split(',').map((t) => t.trim()).filter(Boolean) : v))
  .pipe(z.array(tag).max(BLOG_LIMITS.tags))
  .transform((list) => [...new Set(list)]);
const optionalLine = (max: number) => safeText('multiline').trim().max(max).nullish().transform((v) => v || null);
const date = z.iso.date();

/** The post's fields as the editor sends them (seed 001 §2's editor view); POST /blogs/ takes the seeds' three at least. */
export const blogFieldsSchema = z.strictObject({
  title,
  description: optionalLine(BLOG_LIMITS.descriptionChars),
  content: blogContentSchema,
  category: z.enum(BLOG_CATEGORY_IDS).optional(),
  tags: tags.optional(),
  excerpt: optionalLine(BLOG_LIMITS.excerptChars),
  image_url: imageUrl.nullish(),
  date: date.nullish(),
});
export type BlogFields = z.output<typeof blogFieldsSchema>;
export const createBlogRequestSchema = blogFieldsSchema;
export const updateBlogRequestSchema = blogFieldsSchema;

export const blogIdParamsSchema = z.object({ id: z.string().uuid() });
export const blogSlugParamsSchema = z.object({ slug: z.string().min(1).max(120) });
export const blogImageParamsSchema = z.object({ image_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/) });
/** A draft's picture is read with its author's grant (see BLOG_IMAGE_SRC); a published post's needs none. */
export const blogImageQuerySchema = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() });
/** A fresh grant for one of the author's own pictures (an editor open longer than a grant lasts). */
export const blogImageGrantResponseSchema = z.object({ url: z.string(), expires_at: z.iso.datetime() });
export const scheduleBlogRequestSchema = z.strictObject({ publish_at: z.iso.datetime({ offset: true }) });
export const deleteBlogQuerySchema = z.object({ confirm: z.enum(['true']) });
/** What DELETE /blogs/{id} takes: any `confirm`; only `true` (deleteBlogQuerySchema) deletes, else the answer is 422. */
export const deleteBlogRequestQuerySchema = z.object({ confirm: z.string().optional() });
export const blogViewRequestSchema = z.strictObject({ reader_session: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

export const blogListQuerySchema = z.object({
  status: z.enum(['all', ...BLOG_STATUSES]).default('all'),
  category: z.enum(BLOG_CATEGORY_IDS).optional(),
  q: z.string().trim().max(BLOG_LIMITS.searchChars).optional(),
  sort: z.enum(BLOG_SORTS).default('date'),
  order: z.enum(['asc', 'desc']).optional(),
  limit: z.coerce.number().int().min(1).max(BLOG_LIMITS.pageSize).default(BLOG_LIMITS.pageSize),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
export type BlogListQuery = z.output<typeof blogListQuerySchema>;

export const blogPostViewSchema = z.object({
  id: z.string(),
  author_id: z.string(),
  author_name: z.string(),
  author_photo_url: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  excerpt: z.string(),
  category: z.enum(BLOG_CATEGORY_IDS),
  tags: z.array(z.string()),
  image_url: z.string().nullable(),
  date: z.string(),
  status: z.enum(BLOG_STATUSES),
  slug: z.string().nullable(),
  publish_at: z.string().nullable(),
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  views: z.number().int(),
  read_time: z.number().int(),
  content: blogContentSchema,
});
export type BlogPostView = z.output<typeof blogPostViewSchema>;
export const blogPostSummarySchema = blogPostViewSchema.omit({ content: true });
export type BlogPostSummary = z.output<typeof blogPostSummarySchema>;

export const blogListResponseSchema = z.object({
  items: z.array(blogPostSummarySchema),
  total: z.number().int(),
  counts: z.object({ all: z.number().int(), published: z.number().int(), draft: z.number().int(), scheduled: z.number().int(), archived: z.number().int() }),
  categories: z.array(z.object({ id: z.enum(BLOG_CATEGORY_IDS), name: z.string(), count: z.number().int() })),
  stats: z.object({ total_views: z.number().int(), this_month: z.number().int(), avg_read_time: z.number() }),
});
export type BlogListResponse = z.output<typeof blogListResponseSchema>;

export const blogIdResponseSchema = z.object({ id: z.string() });
/** The post as the write side has it after a command (publish answers this, with its slug). */
export const blogPostStateSchema = blogPostViewSchema.omit({ author_name: true, author_photo_url: true, views: true });
export type BlogPostState = z.output<typeof blogPostStateSchema>;
export const blogDeletedResponseSchema = z.object({ id: z.string(), status: z.literal('deleted') });
export const blogImageResponseSchema = z.object({ success: z.literal(1), file: z.object({ url: z.string(), content_type: z.string(), size: z.number().int() }) });
export const blogViewResponseSchema = z.object({ counted: z.boolean() });
/** What the Writing Assistant may pass on to a writing model: the post's title and category (and nothing of a patient). */
export const blogTopicIdeasQuerySchema = z.object({
  title: safeText('line').trim().max(BLOG_LIMITS.titleChars).optional(),
  category: z.enum(BLOG_CATEGORY_IDS).optional(),
});
export const blogTopicIdeasResponseSchema = z.object({
  source: z.enum(['bundled', 'model']),
  notice: z.string().nullable(),
  ideas: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), content: z.string() })),
});

/** The link block's preview (Editor.js link tool's `endpoint` answer): the address's own host as its title. */
export const blogLinkMetaQuerySchema = z.object({ url: z.string().max(2000) });
export const blogLinkMetaResponseSchema = z.object({ success: z.literal(1), link: z.string(), meta: z.object({ title: z.string(), description: z.string() }) });
