import { Suspense, lazy } from 'react';
import { Alert, Box, Button, CircularProgress, Grid, MenuItem, Stack, TextField } from '@mui/material';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import { BLOG_CATEGORIES, BLOG_LIMITS, type BlogCategory } from '@telemed/contracts/blog-constants';
import { AutosaveStatus } from '../../lib/autosave';
import { useT } from '../../i18n/useT';
import { useBlogPost } from './api';
import { EDITOR_BOX_HEIGHT, emptyFields, fieldsOf, type EditorFields, type EditorSeed } from './editorFields';
import { categoryLabel } from './labels';
import { usePostEditor, type PostEditorOptions } from './usePostEditor';

// Editor.js and its tools are a chunk of their own, fetched when the editor first opens.
const BlogEditor = lazy(async () => ({ default: (await import('./BlogEditor')).BlogEditor }));

type Editor = ReturnType<typeof usePostEditor>;

/**
 * The publishing bar: the status (and its time when scheduled) beside the buttons it decides, in one flowing row that
 * wraps whole pieces (the fields together, the buttons together), so neither can run into the other. Sticky at the
 * bottom of the hub's scrolling content (past its 16 px padding): Save Draft and Publish stay in view however long the post.
 */
function EditorActions({ editor, autosaves }: { editor: Editor; autosaves: boolean }) {
  const { fields, set, live, saving } = editor;
  const t = useT();
  return (
    <Box
      data-testid="editor-actions"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, py: 2, borderTop: 1, borderColor: 'divider', position: 'sticky', bottom: -16, zIndex: 3, bgcolor: 'background.paper' }}
    >
      {!live && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}>
          <TextField select size="small" label={t('blog.status')} value={fields.status} onChange={(e) => set('status', e.target.value as EditorFields['status'])} sx={{ flex: { xs: '1 1 140px', sm: '0 0 170px' } }}>
            <MenuItem value="draft">{t('blog.optionDraft')}</MenuItem>
            <MenuItem value="published">{t('blog.optionPublished')}</MenuItem>
            <MenuItem value="scheduled">{t('blog.optionScheduled')}</MenuItem>
          </TextField>
          {fields.status === 'scheduled' && (
            <TextField
              size="small"
              type="datetime-local"
              label={t('blog.publishAt')}
              value={fields.publish_at}
              onChange={(e) => set('publish_at', e.target.value)}
              error={Boolean(editor.publishAtError)}
              helperText={editor.publishAtError}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: { xs: '1 1 200px', sm: '0 0 240px' } }}
            />
          )}
        </Box>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, ml: 'auto' }}>
        <AutosaveStatus state={editor.autosaveState} dirty={editor.dirty} canSave autosaves={autosaves} />
        <Button onClick={editor.cancel} disabled={saving}>
          {t('blog.cancel')}
        </Button>
        {!live && (
          <Button variant="outlined" onClick={() => void editor.submit('draft')} disabled={saving}>
            {t('blog.saveDraft')}
          </Button>
        )}
        <Button variant="contained" onClick={() => void editor.submit('publish')} disabled={saving} data-testid="publish-button">
          {live ? t('blog.saveChanges') : fields.status === 'scheduled' ? t('blog.schedule') : t('blog.publish')}
        </Button>
      </Box>
    </Box>
  );
}

