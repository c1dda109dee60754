import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  Grid,
  IconButton,
  InputAdornment,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import AddOutlined from '@mui/icons-material/AddOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import {
  BLOG_CATEGORIES,
  BLOG_DEFAULTS,
  BLOG_LIMITS,
  BLOG_TABS,
  BLOG_TEXTS,
  type BlogCategory,
  type BlogSort,
  type BlogStatus,
  type BlogTab,
} from '@telemed/contracts/blog-constants';
import { api, ApiError } from '../../lib/api';
import { sessionStore } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { useConfirm } from '../../lib/confirm';
import { uploadBlogImage, useAutosaveDraft, useBlogList, useBlogPost, usePostAction, useSavePost, type BlogContent, type BlogDraft, type BlogPostSummary } from './api';
import { AUTOSAVE_DELAY_MS, AUTOSAVE_TEXTS, contentKey, type AutosaveState } from './autosave';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import type { BlogEditorHandle } from './BlogEditor';
import { useFreshBlogImageGrants } from './image-grants';

// Editor.js and its tools are a chunk of their own, fetched when the editor first opens.
const BlogEditor = lazy(async () => ({ default: (await import('./BlogEditor')).BlogEditor }));

const categoryName = (id: string) => BLOG_CATEGORIES.find((c) => c.id === id)?.name ?? id;
const STATUS_COLOURS: Record<BlogStatus, 'success' | 'default' | 'info' | 'warning'> = { published: 'success', draft: 'default', scheduled: 'info', archived: 'warning' };
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
/** An instant as a datetime-local field's value, in the browser's time (the field has no zone). */
function localDateTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An idea's plain text as a paragraph's (HTML) text: a writing model's words never become markup in the editor. */
function asParagraphText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What the Writing Assistant asks ideas for: the post's title and category then (and which asking it is). */
interface IdeasFor {
  title: string;
  category: BlogCategory;
  asked: number;
}

export function topicIdeasPath(ideasFor: Pick<IdeasFor, 'title' | 'category'>): string {
  const query = new URLSearchParams({ category: ideasFor.category });
  if (ideasFor.title.trim()) query.set('title', ideasFor.title.trim());
  return `/blogs/topic-ideas?${query.toString()}`;
}

interface IdeasAnswer {
  source: 'bundled' | 'model';
  notice: string | null;
  ideas: Array<{ id: string; title: string; description: string; content: string }>;
}

