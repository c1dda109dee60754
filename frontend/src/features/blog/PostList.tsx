import { useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, Grid, InputAdornment, MenuItem, Stack, TextField, Typography } from '@mui/material';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import { BLOG_LIMITS, type BlogCategory, type BlogSort, type BlogStatus, type BlogTab } from '@telemed/contracts/blog-constants';
import { useToasts } from '../../lib/toasts';
import { useConfirm } from '../../lib/confirm';
import { useFormat } from '../../i18n/format';
import { useErrorText } from '../../i18n/errorText';
import { useT, type MessageId } from '../../i18n/useT';
import { useBlogList, usePostAction, type BlogPostSummary } from './api';
import { EMPTY_TAB, STATUS_LABELS, categoryLabel, publishFailedText, shownExcerpt, shownTitle } from './labels';

const STATUS_COLOURS: Record<BlogStatus, 'success' | 'default' | 'info' | 'warning'> = { published: 'success', draft: 'default', scheduled: 'info', archived: 'warning' };

/** The status change a card offers: archive a published post, unschedule a scheduled one, publish an archived one again. */
const CARD_ACTION: Partial<Record<BlogStatus, { action: 'archive' | 'unschedule' | 'publish'; label: MessageId }>> = {
  published: { action: 'archive', label: 'blog.archive' },
  scheduled: { action: 'unschedule', label: 'blog.unschedule' },
  archived: { action: 'publish', label: 'blog.publishAgain' },
};

/** What the doctor is told once a card's status change is done (archiving says what it did to the public page). */
const CHANGE_DONE: Record<'archive' | 'unschedule' | 'publish', { title: MessageId; message?: MessageId }> = {
  archive: { title: 'blog.postArchived', message: 'blog.postArchivedMessage' },
  unschedule: { title: 'blog.postUnscheduled' },
  publish: { title: 'blog.postPublishedAgain' },
};

function PostCard({ post, onEdit, onDelete, onAction }: { post: BlogPostSummary; onEdit(): void; onDelete(): void; onAction(action: 'archive' | 'unschedule' | 'publish'): void }) {
  const change = CARD_ACTION[post.status];
  const t = useT();
  const f = useFormat();
  return (
    <Card variant="outlined" data-testid="blog-card" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      {post.image_url ? (
        <Box component="img" src={post.image_url} alt="" sx={{ width: '100%', height: 140, objectFit: 'cover' }} />
      ) : (
        <Box sx={{ height: 80, bgcolor: 'action.hover', display: 'grid', placeItems: 'center', color: 'text.secondary' }} aria-hidden>
          <ImageOutlined />
        </Box>
      )}
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Chip size="small" color={STATUS_COLOURS[post.status]} label={t(STATUS_LABELS[post.status])} sx={{ textTransform: 'capitalize' }} />
          <Chip size="small" variant="outlined" label={categoryLabel(t, post.category)} />
        </Stack>
        <Typography variant="caption" color="text.secondary">
          {post.status === 'scheduled' && post.publish_at ? t('blog.publishes', { when: f.date(post.publish_at, { dateStyle: 'medium', timeStyle: 'short' }) }) : post.date}
        </Typography>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {shownTitle(t, post.title)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
          {shownExcerpt(t, post.excerpt, post.description)}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mt: 1, color: 'text.secondary' }}>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <VisibilityOutlined fontSize="small" aria-hidden />
            <Typography variant="caption">{t('blog.views', { count: post.views })}</Typography>
          </Stack>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <ScheduleOutlined fontSize="small" aria-hidden />
            <Typography variant="caption">{t('blog.minRead', { minutes: post.read_time })}</Typography>
          </Stack>
        </Stack>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button size="small" onClick={onEdit}>
          {t('blog.edit')}
        </Button>
        <Button size="small" color="error" onClick={onDelete}>
          {t('blog.delete')}
        </Button>
        {change && (
          <Button size="small" onClick={() => onAction(change.action)}>
            {t(change.label)}
          </Button>
        )}
        {post.status === 'published' && post.slug && (
          <Button size="small" href={`/blog/${post.slug}`} target="_blank" rel="noopener">
            {t('blog.view')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

/** A tab's posts (within the chosen category), searched and sorted, each a card with its actions. */
export function PostList({ tab, category, onEdit }: { tab: BlogTab; category: BlogCategory | null; onEdit(id: string): void }) {
  const [sort, setSort] = useState<BlogSort>('date');
  const [q, setQ] = useState('');
  const list = useBlogList({ tab, sort, q, category });
  const action = usePostAction();
  const confirm = useConfirm();
  const toasts = useToasts();
  const t = useT();
  const explain = useErrorText();
  const remove = async (post: BlogPostSummary) => {
    if (!(await confirm({ title: t('blog.deletePostTitle'), message: t('blog.deleteConfirm'), confirmLabel: t('blog.delete'), destructive: true }))) return;
    action.mutate(
      { id: post.id, action: 'delete' },
      { onSuccess: () => toasts.show({ type: 'success', title: t('blog.postDeleted') }), onError: (e) => toasts.show({ type: 'error', title: explain(e, 'blog.deleteFailed') }) },
    );
  };
  const items = list.data?.items ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label={t('blog.searchPosts')}
          value={q}
          onChange={(e) => setQ(e.target.value.slice(0, BLOG_LIMITS.searchChars))}
          sx={{ flexGrow: 1 }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchOutlined fontSize="small" /></InputAdornment> } }}
        />
        <TextField select size="small" label={t('blog.sortBy')} value={sort} onChange={(e) => setSort(e.target.value as BlogSort)} sx={{ minWidth: 140 }}>
          <MenuItem value="date">{t('blog.sortDate')}</MenuItem>
          <MenuItem value="title">{t('blog.sortTitle')}</MenuItem>
          <MenuItem value="views">{t('blog.sortViews')}</MenuItem>
        </TextField>
      </Stack>
      {list.isLoading && <CircularProgress size={24} />}
      {list.isError && <Alert severity="error">{t('blog.listLoadFailed')}</Alert>}
      {list.data && items.length === 0 && (
        <Typography color="text.secondary" data-testid="blog-empty" sx={{ py: 4, textAlign: 'center' }}>
          {q.trim() ? t('blog.emptySearch', { query: q.trim() }) : t(EMPTY_TAB[tab])}
        </Typography>
      )}
      <Grid container spacing={2}>
        {items.map((post) => (
          <Grid key={post.id} size={{ xs: 12, sm: 6, lg: 4 }}>
            <PostCard
              post={post}
              onEdit={() => onEdit(post.id)}
              onDelete={() => void remove(post)}
              onAction={(change) =>
                action.mutate(
                  { id: post.id, action: change },
                  {
                    onSuccess: () => {
                      const done = CHANGE_DONE[change];
                      toasts.show({ type: 'success', title: t(done.title), message: done.message && t(done.message) });
                    },
                    onError: (e) => toasts.show({ type: 'error', title: change === 'publish' ? publishFailedText(t, explain, e) : explain(e, 'blog.changeFailed') }),
                  },
                )
              }
            />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}
