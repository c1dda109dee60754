import { useEffect } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Chip, CircularProgress, Link, Stack, Typography } from '@mui/material';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import { isBundledArticle } from '@telemed/contracts/bundled-articles';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { DoctorAvatar } from '../../components/DoctorAvatar';
import { PublicPageShell } from '../public/PublicPageShell';
import { BOOK_CONSULTATION_HASH } from '../public/content';
import { NotFound } from '../../app/NotFound';
import { BlogBlocks } from './BlogBlocks';
import { readerSession, type BlogPostView } from './api';
import { categoryLabel } from './labels';

/** Sets the page's title and its description for sharing while the post is shown. */
function useShareTags(post: BlogPostView | undefined) {
  useEffect(() => {
    if (!post) return;
    const previous = document.title;
    document.title = `${post.title} · ${post.author_name}`;
    // The server put these tags in the page it sent for /blog/{slug}; after navigating in the app they are made here.
    const tags: HTMLMetaElement[] = [];
    const meta = (attr: 'name' | 'property', key: string, value: string) => {
      const existing = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
      if (existing) return existing.setAttribute('content', value);
      const tag = document.createElement('meta');
      tag.setAttribute(attr, key);
      tag.setAttribute('content', value);
      document.head.appendChild(tag);
      tags.push(tag);
    };
    meta('name', 'description', post.description);
    meta('property', 'og:title', post.title);
    meta('property', 'og:description', post.description);
    meta('property', 'og:type', 'article');
    if (post.image_url) meta('property', 'og:image', new URL(post.image_url, window.location.origin).toString());
    return () => {
      document.title = previous;
      tags.forEach((t) => t.remove());
    };
  }, [post]);
}

/** A published post at /blog/{slug}: anyone may read it, signed in or not. */
export function BlogPostPage() {
  const { slug = '' } = useParams();
  const t = useT();
  const f = useFormat();
  const post = useQuery({ queryKey: ['public-blog', slug], queryFn: () => call('getPublicBlogPost', { params: { slug } }), retry: false });
  useShareTags(post.data);
  // A bundled sample profile's article (the same page, from static content): no views to count, and its profile opens
  // on About unless asked for its Book Consultation tab (a real doctor's page opens on booking).
  const bundled = post.data ? isBundledArticle(post.data) : false;
  const id = bundled ? undefined : post.data?.id;
  const bookingPath = post.data ? `/${post.data.author_id}${bundled ? BOOK_CONSULTATION_HASH : ''}` : '/';
  useEffect(() => {
    // One view per reader session; the server never counts the author's own.
    if (id) void call('recordBlogPostView', { params: { id }, body: { reader_session: readerSession() } }).catch(() => {});
  }, [id]);

  return (
    <PublicPageShell>
      {post.isLoading && (
        <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 200 }}>
          <CircularProgress aria-label={t('blog.loading')} />
        </Box>
      )}
      {/* No such article (never published, archived, or its author's page closed): the app's not-found page, with the way home. */}
      {post.isError && (post.error instanceof ApiError && post.error.status === 404 ? <NotFound /> : <Alert severity="error">{t('blog.articleLoadFailed')}</Alert>)}
      {post.data && (
        <Box component="article" sx={{ maxWidth: 760, mx: 'auto' }}>
          <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', gap: 1 }}>
            <Chip size="small" color="primary" variant="outlined" label={categoryLabel(t, post.data.category)} />
            <Chip size="small" variant="outlined" label={t('blog.minRead', { minutes: post.data.read_time })} />
          </Stack>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {post.data.title || t('blog.untitledDraft')}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', my: 2 }}>
            <DoctorAvatar name={post.data.author_name} photoUrl={post.data.author_photo_url} size={44} />
            <Box sx={{ minWidth: 0, flexGrow: 1 }}>
              <Link component={RouterLink} to={`/${post.data.author_id}`} sx={{ fontWeight: 600 }}>
                {post.data.author_name}
              </Link>
              <Typography variant="body2" color="text.secondary">
                <time dateTime={post.data.published_at ?? post.data.date}>{f.date(post.data.date, { day: 'numeric', month: 'long', year: 'numeric' })}</time>
              </Typography>
            </Box>
          </Stack>
          {post.data.image_url && <Box component="img" src={post.data.image_url} alt="" sx={{ width: '100%', maxHeight: 380, objectFit: 'cover', borderRadius: 1, mb: 2 }} />}
          <BlogBlocks content={post.data.content} />
          {post.data.tags.length > 0 && (
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mt: 3 }}>
              {post.data.tags.map((tag) => (
                <Chip key={tag} size="small" label={`#${tag}`} />
              ))}
            </Stack>
          )}
          <Box sx={{ mt: 4, p: 2, border: 1, borderColor: 'divider', borderRadius: 1, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography sx={{ flexGrow: 1 }}>{t('blog.talkTo', { name: post.data.author_name })}</Typography>
            <Button component={RouterLink} to={bookingPath} variant="contained" startIcon={<EventAvailableOutlined />}>
              {t('blog.bookConsultation')}
            </Button>
          </Box>
        </Box>
      )}
    </PublicPageShell>
  );
}
