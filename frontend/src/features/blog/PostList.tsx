import { useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, Grid, InputAdornment, MenuItem, Stack, TextField, Typography } from '@mui/material';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import { BLOG_CATEGORIES, BLOG_DEFAULTS, BLOG_LIMITS, BLOG_TEXTS, type BlogCategory, type BlogSort, type BlogStatus, type BlogTab } from '@telemed/contracts/blog-constants';
import { ApiError } from '../../lib/api';
import { useToasts } from '../../lib/toasts';
import { useConfirm } from '../../lib/confirm';
import { useBlogList, usePostAction, type BlogPostSummary } from './api';

const categoryName = (id: string) => BLOG_CATEGORIES.find((c) => c.id === id)?.name ?? id;
const STATUS_COLOURS: Record<BlogStatus, 'success' | 'default' | 'info' | 'warning'> = { published: 'success', draft: 'default', scheduled: 'info', archived: 'warning' };

/** The status change a card offers: archive a published post, unschedule a scheduled one, publish an archived one again. */
const CARD_ACTION: Partial<Record<BlogStatus, { action: 'archive' | 'unschedule' | 'publish'; label: string }>> = {
  published: { action: 'archive', label: 'Archive' },
  scheduled: { action: 'unschedule', label: 'Unschedule' },
  archived: { action: 'publish', label: 'Publish again' },
};

/** What the doctor is told once a card's status change is done (archiving says what it did to the public page). */
const CHANGE_DONE: Record<'archive' | 'unschedule' | 'publish', { title: string; message?: string }> = {
  archive: { title: BLOG_TEXTS.postArchived, message: BLOG_TEXTS.postArchivedMessage },
  unschedule: { title: BLOG_TEXTS.postUnscheduled },
  publish: { title: BLOG_TEXTS.postPublishedAgain },
};

function PostCard({ post, onEdit, onDelete, onAction }: { post: BlogPostSummary; onEdit(): void; onDelete(): void; onAction(action: 'archive' | 'unschedule' | 'publish'): void }) {
  const change = CARD_ACTION[post.status];
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
          <Chip size="small" color={STATUS_COLOURS[post.status]} label={post.status} sx={{ textTransform: 'capitalize' }} />
          <Chip size="small" variant="outlined" label={categoryName(post.category)} />
        </Stack>
        <Typography variant="caption" color="text.secondary">
          {post.status === 'scheduled' && post.publish_at ? `Publishes ${new Date(post.publish_at).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })}` : post.date}
        </Typography>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {post.title || BLOG_DEFAULTS.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
          {post.excerpt || post.description || BLOG_DEFAULTS.excerpt}
        </Typography>
        <Stack direction="row" spacing={2} sx={{ mt: 1, color: 'text.secondary' }}>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <VisibilityOutlined fontSize="small" aria-hidden />
            <Typography variant="caption">{BLOG_TEXTS.views(post.views)}</Typography>
          </Stack>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <ScheduleOutlined fontSize="small" aria-hidden />
            <Typography variant="caption">{post.read_time} min read</Typography>
          </Stack>
        </Stack>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button size="small" onClick={onEdit}>
          Edit
        </Button>
        <Button size="small" color="error" onClick={onDelete}>
          Delete
        </Button>
        {change && (
          <Button size="small" onClick={() => onAction(change.action)}>
            {change.label}
          </Button>
        )}
        {post.status === 'published' && post.slug && (
          <Button size="small" href={`/blog/${post.slug}`} target="_blank" rel="noopener">
            View
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
  const remove = async (post: BlogPostSummary) => {
    if (!(await confirm({ title: 'Delete post', message: BLOG_TEXTS.deleteConfirm, confirmLabel: 'Delete', destructive: true }))) return;
    action.mutate(
      { id: post.id, action: 'delete' },
      { onSuccess: () => toasts.show({ type: 'success', title: BLOG_TEXTS.postDeleted }), onError: (e) => toasts.show({ type: 'error', title: e instanceof ApiError ? e.detail : 'Failed to delete post' }) },
    );
  };
  const items = list.data?.items ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          size="small"
          label="Search posts"
          value={q}
          onChange={(e) => setQ(e.target.value.slice(0, BLOG_LIMITS.searchChars))}
          sx={{ flexGrow: 1 }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchOutlined fontSize="small" /></InputAdornment> } }}
        />
        <TextField select size="small" label="Sort by" value={sort} onChange={(e) => setSort(e.target.value as BlogSort)} sx={{ minWidth: 140 }}>
          <MenuItem value="date">Date</MenuItem>
          <MenuItem value="title">Title</MenuItem>
          <MenuItem value="views">Views</MenuItem>
        </TextField>
      </Stack>
      {list.isLoading && <CircularProgress size={24} />}
      {list.isError && <Alert severity="error">The posts could not be loaded.</Alert>}
      {list.data && items.length === 0 && (
        <Typography color="text.secondary" data-testid="blog-empty" sx={{ py: 4, textAlign: 'center' }}>
          {q.trim() ? BLOG_TEXTS.emptySearch(q.trim()) : BLOG_TEXTS.emptyTab[tab]}
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
                    onSuccess: () => toasts.show({ type: 'success', ...CHANGE_DONE[change] }),
                    onError: (e) => toasts.show({ type: 'error', title: change === 'publish' ? BLOG_TEXTS.publishFailed(e instanceof ApiError ? e.detail : undefined) : e instanceof ApiError ? e.detail : 'The post could not be changed' }),
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
