import { useCallback, useEffect, useRef, useState } from 'react';
import { BLOG_DEFAULTS, type BlogCategory, type BlogTab } from '@telemed/contracts/blog-constants';
import { useConfirm } from '../../lib/confirm';
import { useT } from '../../i18n/useT';
import type { EditorSeed, LeaveGuard } from './editorFields';
import type { SidebarProps } from './HubSidebar';
import { asParagraphText, type Idea, type IdeasFor, type PostMeta } from './ideas';

/** The post open in the editor: a saved one's id (null: a new post), and an idea taken into it. */
export interface Editing {
  id: string | null;
  seed: EditorSeed | null;
}

/**
 * The hub's state: the tab and category of the list, the post open in the editor, and the Writing Assistant. The open
 * editor is asked before anything leaves it (a draft saves itself first; other unsaved writing asks).
 */
export function useBlogHub({ startWithNew, startWithPost }: { startWithNew: boolean; startWithPost?: string }) {
  const [tab, setTab] = useState<BlogTab>('all');
  const [category, setCategory] = useState<BlogCategory | null>(null);
  const [editing, setEditing] = useState<Editing | null>(startWithNew ? { id: null, seed: null } : startWithPost ? { id: startWithPost, seed: null } : null);
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
  const t = useT();
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

  const sidebar: SidebarProps = {
    editing: Boolean(editing),
    onNew: () => leaveEditor(() => edit({ id: null, seed: null })),
    tab,
    onTab: (next) =>
      leaveEditor(() => {
        setTab(next);
        setEditing(null);
      }),
    category,
    onCategory: (c) =>
      leaveEditor(() => {
        setCategory(c);
        setEditing(null);
      }),
    aiEnabled,
    onAi: (enabled) => {
      if (enabled) askIdeas();
      setAiEnabled(enabled);
    },
    ideasFor,
    onMoreIdeas: askIdeas,
    onIdea: async (idea: Idea) => {
      if ((written.current || editing?.id) && !(await confirm({ title: t('blog.useIdeaTitle'), message: t('blog.useIdeaReplaces'), confirmLabel: t('blog.useThisIdea') }))) return;
      setEditing((current) => ({
        id: current?.id ?? savedNew.current,
        seed: { title: idea.title, excerpt: idea.description, content: { blocks: [{ type: 'paragraph' as const, data: { text: asParagraphText(idea.content) } }] } },
      }));
    },
  };
  return {
    tab,
    category,
    editing,
    sidebar,
    leaveEditor,
    openPost: (id: string) => edit({ id, seed: null }),
    closeEditor: () => setEditing(null),
    editorHandlers: { onMeta, onWritten, onGuard, onSaved },
  };
}

/** Scrolls `scroller` back to the top whenever `view` changes (the list, a post, a new one). */
export function useScrollToTopOn(view: string, scroller: { current: HTMLElement | null }) {
  useEffect(() => {
    scroller.current?.scrollTo?.({ top: 0 });
  }, [view, scroller]);
}
