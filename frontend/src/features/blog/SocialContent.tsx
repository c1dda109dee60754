import { Suspense, lazy, useState } from 'react';
import { Box, Button, ButtonBase, Card, CardContent, Chip, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import CampaignOutlined from '@mui/icons-material/CampaignOutlined';
import { useT } from '../../i18n/useT';
import { useBlogList } from './api';
import { STATUS_LABELS, shownTitle } from './labels';

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
  const t = useT();
  return (
    <Grid size={{ xs: 12, sm: 6, md: 3 }}>
      <Card sx={{ height: '100%' }} data-testid="campaign-card">
        <CardContent>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main' }}>
            <CampaignOutlined aria-hidden />
            <Typography variant="overline" color="text.secondary">
              {t('blog.educationCampaign')}
            </Typography>
          </Stack>
          <Typography variant="h4">{list.data?.counts.published ?? 0}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('blog.campaignSummary', { count: list.data?.counts.published ?? 0, views: list.data?.stats.this_month ?? 0 })}
          </Typography>
          <Button size="small" sx={{ mt: 1, px: 0 }} onClick={() => hub.open(true)}>
            {t('blog.writePost')}
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
  const t = useT();
  return (
    <Card data-testid="social-content">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2">
            {t('blog.socialContent')}
          </Typography>
          <Stack direction="row" spacing={1}>
            <Button onClick={() => hub.open(false)}>{t('blog.openHub')}</Button>
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => hub.open(true)}>
              {t('blog.addPost')}
            </Button>
          </Stack>
        </Stack>
        {list.isLoading && <CircularProgress size={20} />}
        {list.data && recent.length === 0 && <Typography color="text.secondary">{t('blog.noPostsYet')}</Typography>}
        <Stack spacing={1} sx={{ mt: 1 }}>
          {recent.map((post) => (
            // A recent post opens in the hub's editor (what a doctor expects of its title).
            <ButtonBase
              key={post.id}
              onClick={() => hub.openPost(post.id)}
              aria-label={t('blog.editPost', { title: shownTitle(t, post.title) })}
              data-testid="social-post"
              sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'space-between', textAlign: 'left', borderRadius: 1, p: 0.5, mx: -0.5, '&:hover': { bgcolor: 'action.hover' } }}
            >
              <Box sx={{ minWidth: 0 }}>
                <Typography noWrap sx={{ fontWeight: 600 }} title={post.title}>
                  {shownTitle(t, post.title)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('blog.postLine', { date: post.date, views: post.views, minutes: post.read_time })}
                </Typography>
              </Box>
              <Chip size="small" label={t(STATUS_LABELS[post.status])} sx={{ textTransform: 'capitalize', flexShrink: 0 }} />
            </ButtonBase>
          ))}
        </Stack>
      </CardContent>
      {hub.element}
    </Card>
  );
}