/** Where Editor.js will be, as tall as its empty editor, while its chunk loads. */
function EditorPlaceholder() {
  const t = useT();
  return (
    <Box sx={{ minHeight: EDITOR_BOX_HEIGHT, border: 1, borderColor: 'divider', borderRadius: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress size={24} aria-label={t('blog.loadingEditor')} />
    </Box>
  );
}

/** The editor's form: title, category, tags, excerpt, the blocks in Editor.js, the cover, the date, and the publishing bar. */
function EditorForm(props: PostEditorOptions) {
  const editor = usePostEditor(props);
  const { fields, set, error, setError, uploading, live } = editor;
  const t = useT();
  return (
    <Stack spacing={2} component="form" onSubmit={(e) => e.preventDefault()} aria-label={t('blog.editorForm')}>
      {error && (
        <Alert severity="error" onClose={() => setError(null)} data-testid="blog-editor-error">
          {error}
        </Alert>
      )}
      <TextField label={t('blog.title')} value={fields.title} onChange={(e) => set('title', e.target.value)} slotProps={{ htmlInput: { maxLength: BLOG_LIMITS.titleChars } }} required />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField select fullWidth label={t('blog.category')} value={fields.category} onChange={(e) => set('category', e.target.value as BlogCategory)}>
            {BLOG_CATEGORIES.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {categoryLabel(t, c.id)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField fullWidth label={t('blog.tags')} helperText={t('blog.tagsHelp')} value={fields.tags} onChange={(e) => set('tags', e.target.value)} />
        </Grid>
      </Grid>
      <TextField label={t('blog.excerpt')} multiline minRows={2} value={fields.excerpt} onChange={(e) => set('excerpt', e.target.value)} slotProps={{ htmlInput: { maxLength: BLOG_LIMITS.excerptChars } }} />
      {/* The fallback keeps the editor's place, so nothing below it (on a phone, the Writing Assistant) moves when it loads. */}
      <Suspense fallback={<EditorPlaceholder />}>
        <BlogEditor ref={editor.editor} initial={props.content} onError={setError} onChange={editor.onContentChange} />
      </Suspense>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Button component="label" variant="outlined" startIcon={<ImageOutlined />} disabled={uploading}>
          {uploading ? t('blog.uploading') : fields.image_url ? t('blog.changeCover') : t('blog.uploadCover')}
          <input hidden type="file" accept="image/jpeg,image/png,image/gif,image/webp" data-testid="cover-input" onChange={(e) => void editor.pickCover(e.target.files?.[0])} />
        </Button>
        {fields.image_url && <Box component="img" src={fields.image_url} alt={t('blog.coverAlt')} sx={{ height: 56, maxWidth: 120, objectFit: 'cover', borderRadius: 1, alignSelf: { xs: 'flex-start', sm: 'center' } }} />}
      </Stack>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField fullWidth type="date" label={t('blog.date')} value={fields.date} onChange={(e) => set('date', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Grid>
        {live && (
          <Grid size={{ xs: 12, sm: 8 }}>
            <Alert severity="info" data-testid="published-edit-notice">
              {t('blog.publishedEditNotice')}
            </Alert>
          </Grid>
        )}
      </Grid>
      <EditorActions editor={editor} autosaves={props.autosaves} />
    </Stack>
  );
}

/** The editor of a new post or a saved one (read first), with an idea's title, excerpt and text when one was taken. */
export function PostEditor({ id, seed, ...handlers }: { id: string | null; seed: EditorSeed | null } & Omit<PostEditorOptions, 'id' | 'initial' | 'content' | 'autosaves'>) {
  const existing = useBlogPost(id);
  const t = useT();
  if (id && !existing.data) return existing.isError ? <Alert severity="error">{t('blog.postNotFound')}</Alert> : <CircularProgress size={24} />;
  const post = existing.data;
  const initial: EditorFields = post ? fieldsOf(post) : { ...emptyFields(), title: seed?.title ?? '', excerpt: seed?.excerpt ?? '' };
  // An idea taken for a saved post replaces its title, excerpt and text in the editor (saved only when the doctor saves).
  const fields = post && seed ? { ...initial, title: seed.title, excerpt: seed.excerpt } : initial;
  const content = seed?.content ?? post?.content ?? { blocks: [] };
  // A new post or a draft saves itself as the doctor writes; a published, scheduled or archived one only when asked.
  const autosaves = !post || post.status === 'draft';
  return <EditorForm key={`${id ?? 'new'}-${seed?.title ?? ''}`} id={id} initial={fields} content={content} autosaves={autosaves} {...handlers} />;
}
