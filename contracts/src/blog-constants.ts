/**
 * The Patient Education Hub's constants (issue 16; seed 001 §2, §3, §5, §8, §9): categories, statuses, limits, the
 * seeds' texts, the read-time rule and the bundled topic ideas, written here once. No zod: the frontend imports this
 * subpath (`@telemed/contracts/blog-constants`) without the schemas.
 */

const MB = 1024 * 1024;

/** Seed 001 §3: the categories, in the sidebar's order. */
export const BLOG_CATEGORIES = [
  { id: 'health-tips', name: 'Health Tips' },
  { id: 'medical-advice', name: 'Medical Advice' },
  { id: 'wellness', name: 'Wellness' },
  { id: 'nutrition', name: 'Nutrition' },
  { id: 'mental-health', name: 'Mental Health' },
  { id: 'preventive-care', name: 'Preventive Care' },
] as const;
export const BLOG_CATEGORY_IDS = ['health-tips', 'medical-advice', 'wellness', 'nutrition', 'mental-health', 'preventive-care'] as const;
export type BlogCategory = (typeof BLOG_CATEGORY_IDS)[number];

/** Seed 001 §3: the statuses (a deleted post is gone from every list). */
export const BLOG_STATUSES = ['published', 'draft', 'scheduled', 'archived'] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];

/** The sidebar's tabs (seed 001 §2) and the status each lists (All Posts: every status). */
export const BLOG_TABS = [
  { id: 'all', label: 'All Posts' },
  { id: 'published', label: 'Published' },
  { id: 'draft', label: 'Drafts' },
  { id: 'scheduled', label: 'Scheduled' },
  { id: 'archived', label: 'Archived' },
] as const;
export type BlogTab = (typeof BLOG_TABS)[number]['id'];

export const BLOG_SORTS = ['date', 'title', 'views'] as const;
export type BlogSort = (typeof BLOG_SORTS)[number];

export const BLOG_LIMITS = {
  /** Seed 001 §5, §9: blog image max 5 MB. */
  imageBytes: 5 * MB,
  titleChars: 200,
  excerptChars: 500,
  descriptionChars: 500,
  tags: 10,
  tagChars: 40,
  blocks: 300,
  /** One block's text (its inline HTML included). */
  blockChars: 20_000,
  /** Seed 001 §9: read time is the text's length over this, rounded up. */
  charsPerMinute: 200,
  /** Seed 001 §5: the default description is this many characters of the content plus an ellipsis. */
  descriptionFromContentChars: 100,
  /** Nesting of list items. */
  listDepth: 5,
  searchChars: 100,
  pageSize: 50,
  /** Image uploads one doctor may have under way at once (per server process). */
  imagesInFlight: 3,
} as const;

