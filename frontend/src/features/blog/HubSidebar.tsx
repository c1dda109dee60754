import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Box, Button, Card, CardActions, CardContent, Chip, CircularProgress, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import AddOutlined from '@mui/icons-material/AddOutlined';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import { BLOG_CATEGORIES, BLOG_TABS, type BlogCategory, type BlogTab } from '@telemed/contracts/blog-constants';
import { call } from '../../lib/client';
import { useBlogList, type BlogListResponse } from './api';
import { topicIdeasQuery, type Idea, type IdeasAnswer, type IdeasFor } from './ideas';

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
  return (
    <Card variant="outlined" data-testid="writing-assistant">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            Writing Assistant
          </Typography>
          <Button size="small" startIcon={<AutoAwesomeOutlined />} onClick={() => onAi(!aiEnabled)}>
            {aiEnabled ? 'Disable AI' : 'Enable AI'}
          </Button>
        </Stack>
        {aiEnabled && ideas.isLoading && <CircularProgress size={20} />}
        {aiEnabled && ideas.data && (
          <Stack spacing={1} sx={{ mt: 1 }}>
            {ideas.data.notice && (
              <Typography variant="body2" color="text.secondary">
                {ideas.data.notice}
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
                    Use this idea
                  </Button>
                </CardActions>
              </Card>
            ))}
            <Button size="small" onClick={onMoreIdeas} disabled={ideas.isFetching} sx={{ alignSelf: 'flex-start' }}>
              Other ideas
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** The hub's tabs (Blog Management), each with its count of the doctor's posts. */
function HubTabs({ tab, editing, onTab, counts }: { tab: BlogTab; editing: boolean; onTab(tab: BlogTab): void; counts: BlogListResponse['counts'] | undefined }) {
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h3">
        Blog Management
      </Typography>
      <List dense disablePadding aria-label="Blog Management">
        {BLOG_TABS.map((t) => (
          <ListItem key={t.id} disablePadding>
            <ListItemButton selected={!editing && tab === t.id} onClick={() => onTab(t.id)} data-testid={`tab-${t.id}`}>
              <ListItemText primary={t.label} />
              <Chip size="small" label={counts ? counts[t.id] : '–'} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function CategoryList({ category, onCategory, all }: { category: BlogCategory | null; onCategory(category: BlogCategory | null): void; all: BlogListResponse | undefined }) {
  return (
    <Box>
      <Typography variant="overline" color="text.secondary" component="h3">
        Categories
      </Typography>
      <List dense disablePadding aria-label="Categories">
        {(all?.categories ?? BLOG_CATEGORIES.map((c) => ({ ...c, count: 0 }))).map((c) => (
          <ListItem key={c.id} disablePadding>
            <ListItemButton selected={category === c.id} onClick={() => onCategory(category === c.id ? null : c.id)}>
              <ListItemText primary={c.name} />
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
  return (
    <Card variant="outlined" data-testid="blog-stats">
      <CardContent>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          Blog Stats
        </Typography>
        {[
          ['Total Views', all ? all.stats.total_views.toLocaleString('en-IN') : '–'],
          ['This Month', all ? all.stats.this_month.toLocaleString('en-IN') : '–'],
          ['Avg. Reading Time', all ? `${all.stats.avg_read_time} min` : '–'],
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
  return (
    <Stack spacing={2}>
      {top && (
        <Button variant="contained" startIcon={<AddOutlined />} onClick={props.onNew} fullWidth>
          New Blog Post
        </Button>
      )}
      {top && props.editing && <WritingAssistant {...props} ideas={ideas} />}
      {top && <HubTabs tab={props.tab} editing={props.editing} onTab={props.onTab} counts={all.data?.counts} />}
      {bottom && <CategoryList category={props.category} onCategory={props.onCategory} all={all.data} />}
      {bottom && <BlogStats all={all.data} />}
    </Stack>
  );
}
