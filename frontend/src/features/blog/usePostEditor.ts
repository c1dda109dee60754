import { useEffect, useRef, useState, type RefObject } from 'react';
import { BLOG_LIMITS } from '@telemed/contracts/blog-constants';
import { ApiError } from '../../lib/api';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import { sessionStore } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { useSaveQueue } from '../../lib/autosave';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { uploadBlogImage, useAutosaveDraft, useSavePost, type BlogContent } from './api';
import { AUTOSAVE_DELAY_MS, contentKey } from './autosave';
import type { BlogEditorHandle } from './BlogEditor';
import { draftOf, sameFields, scheduledInstant, type EditorFields, type LeaveGuard } from './editorFields';
import type { PostMeta } from './ideas';
import { publishFailedText, uploadErrorText } from './labels';

export interface PostEditorOptions {
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
}

/**
 * What is unsaved in the editor, the draft that saves itself (a new post or a draft), and the question before the hub
 * leaves it: a draft saves what is left at once and goes; anything else unsaved asks first.
 */
function useEditorDraft({ id, initial, content, autosaves, onWritten, onGuard, onSaved }: PostEditorOptions, fields: EditorFields, fieldsNow: RefObject<EditorFields>, editor: RefObject<BlogEditorHandle | null>) {
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

  // The post's id once it exists (a new post gets one at its first save), and the saves, one at a time.
  const postId = useRef(id);
  const closing = useRef(false);
  const queue = useSaveQueue();
  const autosave = useAutosaveDraft();
  const saveDraftNow = () =>
    queue.saveOnce(() => {
      if (closing.current) return false;
      return async () => {
        const snapshot = fieldsNow.current;
        const blocks = (await editor.current?.save()) ?? { blocks: [] };
        postId.current = (await autosave.mutateAsync({ id: postId.current, draft: draftOf(snapshot, blocks, false) })).id;
        onSaved(postId.current);
        savedContent.current = contentKey(blocks);
        setSavedFields(snapshot);
        // Anything written while it was saving stays unsaved.
        compareContent();
      };
    });
  const saveDraftLater = useRef(saveDraftNow);
  saveDraftLater.current = saveDraftNow;
  useEffect(() => {
    if (!autosaves || !dirty) return;
    const timer = setTimeout(() => void saveDraftLater.current(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autosaves, dirty, edits, fields]);

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

  /** Stops the draft saving itself and waits for a save under way: the final save (it may be creating the post) goes next. */
  const closeDraft = async () => {
    closing.current = true;
    await queue.settled();
  };
  /** The final save did not go: the draft saves itself again. */
  const reopenDraft = () => {
    closing.current = false;
  };
  return { dirty, autosaveState: queue.state, onContentChange, postId, closeDraft, reopenDraft, leave };
}

/** The editor's state and actions: its fields, the draft saving itself, the cover's upload, Save Draft and Publish. */
export function usePostEditor(options: PostEditorOptions) {
  const { initial, onClose, onMeta, onWritten } = options;
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
  /** What is wrong with the "Publish at" field, shown on it (until it or the status changes). */
  const [publishAtError, setPublishAtError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const editor = useRef<BlogEditorHandle>(null);
  const save = useSavePost();
  const toasts = useToasts();
  const t = useT();
  const explain = useErrorText();
  const set = <K extends keyof EditorFields>(key: K, value: EditorFields[K]) => {
    onWritten(true);
    if (key === 'publish_at' || key === 'status') setPublishAtError(null);
    setFields((f) => ({ ...f, [key]: value }));
  };
  const draft = useEditorDraft(options, fields, fieldsNow, editor);

  const submit = async (mode: 'draft' | 'publish') => {
    setError(null);
    await draft.closeDraft();
    const blocks = (await editor.current?.save()) ?? { blocks: [] };
    const hasContent = blocks.blocks.length > 0;
    const publishing = mode === 'publish';
    const refuse = (message: string, show: (message: string) => void = setError) => {
      draft.reopenDraft();
      show(message);
    };
    if (publishing && !sessionStore.get()) return refuse(t('blog.loginToPublish'));
    if (publishing && (!fields.title.trim() || !hasContent)) return refuse(t('blog.titleAndContentRequired'));
    const scheduling = publishing && fields.status === 'scheduled';
    const publishAt = scheduling ? scheduledInstant(fields.publish_at) : null;
    // An empty or unreadable time is the field's to say (a past one is the server's: the clock that counts is its).
    if (scheduling && !publishAt) return refuse(t('blog.publishAtRequired'), setPublishAtError);
    const then = !publishing ? 'save' : publishAt ? { schedule: publishAt } : 'publish';
    save.mutate(
      { id: draft.postId.current, draft: draftOf(fields, blocks, publishing), then },
      {
        onSuccess: (result) => {
          const slug = 'slug' in result ? result.slug : null;
          const title = t(live ? 'blog.changesSaved' : publishing ? (fields.status === 'scheduled' ? 'blog.postScheduled' : 'blog.postPublished') : 'blog.draftSaved');
          const page = slug && 'status' in result && result.status === 'published' ? `/blog/${slug}` : null;
          toasts.show({
            type: 'success',
            title,
            message: page ?? undefined,
            // The public page, a click away (a new tab: the hub stays as it is).
            actions: page ? [{ label: t('blog.viewPost'), primary: true, handler: () => void window.open(page, '_blank', 'noopener') }] : undefined,
          });
          onClose();
        },
        onError: (e) => {
          draft.reopenDraft();
          if (publishing) toasts.show({ type: 'error', title: publishFailedText(t, explain, e) });
          // The server's refusal itself (a 5xx: its internal error); without an answer, that the post did not go.
          setError(e instanceof ApiError ? explain(e, 'errors.internal_error') : t('blog.publishFailed'));
        },
      },
    );
  };

  const pickCover = async (file: File | undefined) => {
    if (!file) return;
    if (file.size >= BLOG_LIMITS.imageBytes) return setError(t('blog.imageTooLarge'));
    setUploading(true);
    try {
      const answer = await uploadBlogImage(file);
      set('image_url', answer.file.url);
    } catch (e) {
      setError(uploadErrorText(explain, e));
    } finally {
      setUploading(false);
    }
  };

  return { fields, set, live, error, setError, publishAtError, uploading, editor, saving: save.isPending, submit, pickCover, cancel: () => void draft.leave.current().then((go) => go && onClose()), ...draft };
}
