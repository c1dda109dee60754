import { useCallback, useRef } from 'react';
import { Dialog, DialogContent, DialogTitle, Grid, IconButton, useMediaQuery, useTheme } from '@mui/material';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import { useT } from '../../i18n/useT';
import { HubSidebar } from './HubSidebar';
import { useFreshBlogImageGrants } from './image-grants';
import { PostEditor } from './PostEditor';
import { PostList } from './PostList';
import { useBlogHub, useScrollToTopOn } from './useBlogHub';

/** The Patient Education Hub (seed 001 §2): the doctor's posts, their counts and figures, and the editor. */
export function BlogHub({ open, onClose, startWithNew = false, startWithPost }: { open: boolean; onClose(): void; startWithNew?: boolean; startWithPost?: string }) {
  const t = useT();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const hub = useBlogHub({ startWithNew, startWithPost });
  const { editing, sidebar } = hub;
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
  useScrollToTopOn(editing ? (editing.id ?? 'new') : 'list', scroller);
  // While a post is being written, Escape (which also closes Editor.js's menus) and a click beside the hub do not close
  // it and lose the writing: only its Close button, or the editor's own Cancel, leave.
  const onDialogClose = (_event: unknown, reason: 'escapeKeyDown' | 'backdropClick') => {
    if (editing && (reason === 'escapeKeyDown' || reason === 'backdropClick')) return;
    onClose();
  };
  return (
    <Dialog open={open} onClose={onDialogClose} fullScreen={phone} fullWidth maxWidth="lg" aria-labelledby="blog-hub-title">
      <DialogTitle id="blog-hub-title" sx={{ pr: 6 }}>
        {t('blog.hubTitle')}
        <IconButton aria-label={t('blog.close')} onClick={() => hub.leaveEditor(onClose)} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseOutlined />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers ref={contentRef}>
        <Grid container spacing={3}>
          {/* On a phone the editor comes first (the sidebar follows it); the list keeps its tabs above and the categories and figures below it, so a tab's posts show where the doctor tapped. */}
          <Grid size={{ xs: 12, md: 3 }} sx={{ order: { xs: editing ? 3 : 1, md: 1 } }}>
            <HubSidebar {...sidebar} sections={phone && !editing ? 'top' : 'all'} />
          </Grid>
          <Grid size={{ xs: 12, md: 9 }} sx={{ order: { xs: 2, md: 2 } }}>
            {editing ? <PostEditor id={editing.id} seed={editing.seed} onClose={hub.closeEditor} {...hub.editorHandlers} /> : <PostList tab={hub.tab} category={hub.category} onEdit={hub.openPost} />}
          </Grid>
          {phone && !editing && (
            <Grid size={12} sx={{ order: 3 }}>
              <HubSidebar {...sidebar} sections="bottom" />
            </Grid>
          )}
        </Grid>
      </DialogContent>
    </Dialog>
  );
}