/** The seeds' messages (§5, §8) and our own where they give none. */
export const BLOG_TEXTS = {
  titleAndContentRequired: 'Please fill in title and content',
  loginToPublish: 'Please log in to publish blogs',
  publishFailed: (detail?: string) => (detail ? `Failed to publish blog: ${detail}` : 'Failed to publish blog'),
  imageTooLarge: 'File size must be less than 5MB',
  imageReadError: 'Error reading file',
  imageUploadError: 'Error uploading image',
  imageType: 'Please choose a JPG, PNG, GIF or WebP image',
  imagesInFlight: 'You have 3 pictures uploading. Please wait for one to finish.',
  deleteConfirm: 'Delete this post? This cannot be undone.',
  deleteNeedsConfirmation: 'Deleting a post needs confirmation',
  postNotFound: 'Post not found',
  imageNotFound: 'Image not found',
  alreadyDeleted: 'This post was deleted',
  scheduleInPast: 'Choose a time in the future to schedule the post',
  publishAtRequired: 'Choose the date and time to publish the post',
  cannotSchedulePublished: 'This post is already published; archive it first to schedule it again',
  notScheduled: 'This post is not scheduled',
  blockNotAllowed: (type: string) => `Blocks of type "${type}" are not allowed`,
  embedHostNotAllowed: 'Videos can be embedded from YouTube or Vimeo only',
  imageUrlNotAllowed: 'Images must be uploaded to this site',
  linkNotAllowed: 'Links must start with http://, https:// or mailto:',
  multipartRequired: 'Content-Type must be multipart/form-data',
  fileRequired: 'Select an image to upload',
  oneImageOnly: 'Upload one image at a time',
  emptyTab: {
    all: 'No posts yet. Write your first one with New Blog Post.',
    published: 'No published posts yet.',
    draft: 'No drafts.',
    scheduled: 'No scheduled posts.',
    archived: 'No archived posts.',
  },
  emptySearch: (query: string) => `No posts match "${query}".`,
  views: (count: number) => `${count.toLocaleString('en-IN')} ${count === 1 ? 'view' : 'views'}`,
  postArchived: 'Post archived',
  postArchivedMessage: 'It is no longer on your public page. Publish again brings it back.',
  postPublishedAgain: 'Post published again',
  postDeleted: 'Post deleted',
  postUnscheduled: 'Post moved back to drafts',
  changesSaved: 'Changes saved',
  publishedEditNotice: 'This post is published: saved changes show on its public page at once. Archive it from the list to take it down.',
  viewPost: 'View post',
  useIdeaTitle: 'Use this idea?',
  useIdeaReplaces: 'Its title, excerpt and text replace what is in the editor now. Nothing is saved until you save.',
  bundledIdeasNotice: 'No writing model is configured: these are bundled topic ideas, not generated for you.',
  modelFailedNotice: 'The writing model did not answer: these are bundled topic ideas, not generated for you.',
  modelIdeasNotice: (model: string) => `Suggested by a writing model (${model}) from your specialty and this post's title and category: check every fact before you publish.`,
} as const;

/** Seed 001 §5: a draft's defaults. */
export const BLOG_DEFAULTS = {
  title: 'Untitled Draft',
  excerpt: 'No excerpt',
  category: 'health-tips' as BlogCategory,
} as const;

/** Hosts a video may be embedded from (the embed block's `service`), and the player address each is shown through. */
export const EMBED_SERVICES = {
  youtube: { hosts: ['www.youtube.com', 'youtube.com', 'youtu.be', 'm.youtube.com', 'www.youtube-nocookie.com'], player: 'https://www.youtube-nocookie.com/embed/' },
  vimeo: { hosts: ['vimeo.com', 'www.vimeo.com', 'player.vimeo.com'], player: 'https://player.vimeo.com/video/' },
} as const;
export type EmbedService = keyof typeof EMBED_SERVICES;
/** Frame sources the pages' Content Security Policy allows (the players above). */
export const EMBED_FRAME_SOURCES = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'] as const;

