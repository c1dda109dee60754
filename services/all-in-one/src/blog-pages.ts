import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Express } from 'express';
import type { ReadStore } from '@telemed/platform';
import { publishedPostBySlug, publishedPostsForSitemap, publishedPostsRevision } from '@telemed/query';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * What sharing and search engines read of the Patient Education Hub (issue 16), before any script runs: /blog/{slug}
 * answers the app's page with the post's title, description and image as Open Graph tags, and /sitemap.xml lists
 * every published post. The page itself is drawn by the app from the cleaned blocks.
 */
export function blogPages(app: Express, deps: { readStore: ReadStore; frontendDir: string | undefined; publicUrl: string }): void {
  const renderSitemap = async () => {
    const posts = await publishedPostsForSitemap(deps.readStore);
    const urls = posts.map((p) => `  <url><loc>${escapeHtml(`${deps.publicUrl}/blog/${encodeURIComponent(p.slug)}`)}</loc><lastmod>${escapeHtml(p.updated_at)}</lastmod></url>`);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  };
  // Anyone may ask, as often as they like, and it lists every published post: built again only once what the public
  // pages list has changed (a post published, changed or withdrawn; not a view, nor any other event), concurrent requests
  // sharing one build, so a request costs one document read.
  let sitemap: { xml: Promise<string>; revision: number } | null = null;
  app.get('/sitemap.xml', async (_req, res, next) => {
    try {
      const revision = await publishedPostsRevision(deps.readStore);
      if (!sitemap || sitemap.revision !== revision) {
        const built = { xml: renderSitemap(), revision };
        sitemap = built;
        built.xml.catch(() => {
          if (sitemap === built) sitemap = null; // the next request tries again
        });
      }
      const xml = await sitemap.xml;
      res.setHeader('Cache-Control', 'public, max-age=600');
      res.type('application/xml').send(xml);
    } catch (error) {
      next(error);
    }
  });

  app.get('/blog/:slug', async (req, res, next) => {
    try {
      const index = deps.frontendDir ? join(deps.frontendDir, 'index.html') : null;
      if (!index || !existsSync(index)) return next();
      // Read at each request, as the other pages' index.html: a new build names new assets, and a kept copy would
      // point the post's page at files that are gone.
      const template = await readFile(index, 'utf8');
      const post = await publishedPostBySlug(deps.readStore, String(req.params.slug).slice(0, 120));
      // The app draws 'Page not found'; the status says so too, for crawlers and link checkers.
      if (!post) return res.status(404).setHeader('Cache-Control', 'no-cache').type('html').send(template);
      const url = `${deps.publicUrl}/blog/${encodeURIComponent(post.slug ?? '')}`;
      const tags = [
        `<title>${escapeHtml(`${post.title} · ${post.author_name}`)}</title>`,
        `<meta name="description" content="${escapeHtml(post.description)}">`,
        `<meta property="og:type" content="article">`,
        `<meta property="og:title" content="${escapeHtml(post.title)}">`,
        `<meta property="og:description" content="${escapeHtml(post.description)}">`,
        `<meta property="og:url" content="${escapeHtml(url)}">`,
        ...(post.image_url ? [`<meta property="og:image" content="${escapeHtml(`${deps.publicUrl}${post.image_url}`)}">`] : []),
        `<meta name="twitter:card" content="${post.image_url ? 'summary_large_image' : 'summary'}">`,
        `<link rel="canonical" href="${escapeHtml(url)}">`,
      ].join('\n    ');
      // Replacer functions: a replacement string would read `$&`, `$'` or `` $` `` in a title as the template's text.
      const html = template.replace(/<title>[^<]*<\/title>/, () => '').replace('</head>', () => `    ${tags}\n  </head>`);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    } catch (error) {
      next(error);
    }
  });
}
