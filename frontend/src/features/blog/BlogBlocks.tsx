import { Fragment, type ReactNode } from 'react';
import { Box, Link, Typography } from '@mui/material';
import { BLOG_IMAGE_SRC, blogImageWidth, embedPlayerUrl, isAllowedLink } from '@telemed/contracts/blog-constants';
import type { BlogBlock, BlogContent, ListItem } from '@telemed/contracts';
import { useT } from '../../i18n/useT';

/**
 * A post's blocks drawn by the app, never as the author's HTML: each block type has its own element, and a block's
 * inline text is parsed (in an inert document: nothing in it runs or loads) and rebuilt from the allow-listed tags
 * only (b, i, u, mark, code, br, and a with an http(s) or mailto href). The server already cleaned it; this is the
 * page's own guard, so nothing stored can ever become markup here.
 */
const INLINE_TAGS = new Set(['b', 'i', 'u', 'mark', 'code']);

function inlineNodes(nodes: NodeListOf<ChildNode>, keyPrefix: string): ReactNode[] {
  const out: ReactNode[] = [];
  nodes.forEach((node, index) => {
    const key = `${keyPrefix}.${index}`;
    if (node.nodeType === Node.TEXT_NODE) {
      out.push(node.textContent);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    const children = inlineNodes(element.childNodes, key);
    if (tag === 'br') out.push(<br key={key} />);
    else if (INLINE_TAGS.has(tag)) {
      const Tag = tag as 'b' | 'i' | 'u' | 'mark' | 'code';
      out.push(<Tag key={key}>{children}</Tag>);
    } else if (tag === 'a') {
      const href = element.getAttribute('href');
      out.push(
        href && isAllowedLink(href) ? (
          <Link key={key} href={href} rel="noopener noreferrer nofollow" target="_blank">
            {children}
          </Link>
        ) : (
          <Fragment key={key}>{children}</Fragment>
        ),
      );
    } else if (tag === 'script' || tag === 'style') {
      // Never text to show.
    } else out.push(<Fragment key={key}>{children}</Fragment>);
  });
  return out;
}

/** Inline HTML as React elements of the allowed tags (text for everything else). */
export function InlineText({ html }: { html: string }) {
  if (!html) return null;
  if (typeof DOMParser === 'undefined') return <>{html.replace(/<[^>]*>/g, '')}</>;
  const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return <>{inlineNodes(document.body.childNodes, 'i')}</>;
}

/** A checklist item's box: ticked or not, said to screen readers too. */
function CheckMark({ checked }: { checked: boolean }) {
  const t = useT();
  return (
    <Box component="span" role="img" aria-label={checked ? t('blog.checkDone') : t('blog.checkNotDone')} sx={{ display: 'inline-block', width: '1.5em', ml: '-1.5em', fontWeight: 700, color: checked ? 'success.main' : 'text.secondary' }}>
      {checked ? '☑' : '☐'}
    </Box>
  );
}

function ListItems({ items, style }: { items: ListItem[]; style: 'ordered' | 'unordered' | 'checklist' }) {
  const Tag = style === 'ordered' ? 'ol' : 'ul';
  const checklist = style === 'checklist';
  return (
    <Box component={Tag} sx={{ pl: 3, my: 1, ...(checklist ? { listStyle: 'none' } : {}) }} data-style={style}>
      {items.map((item, i) =>
        typeof item === 'string' ? (
          <li key={i}>
            {checklist && <CheckMark checked={false} />}
            <InlineText html={item} />
          </li>
        ) : (
          <li key={i}>
            {checklist && <CheckMark checked={Boolean(item.meta?.checked)} />}
            <InlineText html={item.content} />
            {item.items.length > 0 && <ListItems items={item.items} style={style} />}
          </li>
        ),
      )}
    </Box>
  );
}

function Block({ block }: { block: BlogBlock }) {
  const t = useT();
  switch (block.type) {
    case 'header': {
      // The page's title is its h1: the post's headers start at h2.
      const level = Math.min(6, block.data.level + 1) as 2 | 3 | 4 | 5 | 6;
      return (
        <Typography variant={(['h4', 'h5', 'h6', 'subtitle1', 'subtitle2'] as const)[level - 2]} component={`h${level}`} sx={{ mt: 3, mb: 1, fontWeight: 600 }}>
          <InlineText html={block.data.text} />
        </Typography>
      );
    }
    case 'paragraph':
      return (
        <Typography component="p" sx={{ my: 1.5, lineHeight: 1.7 }}>
          <InlineText html={block.data.text} />
        </Typography>
      );
    case 'list':
      return <ListItems items={block.data.items} style={block.data.style} />;
    case 'quote':
      return (
        <Box component="blockquote" sx={{ borderLeft: 4, borderColor: 'primary.main', pl: 2, my: 2, mx: 0, fontStyle: 'italic' }}>
          <Typography component="p">
            <InlineText html={block.data.text} />
          </Typography>
          {block.data.caption && (
            <Typography component="footer" variant="body2" color="text.secondary">
              — <InlineText html={block.data.caption} />
            </Typography>
          )}
        </Box>
      );
    case 'code':
      return (
        <Box component="pre" sx={{ bgcolor: 'grey.100', p: 2, borderRadius: 1, overflowX: 'auto', fontSize: 14 }}>
          <code>{block.data.code}</code>
        </Box>
      );
    case 'delimiter':
      return <Box component="hr" sx={{ border: 0, borderTop: 1, borderColor: 'divider', my: 3, width: '40%' }} />;
    case 'image': {
      if (!BLOG_IMAGE_SRC.test(block.data.file.url)) return null;
      // The author's resize choice (one of the seeds' widths, checked again here): auto is the picture's own size.
      const width = blogImageWidth(block.data.width);
      return (
        <Box component="figure" sx={{ my: 2, mx: 0 }}>
          <Box
            component="img"
            src={block.data.file.url}
            alt={block.data.caption.replace(/<[^>]*>/g, '')}
            data-width={width}
            style={width === 'auto' ? undefined : { width }}
            sx={{ maxWidth: '100%', height: 'auto', borderRadius: 1, border: block.data.withBorder ? 1 : 0, borderColor: 'divider' }}
          />
          {block.data.caption && (
            <Typography component="figcaption" variant="body2" color="text.secondary">
              <InlineText html={block.data.caption} />
            </Typography>
          )}
        </Box>
      );
    }
    case 'embed': {
      const player = embedPlayerUrl(block.data.service, block.data.source);
      if (!player) return null;
      return (
        <Box component="figure" sx={{ my: 2, mx: 0 }}>
          <Box sx={{ position: 'relative', pt: '56.25%' }}>
            <Box
              component="iframe"
              src={player}
              title={block.data.caption.replace(/<[^>]*>/g, '') || t('blog.videoTitle', { service: block.data.service })}
              loading="lazy"
              allow="encrypted-media; picture-in-picture; fullscreen"
              referrerPolicy="strict-origin-when-cross-origin"
              sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
            />
          </Box>
          {block.data.caption && (
            <Typography component="figcaption" variant="body2" color="text.secondary">
              <InlineText html={block.data.caption} />
            </Typography>
          )}
        </Box>
      );
    }
    case 'linkTool':
      if (!isAllowedLink(block.data.link)) return null;
      return (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, my: 2 }}>
          <Link href={block.data.link} rel="noopener noreferrer nofollow" target="_blank" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {block.data.meta.title || block.data.link}
          </Link>
          {block.data.meta.description && <Typography variant="body2" color="text.secondary">{block.data.meta.description}</Typography>}
        </Box>
      );
    default:
      return null;
  }
}

/** The post's body. */
export function BlogBlocks({ content }: { content: BlogContent }) {
  return (
    <Box data-testid="blog-content">
      {content.blocks.map((block, i) => (
        <Block key={block.id ?? i} block={block} />
      ))}
    </Box>
  );
}