/** The video's id on an allowed service, from its page or player address; null when it is not one of them. */
export function embedVideoId(service: string, url: string): string | null {
  if (!Object.hasOwn(EMBED_SERVICES, service)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const rule = EMBED_SERVICES[service as EmbedService];
  if (parsed.protocol !== 'https:' || !(rule.hosts as readonly string[]).includes(parsed.hostname)) return null;
  const id =
    service === 'youtube'
      ? parsed.hostname === 'youtu.be'
        ? parsed.pathname.slice(1)
        : (parsed.searchParams.get('v') ?? /^\/(?:embed|shorts|live)\/([^/]+)/.exec(parsed.pathname)?.[1] ?? '')
      : (/^\/(?:video\/)?(\d+)/.exec(parsed.pathname)?.[1] ?? '');
  const pattern = service === 'youtube' ? /^[A-Za-z0-9_-]{6,20}$/ : /^\d{1,15}$/;
  return pattern.test(id) ? id : null;
}

/** The player address of an allowed video (what the page frames), or null. */
export function embedPlayerUrl(service: string, url: string): string | null {
  const id = embedVideoId(service, url);
  return id ? EMBED_SERVICES[service as EmbedService].player + id : null;
}

/** Image types accepted (by content, never by name). */
export const BLOG_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Where an uploaded image is served from; an image block's file must point here. */
export const BLOG_IMAGE_PATH = '/api/v1/blogs/images/';
export const BLOG_IMAGE_URL = /^\/api\/v1\/blogs\/images\/[A-Za-z0-9-]{8,64}$/;
/**
 * A picture of a post that is not published has no public address: its author's screens get it with a short-lived
 * grant (`?exp=&sig=`, an HMAC the server checks) minted for them. The editor may send such an address back; what is
 * stored is always the bare address above, which anyone may load once a published post of its author shows it.
 */
export const BLOG_IMAGE_SRC = /^\/api\/v1\/blogs\/images\/[A-Za-z0-9-]{8,64}(\?exp=\d{1,12}&sig=[A-Za-z0-9_-]{43})?$/;
export const BLOG_IMAGE_GRANT = { purpose: 'blog-image', ttlSeconds: 3600, bucketSeconds: 600 } as const;

/** Seed 001 §2: 'Image resize cycles 25%, 50%, 75%, 100%, auto' (an image block's `width`; auto is the picture's own). */
export const BLOG_IMAGE_WIDTHS = ['25%', '50%', '75%', '100%', 'auto'] as const;
export type BlogImageWidth = (typeof BLOG_IMAGE_WIDTHS)[number];

/** A stored width, or auto for anything else (posts saved before widths existed). */
export function blogImageWidth(value: unknown): BlogImageWidth {
  return (BLOG_IMAGE_WIDTHS as readonly unknown[]).includes(value) ? (value as BlogImageWidth) : 'auto';
}

/** The width the resize button moves to next: 25%, 50%, 75%, 100%, auto, and round again. */
export function nextBlogImageWidth(width: BlogImageWidth): BlogImageWidth {
  return BLOG_IMAGE_WIDTHS[(BLOG_IMAGE_WIDTHS.indexOf(width) + 1) % BLOG_IMAGE_WIDTHS.length]!;
}

/** The stored (bare) address of an uploaded picture, from either form. */
export function bareBlogImageUrl(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/** The address of a picture with its author's grant. */
export function grantedBlogImageUrl(imageId: string, grant: { exp: number; sig: string }): string {
  return `${BLOG_IMAGE_PATH}${imageId}?exp=${grant.exp}&sig=${grant.sig}`;
}

/** The picture's id in an address of ours, or null. */
export function blogImageId(url: string): string | null {
  return BLOG_IMAGE_SRC.test(url) ? bareBlogImageUrl(url).slice(BLOG_IMAGE_PATH.length) : null;
}

/** Inline tags a block's text may hold (seed 001 §2's toolbar as Editor.js's inline tools). */
export const BLOG_INLINE_TAGS = ['b', 'i', 'u', 'a', 'mark', 'code', 'br'] as const;
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

/** A link the pages may follow: http(s) or mailto only (never javascript:, data: or a relative trick). */
export function isAllowedLink(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href.trim());
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The text of a block's inline HTML: tags dropped, the common entities read. */
export function inlineText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16) || 32);
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)) || 32);
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** Just enough of a block to read its text (the zod schema in `blog.ts` is the full shape). */
export interface BlockLike {
  type: string;
  data: Record<string, unknown>;
}

type ListItemLike = string | { content?: unknown; items?: unknown };

function listText(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return (items as ListItemLike[]).flatMap((item) =>
    typeof item === 'string' ? [inlineText(item)] : [inlineText(typeof item.content === 'string' ? item.content : ''), ...listText(item.items)],
  );
}

