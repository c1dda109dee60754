import { Suspense, lazy, useState } from 'react';
import { Box, Button, ButtonBase, Card, CardContent, Chip, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { BLOG_DEFAULTS, BLOG_TEXTS } from '@telemed/contracts/blog-constants';
import { useBlogList } from './api';

const BlogHub = lazy(async () => ({ default: (await import('./BlogHub')).BlogHub }));
const RECENT_SHOWN = 4;

function useHub() {
  const [hub, setHub] = useState<{ open: boolean; startWithNew: boolean; postId?: string }>({ open: false, startWithNew: false });
  const element = hub.open ? (
    <Suspense fallback={null}>
      <BlogHub open onClose={() => setHub({ open: false, startWithNew: false })} startWithNew={hub.startWithNew} startWithPost={hub.postId} />
    </Suspense>
  ) : null;
  return {
    open: (startWithNew = false) => setHub({ open: true, startWithNew }),
    /** The hub with this post in its editor. */
    openPost: (postId: string) => setHub({ open: true, startWithNew: false, postId }),
    element,
  };
}

/** The dashboard's campaign card: the doctor's patient-education reach, from their posts' real figures. */
export function CampaignCard() {
  const list = useBlogList({ tab: 'all', sort: 'date', q: '', category: null });
  const hub = useHub();
  return (
    <Grid size={{ xs: 12, sm: 6, md: 3 }}>
      <Card sx={{ height: '100%' }} data-testid="campaign-card">
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main' }}>
            <CampaignOutlined aria-hidden />
            <Typography variant="overline" color="text.secondary">
              Education Campaign
            </Typography>
          </Stack>
          <Typography variant="h4">{list.data?.counts.published ?? 0}</Typography>
          <Typography variant="body2" color="text.secondary">
            published {list.data?.counts.published === 1 ? 'post' : 'posts'} · {BLOG_TEXTS.views(list.data?.stats.this_month ?? 0)} this month
          </Typography>
          <Button size="small" sx={{ mt: 1, px: 0 }} onClick={() => hub.open(true)}>
            Write a post
          </Button>
        </CardContent>
      </Card>
      {hub.element}
    </Grid>
  );
}

/** Social Content: the doctor's recent posts, Add Post, and the way into the Patient Education Hub. */
export function SocialContent() {
  const list = useBlogList({ tab: 'all', sort: 'date', q: '', category: null });
  const hub = useHub();
  const recent = list.data?.items.slice(0, RECENT_SHOWN) ?? [];
  return (
    <Card data-testid="social-content">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2">
            Social Content
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button onClick={() => hub.open(false)}>Open Hub</Button>
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => hub.open(true)}>
              Add Post
            </Button>
          </Stack>
        </Stack>
        {list.isLoading && <CircularProgress size={20} />}
        {list.data && recent.length === 0 && <Typography color="text.secondary">No posts yet. Share what your patients ask you most with Add Post.</Typography>}
        <Stack spacing={1} sx={{ mt: 1 }}>
          {recent.map((post) => (
            // A recent post opens in the hub's editor (what a doctor expects of its title).
            <ButtonBase
              key={post.id}
              onClick={() => hub.openPost(post.id)}
              aria-label={`Edit ${post.title || BLOG_DEFAULTS.title}`}
              data-testid="social-post"
              sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'space-between', textAlign: 'left', borderRadius: 1, p: 0.5, mx: -0.5, '&:hover': { bgcolor: 'action.hover' } }}
            >
              <Box sx={{ minWidth: 0 }}>
                <Typography noWrap sx={{ fontWeight: 600 }} title={post.title}>
                  {post.title || BLOG_DEFAULTS.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {post.date} · {BLOG_TEXTS.views(post.views)} · {post.read_time} min read
                </Typography>
              </Box>
              <Chip size="small" label={post.status} sx={{ textTransform: 'capitalize', flexShrink: 0 }} />
            </ButtonBase>
          ))}
        </Stack>
      </CardContent>
      {hub.element}
    </Card>
  );
}
