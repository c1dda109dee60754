import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { Box } from '@mui/material';
import EditorJS, { type OutputData, type ToolConstructable, type ToolSettings } from '@editorjs/editorjs';
import Header from '@editorjs/header';
import List from '@editorjs/list';
import Quote from '@editorjs/quote';
import Code from '@editorjs/code';
import LinkTool from '@editorjs/link';
import ImageTool from '@editorjs/image';
import Embed from '@editorjs/embed';
import Delimiter from '@editorjs/delimiter';
import Marker from '@editorjs/marker';
import InlineCode from '@editorjs/inline-code';
import Underline from '@editorjs/underline';
import { sessionStore } from '../../lib/session';
import { uploadBlogImage, type BlogContent } from './api';

export interface BlogEditorHandle {
  save(): Promise<BlogContent>;
}

/**
 * The post's rich text in Editor.js (its own chunk: loaded only when the hub's editor opens). The seeds' toolbar as
 * Editor.js tools: headers 1-6, lists, quote, code block, link, image (uploaded to the server), video (embeds from
 * YouTube and Vimeo); bold, italic, underline, marker, inline code and links in the inline toolbar.
 */
export const BlogEditor = forwardRef<BlogEditorHandle, { initial: BlogContent; onError: (message: string) => void }>(function BlogEditor({ initial, onError }, ref) {
  const holder = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorJS | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => {
    if (!holder.current) return;
    const session = sessionStore.get();
    const instance = new EditorJS({
      holder: holder.current,
      data: initial as OutputData,
      placeholder: 'Write your article…',
      minHeight: 160,
      tools: {
        header: { class: Header as unknown as ToolConstructable, inlineToolbar: true, config: { levels: [1, 2, 3, 4, 5, 6], defaultLevel: 2 } } as ToolSettings,
        list: { class: List as unknown as ToolConstructable, inlineToolbar: true },
        quote: { class: Quote as unknown as ToolConstructable, inlineToolbar: true },
        code: Code as unknown as ToolConstructable,
        delimiter: Delimiter as unknown as ToolConstructable,
        linkTool: { class: LinkTool, config: { endpoint: '/api/v1/blogs/link-meta', headers: session ? { Authorization: `Bearer ${session.token}` } : {} } },
        image: {
          class: ImageTool as unknown as ToolConstructable,
          config: {
            uploader: {
              uploadByFile: (file: File) =>
                uploadBlogImage(file).catch((error: unknown) => {
                  onErrorRef.current(error instanceof Error ? error.message : 'Error uploading image');
                  return { success: 0 };
                }),
              // Only files are taken: an address elsewhere would not show under the page's Content Security Policy.
              uploadByUrl: () => Promise.resolve({ success: 0 }),
            },
          },
        },
        embed: { class: Embed as unknown as ToolConstructable, config: { services: { youtube: true, vimeo: true } } },
        marker: Marker,
        inlineCode: InlineCode as unknown as ToolConstructable,
        underline: Underline as unknown as ToolConstructable,
      },
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
    // The editor is made once per post; `initial` is read only then.
  }, []);

  useImperativeHandle(ref, () => ({
    async save() {
      const instance = editor.current;
      if (!instance) return { blocks: [] };
      await instance.isReady;
      return (await instance.save()) as BlogContent;
    },
  }));

  return <Box ref={holder} data-testid="blog-editor" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: { xs: 1, sm: 6 }, py: 1, bgcolor: 'background.paper', '& .ce-block__content, & .ce-toolbar__content': { maxWidth: 'none' } }} />;
});