/** The readable text of the blocks, one line each (what read time, search and the default description count). */
export function blocksText(blocks: readonly BlockLike[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    const d = block.data;
    const str = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : '');
    switch (block.type) {
      case 'header':
      case 'paragraph':
        parts.push(inlineText(str('text')));
        break;
      case 'quote':
        parts.push(inlineText(str('text')), inlineText(str('caption')));
        break;
      case 'list':
        parts.push(...listText(d.items));
        break;
      case 'code':
        parts.push(str('code'));
        break;
      case 'image':
      case 'embed':
        parts.push(inlineText(str('caption')));
        break;
      case 'linkTool': {
        const meta = (d.meta ?? {}) as Record<string, unknown>;
        parts.push(typeof meta.title === 'string' ? meta.title : '', typeof meta.description === 'string' ? meta.description : '');
        break;
      }
      default:
        break;
    }
  }
  return parts
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Seed 001 §5, §9: minutes = length / 200 rounded up, at least 1 (on the text of the blocks). */
export function readTimeMinutes(text: string): number {
  return Math.max(1, Math.ceil([...text].length / BLOG_LIMITS.charsPerMinute));
}

/** Seed 001 §5: the description is the excerpt, or the first 100 characters of the content plus an ellipsis. */
export function defaultDescription(excerpt: string | null | undefined, text: string): string {
  const given = excerpt?.trim();
  if (given && given !== BLOG_DEFAULTS.excerpt) return given;
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > BLOG_LIMITS.descriptionFromContentChars ? chars.slice(0, BLOG_LIMITS.descriptionFromContentChars).join('') + '...' : flat;
}

/** A post's address part: its title in lower case, letters (any script) and digits joined by hyphens, then its id's start. */
export function blogSlug(title: string, postId: string): string {
  const words = title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const base = [...words].slice(0, 60).join('').replace(/-+$/, '') || 'post';
  return `${base}-${postId.replace(/-/g, '').slice(0, 8)}`;
}

/**
 * Seed 001 §9: the Writing Assistant's canned ideas (5; three are offered at a time). With no writing model configured
 * these are what it offers, and it says they are bundled ideas.
 */
export const BLOG_TOPIC_IDEAS = [
  {
    id: 'monsoon-infections',
    title: 'Staying well through the monsoon',
    description: 'Water-borne and mosquito-borne illnesses peak in the rains: simple steps that prevent most of them.',
    content: 'Boil or filter drinking water, keep stored water covered, use mosquito nets and repellents, and see a doctor early for a fever that lasts more than two days.',
  },
  {
    id: 'diabetes-basics',
    title: 'Living well with type 2 diabetes',
    description: 'What blood sugar numbers mean, and the daily habits that keep them in range.',
    content: 'Know your fasting and post-meal targets, walk after meals, keep portions of rice and rotis steady, take medicines at the same time each day, and check your feet every evening.',
  },
  {
    id: 'heat-stroke',
    title: 'Recognising heat stroke before it is an emergency',
    description: 'The early signs of heat illness and what to do in the first ten minutes.',
    content: 'Headache, dizziness and no sweating on a hot day are warning signs. Move the person to shade, loosen clothing, cool them with water and fanning, and call for help if they are confused.',
  },
  {
    id: 'sleep-hygiene',
    title: 'Better sleep in seven small changes',
    description: 'Sleep affects mood, blood pressure and blood sugar: habits that help most people sleep better.',
    content: 'Keep the same wake-up time, get morning light, stop caffeine after lunch, keep screens out of bed, and keep the room dark and cool.',
  },
  {
    id: 'child-vaccines',
    title: "Your child's vaccination schedule, explained",
    description: 'Which vaccines are due when under the national schedule, and what to expect after each.',
    content: 'Keep the vaccination card safe, ask about catch-up doses if one was missed, and expect mild fever or soreness for a day or two after some vaccines.',
  },
] as const;
export type BlogTopicIdea = (typeof BLOG_TOPIC_IDEAS)[number];