function Sidebar(props: {
  /** Which of the sidebar's parts: on a phone's list the tabs stay above the posts, categories and figures go below. */
  sections?: 'all' | 'top' | 'bottom';
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
  onIdea(idea: IdeasAnswer['ideas'][number]): void | Promise<void>;
}) {
  // The counts and figures are the doctor's whole hub, whichever tab is shown.
  const all = useBlogList({ tab: 'all', sort: 'date', q: '', category: null });
  const ideas = useQuery({ queryKey: ['blogs', 'ideas', props.ideasFor], queryFn: () => api<IdeasAnswer>(topicIdeasPath(props.ideasFor)), enabled: props.editing && props.aiEnabled && props.sections !== 'bottom', staleTime: Infinity });
  const counts = all.data?.counts;
  const top = props.sections !== 'bottom';
  const bottom = props.sections !== 'top';
  return (
    <Stack spacing={2}>
      {top && (
        <Button variant="contained" startIcon={<AddOutlined />} onClick={props.onNew} fullWidth>
          New Blog Post
        </Button>
      )}
      {top && props.editing && (
        <Card variant="outlined" data-testid="writing-assistant">
          <CardContent>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                Writing Assistant
              </Typography>
              <Button size="small" startIcon={<AutoAwesomeOutlined />} onClick={() => props.onAi(!props.aiEnabled)}>
                {props.aiEnabled ? 'Disable AI' : 'Enable AI'}
              </Button>
            </Stack>
            {props.aiEnabled && ideas.isLoading && <CircularProgress size={20} />}
            {props.aiEnabled && ideas.data && (
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
                      <Button size="small" onClick={() => void props.onIdea(idea)}>
                        Use this idea
                      </Button>
                    </CardActions>
                  </Card>
                ))}
                <Button size="small" onClick={props.onMoreIdeas} disabled={ideas.isFetching} sx={{ alignSelf: 'flex-start' }}>
                  Other ideas
                </Button>
              </Stack>
            )}
          </CardContent>
        </Card>
      )}
      {top && (
        <Box>
          <Typography variant="overline" color="text.secondary" component="h3">
            Blog Management
          </Typography>
          <List dense disablePadding aria-label="Blog Management">
            {BLOG_TABS.map((t) => (
              <ListItem key={t.id} disablePadding>
                <ListItemButton selected={!props.editing && props.tab === t.id} onClick={() => props.onTab(t.id)} data-testid={`tab-${t.id}`}>
                  <ListItemText primary={t.label} />
                  <Chip size="small" label={counts ? counts[t.id] : '–'} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      {bottom && (
        <Box>
          <Typography variant="overline" color="text.secondary" component="h3">
            Categories
          </Typography>
          <List dense disablePadding aria-label="Categories">
            {(all.data?.categories ?? BLOG_CATEGORIES.map((c) => ({ ...c, count: 0 }))).map((c) => (
              <ListItem key={c.id} disablePadding>
                <ListItemButton selected={props.category === c.id} onClick={() => props.onCategory(props.category === c.id ? null : c.id)}>
                  <ListItemText primary={c.name} />
                  <Typography variant="body2" color="text.secondary">
                    {c.count}
                  </Typography>
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      {bottom && (
        <Card variant="outlined" data-testid="blog-stats">
          <CardContent>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
              Blog Stats
            </Typography>
            {[
              ['Total Views', all.data ? all.data.stats.total_views.toLocaleString('en-IN') : '–'],
              ['This Month', all.data ? all.data.stats.this_month.toLocaleString('en-IN') : '–'],
              ['Avg. Reading Time', all.data ? `${all.data.stats.avg_read_time} min` : '–'],
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
      )}
    </Stack>
  );
}

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

function PostList({ tab, category, onEdit }: { tab: BlogTab; category: BlogCategory | null; onEdit(id: string): void }) {
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

interface EditorFields {
  title: string;
  category: BlogCategory;
  tags: string;
  excerpt: string;
  image_url: string | null;
  date: string;
  status: 'draft' | 'published' | 'scheduled';
  publish_at: string;
}

const emptyFields = (): EditorFields => ({ title: '', category: BLOG_DEFAULTS.category, tags: '', excerpt: '', image_url: null, date: today(), status: 'draft', publish_at: '' });

function PostEditor({
  id,
  seed,
  onClose,
  onMeta,
  onWritten,
  onGuard,
  onSaved,
}: {
  id: string | null;
  seed: { title: string; excerpt: string; content: BlogContent } | null;
  onClose(): void;
  onMeta(meta: PostMeta): void;
  onWritten(written: boolean): void;
  onGuard(leave: LeaveGuard): void;
  onSaved(id: string): void;
}) {
  const existing = useBlogPost(id);
  if (id && !existing.data) return existing.isError ? <Alert severity="error">{BLOG_TEXTS.postNotFound}</Alert> : <CircularProgress size={24} />;
  const post = existing.data;
  const initial: EditorFields = post
    ? {
        title: post.title,
        category: post.category,
        tags: post.tags.join(', '),
        excerpt: post.excerpt === BLOG_DEFAULTS.excerpt ? '' : post.excerpt,
        image_url: post.image_url,
        date: post.date,
        status: post.status === 'archived' ? 'draft' : post.status,
        publish_at: post.publish_at ? localDateTime(post.publish_at) : '',
      }
    : { ...emptyFields(), title: seed?.title ?? '', excerpt: seed?.excerpt ?? '' };
  // An idea taken for a saved post replaces its title, excerpt and text in the editor (saved only when the doctor saves).
  const fields = post && seed ? { ...initial, title: seed.title, excerpt: seed.excerpt } : initial;
  const content = seed?.content ?? post?.content ?? { blocks: [] };
  // A new post or a draft saves itself as the doctor writes; a published, scheduled or archived one only when asked.
  const autosaves = !post || post.status === 'draft';
  return <EditorForm key={`${id ?? 'new'}-${seed?.title ?? ''}`} id={id} initial={fields} content={content} autosaves={autosaves} onClose={onClose} onMeta={onMeta} onWritten={onWritten} onGuard={onGuard} onSaved={onSaved} />;
}

type PostMeta = Pick<IdeasFor, 'title' | 'category'>;
/** Asked before the hub leaves the editor (another tab, a new post, closing): true when it may go. */
type LeaveGuard = () => Promise<boolean>;

const sameFields = (a: EditorFields, b: EditorFields) => (Object.keys(a) as Array<keyof EditorFields>).every((k) => a[k] === b[k]);

/** The post as the server takes it, from the editor's fields and blocks (seed 001 §5: a draft's defaults). */
function draftOf(fields: EditorFields, content: BlogContent, publishing: boolean): BlogDraft {
  return {
    title: fields.title.trim() || (publishing ? '' : BLOG_DEFAULTS.title),
    description: null,
    content,
    category: fields.category,
    tags: fields.tags,
    excerpt: fields.excerpt.trim() || (publishing ? null : BLOG_DEFAULTS.excerpt),
    image_url: fields.image_url,
    date: fields.date || null,
  };
}

/** Where the editor's writing stands, beside its buttons. */
function SaveState({ state, dirty, autosaves }: { state: AutosaveState; dirty: boolean; autosaves: boolean }) {
  const text = !autosaves ? (dirty ? AUTOSAVE_TEXTS.unsaved : null) : state === 'failed' ? AUTOSAVE_TEXTS.failed : dirty || state === 'saving' ? AUTOSAVE_TEXTS.saving : state === 'saved' ? AUTOSAVE_TEXTS.saved : null;
  return (
    <Typography variant="body2" role="status" data-testid="autosave-status" color={state === 'failed' ? 'error' : 'text.secondary'} sx={{ minHeight: '1.5em' }}>
      {text}
    </Typography>
  );
}

function EditorForm({
  id,
  initial,
  content,
  autosaves,
  onClose,
  onMeta,
  onWritten,
  onGuard,
  onSaved,
}: {
  id: string | null;
  initial: EditorFields;
  content: BlogContent;
  /** Whether the post saves itself as a draft while the doctor writes. */
  autosaves: boolean;
  onClose(): void;
  onMeta(meta: PostMeta): void;
  /** Whether the doctor has changed anything in this editor since it opened. */
  onWritten(written: boolean): void;
  onGuard(leave: LeaveGuard): void;
  /** The post's id once saved (a new post has one from its first save). */
  onSaved(id: string): void;
}) {
  const [fields, setFields] = useState(initial);
  const fieldsNow = useRef(fields);
  fieldsNow.current = fields;
  useEffect(() => onWritten(false), [onWritten]);
  // A post already on the public page: saving updates it there (it cannot become a draft or be scheduled from here).
  const live = initial.status === 'published';
  // The Writing Assistant reads the title and category when it is asked (never on each keystroke).
  useEffect(() => {
    onMeta({ title: fields.title, category: fields.category });
  }, [fields.title, fields.category, onMeta]);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const editor = useRef<BlogEditorHandle>(null);
  const save = useSavePost();
  const toasts = useToasts();
  const set = <K extends keyof EditorFields>(key: K, value: EditorFields[K]) => {
    onWritten(true);
    setFields((f) => ({ ...f, [key]: value }));
  };

  // Unsaved: the fields or the blocks differ from what was last saved (or opened).
  const [savedFields, setSavedFields] = useState(initial);
  const savedContent = useRef(contentKey(content));
  const [contentDirty, setContentDirty] = useState(false);
  const [edits, setEdits] = useState(0);
  const dirty = contentDirty || !sameFields(fields, savedFields);
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  const { confirmDiscard } = useUnsavedChanges(dirty);
  const compareContent = () => void editor.current?.save().then((blocks) => setContentDirty(contentKey(blocks) !== savedContent.current));
  const onContentChange = () => {
    onWritten(true);
    setEdits((n) => n + 1);
    compareContent();
  };

  // The post's id once it exists (a new post gets one at its first save), and the save under way, one at a time.
  const postId = useRef(id);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const closing = useRef(false);
  const [autosaveState, setAutosaveState] = useState<AutosaveState>('idle');
  const autosave = useAutosaveDraft();
  const saveDraftNow = async (): Promise<boolean> => {
    while (inFlight.current) await inFlight.current;
    if (closing.current) return false;
    const run = (async () => {
      setAutosaveState('saving');
      const snapshot = fieldsNow.current;
      const blocks = (await editor.current?.save()) ?? { blocks: [] };
      try {
        postId.current = (await autosave.mutateAsync({ id: postId.current, draft: draftOf(snapshot, blocks, false) })).id;
        onSaved(postId.current);
        savedContent.current = contentKey(blocks);
        setSavedFields(snapshot);
        // Anything written while it was saving stays unsaved.
        compareContent();
        setAutosaveState('saved');
        return true;
      } catch {
        setAutosaveState('failed');
        return false;
      }
    })();
    inFlight.current = run;
    try {
      return await run;
    } finally {
      inFlight.current = null;
    }
  };
  const saveDraftLater = useRef(saveDraftNow);
  saveDraftLater.current = saveDraftNow;
  useEffect(() => {
    if (!autosaves || !dirty) return;
    const timer = setTimeout(() => void saveDraftLater.current(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autosaves, dirty, edits, fields]);
  // Leaving the editor within the hub: a draft saves what is left at once and goes; anything else unsaved asks first.
  const leave = useRef<LeaveGuard>(async () => true);
  leave.current = async () => {
    // A post that saves itself asks the blocks directly: Editor.js reports a change a moment after it (debounced), so
    // a tab clicked right after typing found the flags clean and the writing was dropped. (Other posts keep the flags:
    // their pictures' addresses are renewed in place, which is no change of the doctor's.)
    const blocks = autosaves && !dirtyNow.current ? await editor.current?.save().catch(() => null) : null;
    const contentChanged = Boolean(blocks) && contentKey(blocks!) !== savedContent.current;
    if (!dirtyNow.current && !contentChanged) return true;
    if (autosaves && (await saveDraftNow())) return true;
    return confirmDiscard();
  };
  useEffect(() => onGuard(() => leave.current()), [onGuard]);

  const submit = async (mode: 'draft' | 'publish') => {
    setError(null);
    // The draft's own save first (it may be creating the post), then this one on the same post.
    closing.current = true;
    while (inFlight.current) await inFlight.current;
    const blocks = (await editor.current?.save()) ?? { blocks: [] };
    const hasContent = blocks.blocks.length > 0;
    const publishing = mode === 'publish';
    const refuse = (message: string) => {
      closing.current = false;
      setError(message);
    };
    if (publishing && !sessionStore.get()) return refuse(BLOG_TEXTS.loginToPublish);
    if (publishing && (!fields.title.trim() || !hasContent)) return refuse(BLOG_TEXTS.titleAndContentRequired);
    const draft = draftOf(fields, blocks, publishing);
    const then = !publishing ? 'save' : fields.status === 'scheduled' ? { schedule: new Date(fields.publish_at).toISOString() } : 'publish';
    if (publishing && fields.status === 'scheduled' && !fields.publish_at) return refuse(BLOG_TEXTS.scheduleInPast);
    save.mutate(
      { id: postId.current, draft, then },
      {
        onSuccess: (result) => {
          const slug = 'slug' in result ? result.slug : null;
          const title = live ? BLOG_TEXTS.changesSaved : publishing ? (fields.status === 'scheduled' ? 'Post scheduled' : 'Post published') : 'Draft saved';
          const page = slug && 'status' in result && result.status === 'published' ? `/blog/${slug}` : null;
          toasts.show({
            type: 'success',
            title,
            message: page ?? undefined,
            // The public page, a click away (a new tab: the hub stays as it is).
            actions: page ? [{ label: BLOG_TEXTS.viewPost, primary: true, handler: () => void window.open(page, '_blank', 'noopener') }] : undefined,
          });
          onClose();
        },
        onError: (e) => {
          closing.current = false;
          const detail = e instanceof ApiError ? e.detail : undefined;
          if (publishing) toasts.show({ type: 'error', title: BLOG_TEXTS.publishFailed(detail) });
          setError(detail ?? BLOG_TEXTS.publishFailed());
        },
      },
    );
  };

  const pickCover = async (file: File | undefined) => {
    if (!file) return;
    if (file.size >= BLOG_LIMITS.imageBytes) return setError(BLOG_TEXTS.imageTooLarge);
    setUploading(true);
    try {
      const answer = await uploadBlogImage(file);
      set('image_url', answer.file.url);
    } catch (e) {
      setError(e instanceof Error ? e.message : BLOG_TEXTS.imageUploadError);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Stack spacing={2} component="form" onSubmit={(e) => e.preventDefault()} aria-label="Blog editor">
      {error && (
        <Alert severity="error" onClose={() => setError(null)} data-testid="blog-editor-error">
          {error}
        </Alert>
      )}
      <TextField label="Title" value={fields.title} onChange={(e) => set('title', e.target.value)} slotProps={{ htmlInput: { maxLength: BLOG_LIMITS.titleChars } }} required />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField select fullWidth label="Category" value={fields.category} onChange={(e) => set('category', e.target.value as BlogCategory)}>
            {BLOG_CATEGORIES.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField fullWidth label="Tags" helperText="Separate tags with commas" value={fields.tags} onChange={(e) => set('tags', e.target.value)} />
        </Grid>
      </Grid>
      <TextField label="Excerpt" multiline minRows={2} value={fields.excerpt} onChange={(e) => set('excerpt', e.target.value)} slotProps={{ htmlInput: { maxLength: BLOG_LIMITS.excerptChars } }} />
      <Suspense fallback={<CircularProgress size={24} aria-label="Loading the editor" />}>
        <BlogEditor ref={editor} initial={content} onError={setError} onChange={onContentChange} />
      </Suspense>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button component="label" variant="outlined" startIcon={<ImageOutlined />} disabled={uploading}>
          {uploading ? 'Uploading…' : fields.image_url ? 'Change cover image' : 'Upload cover image'}
          <input hidden type="file" accept="image/jpeg,image/png,image/gif,image/webp" data-testid="cover-input" onChange={(e) => void pickCover(e.target.files?.[0])} />
        </Button>
        {fields.image_url && <Box component="img" src={fields.image_url} alt="Cover" sx={{ height: 56, maxWidth: 120, objectFit: 'cover', borderRadius: 1, alignSelf: { xs: 'flex-start', sm: 'center' } }} />}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField fullWidth type="date" label="Date" value={fields.date} onChange={(e) => set('date', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Grid>
        {live && (
          <Grid size={{ xs: 12, sm: 8 }}>
            <Alert severity="info" data-testid="published-edit-notice">
              {BLOG_TEXTS.publishedEditNotice}
            </Alert>
          </Grid>
        )}
      </Grid>
      {/* The publishing bar: the status (and its time when scheduled) beside the buttons it decides, in one flowing row
          that wraps whole pieces (the fields together, the buttons together), so neither can run into the other. */}
      {/* Sticky at the bottom of the hub's scrolling content (past its 16 px padding): Save Draft and Publish stay in view however long the post. */}
      <Box
        data-testid="editor-actions"
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, py: 2, borderTop: 1, borderColor: 'divider', position: 'sticky', bottom: -16, zIndex: 3, bgcolor: 'background.paper' }}
      >
        {!live && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}>
            <TextField select size="small" label="Status" value={fields.status} onChange={(e) => set('status', e.target.value as EditorFields['status'])} sx={{ flex: { xs: '1 1 140px', sm: '0 0 170px' } }}>
              <MenuItem value="draft">Draft</MenuItem>
              <MenuItem value="published">Published</MenuItem>
              <MenuItem value="scheduled">Scheduled</MenuItem>
            </TextField>
            {fields.status === 'scheduled' && (
              <TextField size="small" type="datetime-local" label="Publish at" value={fields.publish_at} onChange={(e) => set('publish_at', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} sx={{ flex: { xs: '1 1 200px', sm: '0 0 240px' } }} />
            )}
          </Box>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, ml: 'auto' }}>
          <SaveState state={autosaveState} dirty={dirty} autosaves={autosaves} />
          <Button onClick={() => void leave.current().then((go) => go && onClose())} disabled={save.isPending}>
            Cancel
          </Button>
          {!live && (
            <Button variant="outlined" onClick={() => void submit('draft')} disabled={save.isPending}>
              Save Draft
            </Button>
          )}
          <Button variant="contained" onClick={() => void submit('publish')} disabled={save.isPending} data-testid="publish-button">
            {live ? 'Save changes' : fields.status === 'scheduled' ? 'Schedule' : 'Publish'}
          </Button>
        </Box>
      </Box>
    </Stack>
  );
}

/** The Patient Education Hub (seed 001 §2): the doctor's posts, their counts and figures, and the editor. */
export function BlogHub({ open, onClose, startWithNew = false, startWithPost }: { open: boolean; onClose(): void; startWithNew?: boolean; startWithPost?: string }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<BlogTab>('all');
  const [category, setCategory] = useState<BlogCategory | null>(null);
  const [editing, setEditing] = useState<{ id: string | null; seed: { title: string; excerpt: string; content: BlogContent } | null } | null>(
    startWithNew ? { id: null, seed: null } : startWithPost ? { id: startWithPost, seed: null } : null,
  );
  const [aiEnabled, setAiEnabled] = useState(false);
  const postMeta = useRef<PostMeta>({ title: '', category: BLOG_DEFAULTS.category });
  const onMeta = useCallback((meta: PostMeta) => {
    postMeta.current = meta;
  }, []);
  const [ideasFor, setIdeasFor] = useState<IdeasFor>({ title: '', category: BLOG_DEFAULTS.category, asked: 0 });
  const askIdeas = () => setIdeasFor((before) => ({ ...postMeta.current, asked: before.asked + 1 }));
  // Whether the open editor holds anything the doctor wrote or changed: taking an idea then asks first.
  const written = useRef(false);
  const onWritten = useCallback((value: boolean) => {
    written.current = value;
  }, []);
  const confirm = useConfirm();
  // The open editor's question before it is left (a draft saves itself first; other unsaved writing asks).
  const editorGuard = useRef<LeaveGuard>(async () => true);
  const onGuard = useCallback((leave: LeaveGuard) => {
    editorGuard.current = leave;
  }, []);
  // A new post's id once it saved itself: an idea taken afterwards goes into that post, not a second one.
  const savedNew = useRef<string | null>(null);
  const onSaved = useCallback((id: string) => {
    savedNew.current = id;
  }, []);
  const edit = (next: { id: string | null; seed: null }) => {
    savedNew.current = null;
    setEditing(next);
  };
  /** Does `then` once the open editor (if any) may be left. */
  const leaveEditor = (then: () => void) => {
    if (!editing) return then();
    void editorGuard.current().then((go) => go && then());
  };
  // The author's pictures (editor, cover, cards) keep showing however long the hub stays open.
  const imagesRef = useFreshBlogImageGrants<HTMLDivElement>();
  const scroller = useRef<HTMLDivElement | null>(null);
  const contentRef = useCallback(
    (element: HTMLDivElement | null) => {
      scroller.current = element;
      imagesRef(element);
    },
    [imagesRef],
  );
  // Leaving the editor for the list (or opening another post) starts at the top, not where the last view was scrolled.
  const view = editing ? (editing.id ?? 'new') : 'list';
  useEffect(() => {
    scroller.current?.scrollTo?.({ top: 0 });
  }, [view]);
  // While a post is being written, Escape (which also closes Editor.js's menus) and a click beside the hub do not close
  // it and lose the writing: only its Close button, or the editor's own Cancel, leave.
  const onDialogClose = (_event: unknown, reason: 'escapeKeyDown' | 'backdropClick') => {
    if (editing && (reason === 'escapeKeyDown' || reason === 'backdropClick')) return;
    onClose();
  };
  const sidebar = {
    editing: Boolean(editing),
    onNew: () => leaveEditor(() => edit({ id: null, seed: null })),
    tab,
    onTab: (t: BlogTab) =>
      leaveEditor(() => {
        setTab(t);
        setEditing(null);
      }),
    category,
    onCategory: (c: BlogCategory | null) =>
      leaveEditor(() => {
        setCategory(c);
        setEditing(null);
      }),
    aiEnabled,
    onAi: (enabled: boolean) => {
      if (enabled) askIdeas();
      setAiEnabled(enabled);
    },
    ideasFor,
    onMoreIdeas: askIdeas,
    onIdea: async (idea: IdeasAnswer['ideas'][number]) => {
      if ((written.current || editing?.id) && !(await confirm({ title: BLOG_TEXTS.useIdeaTitle, message: BLOG_TEXTS.useIdeaReplaces, confirmLabel: BLOG_TEXTS.useIdeaTitle.replace(/\?$/, '') }))) return;
      setEditing((current) => ({
        id: current?.id ?? savedNew.current,
        seed: { title: idea.title, excerpt: idea.description, content: { blocks: [{ type: 'paragraph' as const, data: { text: asParagraphText(idea.content) } }] } },
      }));
    },
  };
  return (
    <Dialog open={open} onClose={onDialogClose} fullScreen={phone} fullWidth maxWidth="lg" aria-labelledby="blog-hub-title">
      <DialogTitle id="blog-hub-title" sx={{ pr: 6 }}>
        Patient Education Hub
        <IconButton aria-label="Close" onClick={() => leaveEditor(onClose)} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseOutlined />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers ref={contentRef}>
        <Grid container spacing={3}>
          {/* On a phone the editor comes first (the sidebar follows it); the list keeps its tabs above and the categories and figures below it, so a tab's posts show where the doctor tapped. */}
          <Grid size={{ xs: 12, md: 3 }} sx={{ order: { xs: editing ? 3 : 1, md: 1 } }}>
            <Sidebar {...sidebar} sections={phone && !editing ? 'top' : 'all'} />
          </Grid>
          <Grid size={{ xs: 12, md: 9 }} sx={{ order: { xs: 2, md: 2 } }}>
            {editing ? <PostEditor id={editing.id} seed={editing.seed} onClose={() => setEditing(null)} onMeta={onMeta} onWritten={onWritten} onGuard={onGuard} onSaved={onSaved} /> : <PostList tab={tab} category={category} onEdit={(id) => edit({ id, seed: null })} />}
          </Grid>
          {phone && !editing && (
            <Grid size={12} sx={{ order: 3 }}>
              <Sidebar {...sidebar} sections="bottom" />
            </Grid>
          )}
        </Grid>
      </DialogContent>
    </Dialog>
  );
}
