import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { Box } from '@mui/material';
import EditorJS, { type OutputData } from '@editorjs/editorjs';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';
import type { BlogContent } from './api';
import { editorMessages } from './editor-i18n';
import { EDITOR_BOX_HEIGHT, EDITOR_MIN_HEIGHT } from './editorFields';
import { IMAGE_WIDTH_VARIABLE, blogEditorTools } from './editor-tools';
import { uploadErrorText } from './labels';

export interface BlogEditorHandle {
  save(): Promise<BlogContent>;
}

/**
 * The post's rich text in Editor.js (its own chunk: loaded only when the hub's editor opens). The seeds' toolbar as
 * Editor.js tools: headers 1-6, lists, quote, code block, link, image (uploaded to the server), video (embeds from
 * YouTube and Vimeo); bold, italic, underline, marker, inline code and links in the inline toolbar. Its menus and
 * placeholders speak the language chosen when it opens (Editor.js takes its words once, when it is made).
 */
export const BlogEditor = forwardRef<BlogEditorHandle, { initial: BlogContent; onError: (message: string) => void; onChange?: () => void }>(function BlogEditor({ initial, onError, onChange }, ref) {
  const holder = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorJS | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const t = useT();
  const explain = useErrorText();
  const explainRef = useRef(explain);
  explainRef.current = explain;

  useEffect(() => {
    if (!holder.current) return;
    const instance = new EditorJS({
      holder: holder.current,
      data: initial as OutputData,
      placeholder: t('blog.editorPlaceholder'),
      minHeight: EDITOR_MIN_HEIGHT,
      i18n: { messages: editorMessages(t) },
      tools: blogEditorTools(
        (message) => onErrorRef.current(message),
        (error) => uploadErrorText(explainRef.current, error),
      ),
      // Any change of the blocks (typing, a picture, a block moved): the hub then asks before replacing them.
      onChange: () => onChangeRef.current?.(),
    });
    editor.current = instance;
    // Editor.js draws an image block's picture without alt text: in the editor it is the caption's illustration.
    const host = holder.current;
    const describeImages = new MutationObserver(() => host.querySelectorAll('img:not([alt])').forEach((img) => img.setAttribute('alt', '')));
    describeImages.observe(host, { childList: true, subtree: true });
    return () => {
      describeImages.disconnect();
      editor.current = null;
      void instance.isReady.then(() => instance.destroy()).catch(() => {});
    };
    // The editor is made once per post; `initial` and the language's words are read only then.
  }, []);

  useImperativeHandle(ref, () => ({
    async save() {
      const instance = editor.current;
      if (!instance) return { blocks: [] };
      await instance.isReady;
      return (await instance.save()) as BlogContent;
    },
  }));

  // Its own layer above the fields after it: Editor.js's block menu and toolbars open over them, never under their labels.
  // While a menu or toolbar is open it rises above the hub's sticky publishing bar too (which otherwise stays above the
  // text scrolling under it).
  return <Box ref={holder} data-testid="blog-editor" sx={{ position: 'relative', zIndex: 2, minHeight: EDITOR_BOX_HEIGHT, boxSizing: 'border-box', '&:has(.ce-popover--opened, .ce-inline-toolbar--showed, .ce-conversion-toolbar--showed)': { zIndex: 4 }, border: 1, borderColor: 'divider', borderRadius: 1, px: { xs: 1, sm: 6 }, py: 1, bgcolor: 'background.paper', '& .ce-block__content, & .ce-toolbar__content': { maxWidth: 'none' }, '& .image-tool__image-picture': { width: `var(${IMAGE_WIDTH_VARIABLE}, auto)` } }} />;
});
