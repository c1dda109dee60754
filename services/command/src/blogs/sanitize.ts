import sanitizeHtml from 'sanitize-html';
import { BLOG_INLINE_TAGS, LINK_SCHEMES, type BlogBlock, type BlogContent, type ListItem } from '@telemed/contracts';

/**
 * The inline HTML of a block's text, cleaned by sanitize-html: only b, i, u, a, mark, code and br survive, with no
 * attribute but a link's href, and that only for http(s) and mailto. Everything else goes: other tags are dropped
 * (their text kept; a script's or style's text too), event handlers, styles, classes and javascript:/data: links.
 */
const INLINE: sanitizeHtml.IOptions = {
  allowedTags: [...BLOG_INLINE_TAGS],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link whose href was refused (javascript:, data:, relative) stays as an inert <a> around its text.
  transformTags: { strong: 'b', em: 'i' },
};

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' };

export function cleanInline(html: string): string {
  return sanitizeHtml(html, INLINE);
}

/**
 * Plain text (a link's title and description): no markup at all. The pages and Editor.js's link tool show it as text,
 * so the entities sanitize-html writes for `&`, `<` and `>` are turned back into the characters ('Q&A', not 'Q&amp;A').
 */
export function cleanText(text: string): string {
  return sanitizeHtml(text, TEXT_ONLY).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function cleanItems(items: ListItem[]): ListItem[] {
  return items.map((item) => (typeof item === 'string' ? cleanInline(item) : { ...item, content: cleanInline(item.content), items: cleanItems(item.items) }));
}

function cleanBlock(block: BlogBlock): BlogBlock {
  switch (block.type) {
    case 'header':
    case 'paragraph':
      return { ...block, data: { ...block.data, text: cleanInline(block.data.text) } } as BlogBlock;
    case 'quote':
      return { ...block, data: { ...block.data, text: cleanInline(block.data.text), caption: cleanInline(block.data.caption) } };
    case 'list':
      return { ...block, data: { ...block.data, items: cleanItems(block.data.items) } };
    case 'image':
      return { ...block, data: { ...block.data, caption: cleanInline(block.data.caption) } };
    case 'embed':
      return { ...block, data: { ...block.data, caption: cleanInline(block.data.caption) } };
    case 'linkTool': {
      const { title, description } = block.data.meta;
      const meta = { ...(title !== undefined ? { title: cleanText(title) } : {}), ...(description !== undefined ? { description: cleanText(description) } : {}) };
      return { ...block, data: { ...block.data, meta } };
    }
    case 'code':
    case 'delimiter':
      // Code is text, shown as text; a delimiter has no data.
      return block;
  }
}

/** The content with every block's inline HTML cleaned (the schema already allowed only the known block types). */
export function cleanContent(content: BlogContent): BlogContent {
  return { ...content, blocks: content.blocks.map(cleanBlock) };
}
