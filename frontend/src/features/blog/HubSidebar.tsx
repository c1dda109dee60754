import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import { BLOG_CATEGORIES, BLOG_TABS, type BlogCategory, type BlogTab } from '@telemed/contracts/blog-constants';
import { call } from '../../lib/client';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { useBlogList, type BlogListResponse } from './api';
import { topicIdeasQuery, type Idea, type IdeasAnswer, type IdeasFor } from './ideas';
import { TAB_LABELS, categoryLabel, ideasNotice } from './labels';

export interface SidebarProps {
  editing: boolean;
  onNew(): void;
  tab: BlogTab;
  onTab(tab: BlogTab): void;
  category: BlogCategory | null;
  onCategory(category: BlogCategory | null): void;
  aiEnabled: boolean;
  onAi(enabled: boolean): void;
  /** The post's title and category when ideas were last asked for (all a writing model is told of the post). */
  ideasFor: IdeasFor;
  onMoreIdeas(): void;
  onIdea(idea: Idea): void | Promise<void>;
}

/** The Writing Assistant beside the editor: topic ideas for the post's title and category, once AI is enabled. */
function WritingAssistant({ aiEnabled, onAi, onMoreIdeas, onIdea, ideas }: Pick<SidebarProps, 'aiEnabled' | 'onAi' | 'onMoreIdeas' | 'onIdea'> & { ideas: UseQueryResult<IdeasAnswer> }) {
  const t = useT();
  return (
    <Card variant="outlined" data-testid="writing-assistant">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('blog.writingAssistant')}
          </Typography>
          <Button size="small" startIcon={<AutoAwesomeOutlined />} onClick={() => onAi(!aiEnabled)}>
            {aiEnabled ? t('blog.disableAi') : t('blog.enableAi')}
          </Button>
        </Stack>
        {aiEnabled && ideas.isLoading && <CircularProgress size={20} />}
        {aiEnabled && ideas.data && (
          <Stack spacing={1} sx={{ mt: 1 }}>
            {ideas.data.notice && (
              <Typography variant="body2" color="text.secondary">
                {ideasNotice(t, ideas.data.notice)}
              </Typography>
            )}
            {ideas.data.ideas.map((idea) => (
              <Card key={idea.id} variant="outlined">
                <CardContent sx={{ pb: 1 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {idea.title}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {idea.description}
                  </Typography>
                </CardContent>
                <CardActions sx={{ pt: 0 }}>
                  <Button size="small" onClick={() => void onIdea(idea)}>
                    {t('blog.useThisIdea')}
                  </Button>
                </CardActions>
              </Card>
            ))}
            <Button size="small" onClick={onMoreIdeas} disabled={ideas.isFetching} sx={{ alignSelf: 'flex-start' }}>
              {t('blog.otherIdeas')}
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** The hub's tabs (Blog Management), each with its count of the doctor's posts. */
function HubTabs({ tab, editing, onTab, counts }: { tab: BlogTab; editing: boolean; onTab(tab: BlogTab): void; counts: BlogListResponse['counts'] | undefined }) {
  const t = useT();
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h3">
        {t('blog.blogManagement')}
      </Typography>
      <List dense disablePadding aria-label={t('blog.blogManagement')}>
        {BLOG_TABS.map(({ id }) => (
          <ListItem key={id} disablePadding>
            <ListItemButton selected={!editing && tab === id} onClick={() => onTab(id)} data-testid={`tab-${id}`}>
              <ListItemText primary={t(TAB_LABELS[id])} />
              <Chip size="small" label={counts ? counts[id] : '–'} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function CategoryList({ category, onCategory, all }: { category: BlogCategory | null; onCategory(category: BlogCategory | null): void; all: BlogListResponse | undefined }) {
  const t = useT();
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h3">
        {t('blog.categories')}
      </Typography>
      <List dense disablePadding aria-label={t('blog.categories')}>
        {(all?.categories ?? BLOG_CATEGORIES.map((c) => ({ ...c, count: 0 }))).map((c) => (
          <ListItem key={c.id} disablePadding>
            <ListItemButton selected={category === c.id} onClick={() => onCategory(category === c.id ? null : c.id)}>
              <ListItemText primary={categoryLabel(t, c.id, c.name)} />
              <Typography variant="body2" color="text.secondary">
                {c.count}
              </Typography>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function BlogStats({ all }: { all: BlogListResponse | undefined }) {
  const t = useT();
  const f = useFormat();
  return (
    <Card variant="outlined" data-testid="blog-stats">
      <CardContent>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {t('blog.blogStats')}
        </Typography>
        {[
          [t('blog.totalViews'), all ? f.count(all.stats.total_views) : '–'],
          [t('blog.thisMonth'), all ? f.count(all.stats.this_month) : '–'],
          [t('blog.avgReadingTime'), all ? t('blog.minutes', { minutes: all.stats.avg_read_time }) : '–'],
        ].map(([label, value]) => (
          <Stack key={label} direction="row" sx={{ justifyContent: 'space-between' }}>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {value}
            </Typography>
          </Stack>
        ))}
      </CardContent>
    </Card>
  );
}

/**
 * The hub's sidebar: New Blog Post, the Writing Assistant while editing, the tabs, the categories and the figures.
 * `sections`: on a phone's list the tabs stay above the posts, categories and figures go below.
 */
export function HubSidebar({ sections = 'all', ...props }: SidebarProps & { sections?: 'all' | 'top' | 'bottom' }) {
  // The counts and figures are the doctor's whole hub, whichever tab is shown.
  const all = useBlogList({ tab: 'all', sort: 'date', q: '', category: null });
  const ideas = useQuery({ queryKey: ['blogs', 'ideas', props.ideasFor], queryFn: () => call('listBlogTopicIdeas', { query: topicIdeasQuery(props.ideasFor) }), enabled: props.editing && props.aiEnabled && sections !== 'bottom', staleTime: Infinity });
  const top = sections !== 'bottom';
  const bottom = sections !== 'top';
  const t = useT();
  return (
    <Stack spacing={2}>
      {top && (
        <Button variant="contained" startIcon={<AddOutlined />} onClick={props.onNew} fullWidth>
          {t('blog.newPost')}
        </Button>
      )}
      {top && props.editing && <WritingAssistant {...props} ideas={ideas} />}
      {top && <HubTabs tab={props.tab} editing={props.editing} onTab={props.onTab} counts={all.data?.counts} />}
      {bottom && <CategoryList category={props.category} onCategory={props.onCategory} all={all.data} />}
      {bottom && <BlogStats all={all.data} />}
    </Stack>
  );
}
